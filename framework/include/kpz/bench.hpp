#pragma once
// Benchmark harness: kernel time only (CUDA: events on a held stream; host: fence before and
// after each timed launch), warm-up, median of many runs, GB/s from a bytes-moved model, and the
// same-run baselines every puzzle is compared with (a device-to-device copy).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kpz/backend_traits.hpp"
#include "kpz/json.hpp"
#include "kpz/library_baselines.hpp"
#include "kpz/registry.hpp"
#include "kpz/spaces.hpp"
#include "kpz/transfer.hpp"

namespace kpz {

struct Timing {
  double median_s = 0, min_s = 0, max_s = 0;
  int runs = 0;
};

struct BenchConfig {
  int warmup = 3;
  int runs = 30;
};

Timing summarize(std::vector<double> seconds);

#if defined(KOKKOS_ENABLE_CUDA)
// CUDA events around `launch` on the stream of `space`, which is held busy by a short kernel while
// the host enqueues it (framework/src/gpu_timer.cpp): GPU time only, no host launch overhead.
Timing time_cuda_events(const Kokkos::Cuda& space, const BenchConfig& cfg, const std::function<void()>& launch);
// The L2 of the GPU Kokkos runs on, in bytes.
std::size_t cuda_l2_bytes();
#endif

// Where the host is the device: fence, start, launch, fence, stop.
// A row that is slow by design (seconds per run on a CPU, e.g. Kokkos::BinSort) gets fewer runs,
// so that a whole bench stays practical: at most about kSlowRowBudget seconds per row, at least
// kSlowRowMinRuns runs; the row's `runs` says how many were taken.
inline constexpr double kSlowRowBudget = 10.0;
inline constexpr int kSlowRowMinRuns = 3;

template <class Space, class Launch>
Timing time_fenced(const Space& space, const BenchConfig& cfg, Launch&& launch) {
  int runs = cfg.runs;
  for (int i = 0; i < cfg.warmup; ++i) {
    space.fence();
    Kokkos::Timer first;
    launch();
    space.fence();
    const double t = first.seconds();
    if (i == 0 && t * cfg.runs > kSlowRowBudget) {
      runs = std::max(std::min(cfg.runs, kSlowRowMinRuns), static_cast<int>(kSlowRowBudget / t));
      if (t > 1.0) break;  // one warm-up is enough for a kernel of seconds
    }
  }
  space.fence();
  std::vector<double> seconds;
  seconds.reserve(runs);
  for (int i = 0; i < runs; ++i) {
    space.fence();
    Kokkos::Timer timer;
    launch();
    space.fence();
    seconds.push_back(timer.seconds());
  }
  return summarize(std::move(seconds));
}

// Times `launch` (which must only enqueue work on `space`): time_cuda_events on CUDA,
// time_fenced elsewhere.
template <class Space, class Launch>
Timing time_kernel(const Space& space, const BenchConfig& cfg, Launch&& launch) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>)
    return time_cuda_events(space, cfg, std::function<void()>(launch));
  else
#endif
    return time_fenced(space, cfg, launch);
}

// A timing that an external library reports itself (e.g. CUDA events around CUB).
struct ExternalTiming {
  std::string name;
  Timing timing;
  double bytes;
};

struct BenchRow {
  std::string name;   // e.g. "conv1d reference (K=3)"
  std::string kind;   // "puzzle", "copy", "builtin", "library"
  std::string group;  // rows of one group are compared with each other, e.g. "K=3"
  double bytes = 0;   // bytes-moved model
  Timing timing;
  // Optional puzzle-specific ratios printed as extra columns "<name> x" after the standard ones
  // (e.g. a step speed-up), in the order their names first appear in the report.
  std::vector<std::pair<std::string, double>> extra = {};
  // The puzzle's portable exercise variant (the three levels, one source for CPU and GPU): the
  // row `docs/one-source-two-machines.md` and its chart compare across machines.
  bool portable = false;
};

struct BenchReport {
  std::string puzzle;
  std::string space;
  Json config = Json::object();
  std::vector<BenchRow> rows;
  std::vector<std::string> notes;
  // The last-level cache of the machine the bench ran on (a host's L3, a GPU's L2; 0: unknown): a
  // row whose bytes fit in it may be timing the cache, not memory, and the table says so.
  std::size_t cache_bytes = 0;
  // A rank other than the first of a bench that spans MPI ranks (PuzzleSpec::ranks): the first
  // rank prints the table of them all.
  bool follower = false;
};

// The last-level cache of the machine `space` (a space name: "cuda", "openmp", ...) runs on, in
// bytes; 0 when the system does not say.
std::size_t last_level_cache_bytes(const std::string& space);

struct BenchRequest {
  std::string space;
  Params params;
  BenchConfig cfg;
  Impl impl = Impl::reference;
  int team_size = 0;      // 0: the framework's launch shape for Purpose::speed
  int vector_length = 0;  // 0: likewise
  static constexpr Purpose purpose = Purpose::speed;
  std::uint64_t seed = 2026;
  int ranks = 1;  // MPI ranks it runs on, for a puzzle that spans them (PuzzleSpec::ranks)
};

struct BenchSpec {
  std::string puzzle;
  std::string summary;
  std::vector<OptionSpec> options;
  std::function<BenchReport(const BenchRequest&)> run;
};

class BenchRegistry {
 public:
  static BenchRegistry& instance();
  void add(BenchSpec spec) { benches_.push_back(std::move(spec)); }
  const BenchSpec* find(std::string_view puzzle) const;

 private:
  std::vector<BenchSpec> benches_;
};

// The bench of a puzzle that declares PuzzleSpec::bytes_moved instead of a bench of its own:
// each variant's run with its kernel call timed (kpz::timed); `puzzle` must outlive it.
BenchSpec bench_from_run(const PuzzleSpec& puzzle);

// Registers a bench at static initialisation (KPZ_REGISTER_BENCH): its run, its puzzle, its
// options and, last, the one-line summary of what it times (prose that may wrap over lines).
struct BenchRegistrar {
  BenchRegistrar(std::function<BenchReport(const BenchRequest&)> run, std::string puzzle,
                 std::vector<OptionSpec> options, std::string summary) {
    BenchRegistry::instance().add({std::move(puzzle), std::move(summary), std::move(options), std::move(run)});
  }
};

// The options benches share, so that a bench's list states only what is its own. --size: the
// problem size, 0 for a default per machine that `help` states.
inline OptionSpec size_option(std::string help, std::int64_t max) {
  return {"size", std::move(help), 0, 0, max};
}
// The size a bench runs at: --size when given, else its default for a GPU or for a host.
template <class Space>
std::size_t bench_size(const BenchRequest& req, std::size_t gpu_default, std::size_t host_default) {
  if (req.params.get("size")) return static_cast<std::size_t>(req.params.get("size"));
  return is_gpu_v<Space> ? gpu_default : host_default;
}
// A switch, 0 unless given (`--sweep 1` adds rows, `--framework-only 1` leaves some out).
inline OptionSpec switch_option(std::string name, std::string help) {
  return {std::move(name), std::move(help), 0, 0, 1};
}

// Arguments of a library baseline registered in kpz::LibraryBaselines (library_baselines.hpp)
// with the signature Timing(const LibraryArgs&): device pointers and sizes whose meaning each
// baseline documents next to its name; it times itself (e.g. CUDA events) and throws
// std::runtime_error when the library reports an error.
struct LibraryArgs {
  std::vector<const void*> in;      // device pointers to inputs
  std::vector<void*> out;           // device pointers to outputs
  std::vector<std::int64_t> sizes;  // element counts
  BenchConfig cfg;                  // warm-up and timed runs
};
using LibraryTimedFn = Timing(const LibraryArgs&);

// dst = src (same extent) as a competent user writes the copy: four consecutive elements per work
// item, all loaded before any is stored. One element per item keeps one 4-byte load in flight per
// GPU thread, and HBM idles (40 % of memcpy on an H200, 95 % this way; 99 % of deep_copy on a
// 16-core host): benchmarks/results/portability-notes.md, "The copy baseline on the GPU".
template <class Space, class Src, class Dst>
void copy_as_parallel_for(const Space& space, const Src& src, const Dst& dst) {
  const std::size_t n = src.extent(0), quads = n / 4;
  Kokkos::parallel_for(
      "kpz::bench::copy", Kokkos::RangePolicy<Space>(space, 0, (n + 3) / 4), KOKKOS_LAMBDA(std::size_t q) {
        if (q < quads) {
          typename Dst::value_type x[4];
          for (int j = 0; j < 4; ++j) x[j] = src(4 * q + j);
          for (int j = 0; j < 4; ++j) dst(4 * q + j) = x[j];
        } else {
          for (std::size_t i = 4 * quads; i < n; ++i) dst(i) = src(i);
        }
      });
}

// The copy baselines' source (filled) and destination: a function of its own, because nvcc
// refuses a device lambda in a function template whose arguments include a local lambda's type
// (add_copy_rows' Time).
template <class Space>
std::pair<Kokkos::View<float*, typename Space::memory_space>, Kokkos::View<float*, typename Space::memory_space>>
copy_baseline_views(const Space& space, std::size_t n) {
  using V = Kokkos::View<float*, typename Space::memory_space>;
  V src(Kokkos::view_alloc(space, "copy_src"), n), dst(Kokkos::view_alloc(space, "copy_dst"), n);
  Kokkos::parallel_for(
      "kpz::bench::fill", Kokkos::RangePolicy<Space>(space, 0, n),
      KOKKOS_LAMBDA(std::size_t i) { src(i) = static_cast<float>(i % 1024) * 0.5f; });
  return {src, dst};
}

// Device-to-device copy of `n` floats on `space` (Kokkos::deep_copy: cudaMemcpy on CUDA),
// and the same copy as a parallel_for: the two copy baselines. Appends two rows. The "% copy"
// column compares a row with the first deep_copy row of its own group, else with the first one.
// `time(launch)` times a launch; `copies` is how many such copies run at once (MPI ranks each
// copying their slice together), so that a row's bytes are all of theirs.
template <class Space, class Time>
void add_copy_rows(BenchReport& report, const Space& space, std::size_t n, const Time& time, double copies,
                   const std::string& group) {
  const auto views = copy_baseline_views(space, n);
  const auto& src = views.first;
  const auto& dst = views.second;
  const auto library_copy = [&] { Kokkos::deep_copy(space, dst, src); };
  const auto kernel_copy = [&] { copy_as_parallel_for(space, src, dst); };
  const double bytes = copies * 2.0 * sizeof(float) * static_cast<double>(n);
  const std::string suffix = group.empty() ? "" : ", " + group;
  report.rows.push_back({.name = "device-to-device copy (deep_copy)" + suffix,
                         .kind = "copy",
                         .group = group,
                         .bytes = bytes,
                         .timing = time(library_copy)});
  report.rows.push_back({.name = "copy as parallel_for" + suffix,
                         .kind = "copy",
                         .group = group,
                         .bytes = bytes,
                         .timing = time(kernel_copy)});
}

// The copy baselines on one space, each timed by time_kernel.
template <class Space>
void add_copy_baselines(BenchReport& report, const Space& space, std::size_t n, const BenchConfig& cfg,
                        const std::string& group = "") {
  add_copy_rows(
      report, space, n, [&](const auto& launch) { return time_kernel(space, cfg, launch); }, 1.0, group);
}

// A report's puzzle and space, and the config's size (under `size_key`: batched counts matrix
// entries), impl, warm-up and runs.
template <class Space>
BenchReport start_bench_report(const std::string& puzzle, const Space& /*the space: its name*/, const BenchRequest& req,
                               std::size_t n, const std::string& size_key = "size") {
  BenchReport report;
  report.puzzle = puzzle;
  report.space = std::string(space_name<Space>());
  report.config.set(size_key, n).set("impl", std::string(to_string(req.impl)));
  report.config.set("warmup", req.cfg.warmup).set("runs", req.cfg.runs);
  return report;
}

// The opening every benchmark on one space shares: start_bench_report, then the copy baselines
// of `n` floats (add_copy_baselines).
template <class Space>
BenchReport open_bench_report(const std::string& puzzle, const Space& space, const BenchRequest& req, std::size_t n,
                              const std::string& size_key = "size") {
  BenchReport report = start_bench_report(puzzle, space, req, n, size_key);
  add_copy_baselines(report, space, n, req.cfg);
  return report;
}

// One row, checked before it is timed: `prepare` (poison the outputs, restore an input the
// kernel overwrites), `launch` once, then `verify`, which throws when the result is wrong (a
// wrong kernel is never timed); then `launch` is timed (time_kernel) into `row`. `launch` must
// only enqueue work on `space`.
template <class Space, class Prepare, class Launch, class Verify>
BenchRow& add_checked_row(BenchReport& report, const Space& space, const BenchConfig& cfg, BenchRow row,
                          Prepare&& prepare, Launch&& launch, Verify&& verify) {
  prepare();
  launch();
  space.fence();
  verify();
  row.timing = time_kernel(space, cfg, launch);
  report.rows.push_back(std::move(row));
  return report.rows.back();
}

// Refuses to time a wrong kernel: throws unless ok(k, got[k]) holds at a strided sample of about
// 4099 indices k of `got` (the whole oracle would cost more than the bench).
template <class T, class Ok>
void verify_sample(const std::vector<T>& got, const Ok& ok, const std::string& what) {
  for (std::size_t k = 0; k < got.size(); k += got.size() / 4099 + 1)
    if (!ok(k, got[k]))
      throw std::runtime_error(what + " gives a wrong result at index " + std::to_string(k) + ": refusing to time it");
}

// What a kernel that reports its output's length wrote: the first `count` elements of the device
// View `out`, on the host (none for a negative count); the second form reads the count from
// element `at` of the device View `counts`.
template <class Out>
std::vector<typename Out::non_const_value_type> host_prefix(const Out& out, long long count) {
  std::vector<typename Out::non_const_value_type> all = to_host(out);
  all.resize(count < 0 ? 0 : static_cast<std::size_t>(count));
  return all;
}
template <class Out, class Counts>
std::vector<typename Out::non_const_value_type> host_prefix(const Out& out, const Counts& counts, std::size_t at) {
  typename Counts::non_const_value_type count{};
  Kokkos::deep_copy(count, Kokkos::subview(counts, at));
  return host_prefix(out, static_cast<long long>(count));
}

// Text table: time, GB/s, % of the deep_copy row, and ratio to the group's builtin/library row.
void print_bench(std::ostream& os, const BenchReport& report);
Json bench_json(const BenchReport& report);

}  // namespace kpz

// Registers the bench of this file: KPZ_REGISTER_BENCH("puzzle", {options...}, "summary"), as
// BenchRegistrar takes them. It runs `bench_on(space, req)`, a template over the execution space
// declared before the macro, on the space the request names: a macro because a template cannot be
// passed as a value (KPZ_ON_REQUEST_SPACE), and every bench is written that way.
#define KPZ_REGISTER_BENCH(...) \
  static const ::kpz::BenchRegistrar kpz_bench_registrar(KPZ_ON_REQUEST_SPACE(bench_on), __VA_ARGS__)
