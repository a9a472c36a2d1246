// `kpuzzles bench reduce`: the book's table for this device. Every rung of the ladder (neighbored
// ... template), then persistent (beyond the book), team-reduce (the portable rung: Kokkos'
// levels), recursive, Kokkos::parallel_reduce, Kokkos Kernels (KokkosBlas::sum, and the team-level
// dot doing --team-reduce's job) and, in CUDA builds, CUB DeviceReduce::Sum, next to a
// device-to-device copy of the same bytes. Each row is the whole reduction to one value (team
// kernel + second launch, or --persistent's one launch with its last team done), checked before
// it is timed. Every row runs in the framework's speed shape (kpz/launch_shape.hpp; on a CPU one
// thread per team), listed per row under config.shapes.
// Columns beyond the standard ones: step (speed-up over the previous rung), cumulative (over
// neighbored) and, when a library row exists, the ratio to Kokkos' parallel_reduce.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kokkos_kernels_baselines.hpp"
#include "kpz/backend_traits.hpp"
#include "kpz/bench.hpp"
#include "kpz/check.hpp"
#include "kpz/errors.hpp"
#include "kpz/library_baselines.hpp"
#include "kpz/transfer.hpp"
#include "library.hpp"
#include "reduce/reduce.hpp"

namespace kpz::reduce {

namespace {

// The ladder in the book's order, then the rung beyond the book. Rows after these have no step.
const Variant kLadder[] = {Variant::neighbored,    Variant::neighbored_less, Variant::interleaved,
                           Variant::unroll2,       Variant::unroll4,         Variant::unroll8,
                           Variant::unroll_warps8, Variant::complete_unroll, Variant::template_lanes,
                           Variant::persistent};

// Rows that are slow by design on this backend say so in their name (see docs/puzzles/reduce.md).
// The H100 rows keep their names (benchmarks/results/reduce-h100.json is compared by name).
std::string slow_note(Variant v, bool gpu) {
  if (gpu) return "";
  if (v == Variant::neighbored) return " (slow by design: every lane tests every step)";
  return "";
}

std::string power_label(std::size_t n) {
  int p = 0;
  while ((std::size_t{1} << (p + 1)) <= n) ++p;
  return (std::size_t{1} << p) == n ? "2^" + std::to_string(p) : std::to_string(n);
}

struct Config {
  int lanes;
  ShapeRequest shape;  // --team-size, --vector-length (0: the framework's speed shape)
  int tile;            // --tile for --team-reduce (0: the shape's)
  BenchConfig cfg;
  Impl impl;
  bool sweep = false;  // --sweep 1: --persistent over team sizes and leagues as well
};

// --sweep 1: --persistent with every team size the backend takes from 64 (host: 1) up, and
// leagues of 1/4, 1/2, 1 and 2 times the teams the device holds at once (its concurrency divided
// by the team size). The CUDA defaults (persistent_league) were chosen from these rows; they are
// in a group of their own so that the ladder's columns stay the book's.
template <class Space, class T, class Check>
void sweep_persistent(BenchReport& report, const Space& space, std::size_t n, const Config& c, View<const T*, Space> in,
                      View<T*, Space> partial, View<T*, Space> result, View<unsigned*, Space> done, double bytes,
                      const std::string& suffix, const Check& check_result) {
  const std::string group = "persistent sweep" + suffix;
  // The group's own copy row (the same measurement), so that `% copy` compares within the size.
  const auto copy_row = std::find_if(report.rows.begin(), report.rows.end(), [&](const BenchRow& r) {
    return r.kind == "copy" && r.group == "N=" + power_label(n);
  });
  if (copy_row != report.rows.end()) {
    BenchRow copy = *copy_row;  // a copy: push_back may move the rows
    copy.group = group;
    report.rows.push_back(copy);
  }
  const int concurrency = space.concurrency();
  const int smallest = is_gpu_v<Space> ? 64 : 1;
  for (int team_size = smallest; team_size <= team_size_max(space); team_size *= 2) {
    int previous = 0;
    for (const int quarters : {1, 2, 4, 8}) {
      const int league =
          std::max(1, static_cast<int>(static_cast<long long>(concurrency) * quarters / (4 * team_size)));
      if (league == previous || static_cast<std::size_t>(league) > partial.extent(0)) continue;
      previous = league;
      const Launch launch{team_size, c.lanes, league};
      try {
        check_scratch<Space>(persistent_scratch_bytes<Space, T>(team_size), 0, "reduce --persistent");
      } catch (const std::exception&) {
        continue;
      }
      const std::string name =
          "--persistent --team-size " + std::to_string(team_size) + " --teams " + std::to_string(league);
      add_checked_row(
          report, space, c.cfg, {name + suffix, "puzzle", group, bytes, {}}, [&] { poison(result); },
          [&] {
            run_variant<Space, T>(c.impl, Variant::persistent, space, launch, in, partial, partial, result, done);
          },
          check_result("reduce " + name));
    }
  }
}

template <class Space, class T>
void bench_size(BenchReport& report, const Space& space, std::size_t n, const Config& c, std::uint64_t seed) {
  const bool gpu = is_gpu_v<Space>;
  const bool is_float = !std::is_integral_v<T>;
  const std::string group = "N=" + power_label(n);
  const std::string suffix = ", " + power_label(n) + (is_float ? " floats" : " ints");
  const auto timed = [&](const std::function<void()>& launch) { return time_kernel(space, c.cfg, launch); };
  const double bytes = static_cast<double>(sizeof(T)) * static_cast<double>(n);

  const std::vector<T> host = random_values<T>(n, seed);
  double exact = 0, abs_sum = 0;
  for (const T x : host) {
    exact += static_cast<double>(x);
    abs_sum += std::fabs(static_cast<double>(x));
  }
  const double tolerance = is_float ? sum_error_bound(abs_sum, n) : 0.0;
  auto in_dev = to_device(space, "in", host);
  const View<const T*, Space> in = in_dev;

  // The copy baselines: the same bytes read and written once (deep_copy: cudaMemcpy on CUDA).
  {
    View<T*, Space> dst(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "copy_dst"), n);
    report.rows.push_back({.name = "device-to-device copy (deep_copy)" + suffix,
                           .kind = "copy",
                           .group = group,
                           .bytes = 2 * bytes,
                           .timing = timed([&] { Kokkos::deep_copy(space, dst, in); })});
    report.rows.push_back({.name = "copy as parallel_for" + suffix,
                           .kind = "copy",
                           .group = group,
                           .bytes = 2 * bytes,
                           .timing = timed([&] { copy_as_parallel_for(space, in, dst); })});
  }

  // Purpose::speed: on a CPU one thread per team (Kokkos' recommendation), so the ladder's
  // barriers cost nothing and each team's tree runs in one core's L1; on CUDA the book's blocks.
  // --vector-length is --team-reduce's only (the ladder has no vector lanes).
  const auto plan = [&](const VariantInfo& vi) {
    const ShapeRequest req{c.shape.team_size, vi.variant == Variant::team_reduce ? c.shape.vector_length : 0};
    LaunchShape shape;
    const Launch launch = plan_launch(space, vi, n, c.lanes, c.tile, 0, req, Purpose::speed, &shape);
    if (!report.config.find("shapes")) report.config.set("shapes", Json::object());
    Json s = shape.to_json();
    s.set("teams", launch.league);
    report.config.find("shapes")->set(std::string(vi.name) + suffix, s);
    return launch;
  };
  // One array for every row's partial sums: the most teams any row launches (an explicit --tile
  // smaller than the lanes gives --team-reduce the most).
  const std::size_t team_reduce_teams = c.tile > 0 ? (n + c.tile - 1) / static_cast<std::size_t>(c.tile) : 0;
  View<T*, Space> partial(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "partial"),
                          std::max({static_cast<std::size_t>(ladder_league(n, c.lanes, 1)), team_reduce_teams,
                                    static_cast<std::size_t>(space.concurrency())}));
  View<T*, Space> work(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "work"), recursive_work_size(n, c.lanes));
  View<T*, Space> result(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "result"), 1);
  View<unsigned*, Space> done(Kokkos::view_alloc(space, "done"), 1);  // --persistent's counter, 0

  const auto check_sum = [&](double got, const std::string& what) {
    if (!(std::fabs(got - exact) <= tolerance))
      throw std::runtime_error(what + " gives " + format_number(got) + " instead of " + format_number(exact) +
                               ": refusing to time it");
  };
  // Every row but CUB's leaves its sum in `result`, poisoned before the checked run.
  const auto poison_result = [&] { poison(result); };
  const auto check_result = [&](const std::string& what) {
    return [&, what] { check_sum(static_cast<double>(to_host(result)[0]), what); };
  };

  std::vector<std::size_t> ladder_rows;  // indices into report.rows, in the ladder's order
  Launch team_launch{0, 0, 0};           // --team-reduce's, for the library's team-level row
  std::vector<Variant> order(std::begin(kLadder), std::end(kLadder));
  order.push_back(Variant::team_reduce);
  order.push_back(Variant::recursive);
  order.push_back(Variant::builtin);
  for (const Variant v : order) {
    const VariantInfo& vi = info(v);
    Launch launch{1, c.lanes, 1};
    try {
      launch = plan(vi);
    } catch (const ShapeError&) {
      throw;  // the user's --team-size / --vector-length: the CLI names the flag
    } catch (const UsageError& e) {
      report.notes.push_back(std::string("skipped --") + vi.name + ": " + e.what());
      continue;
    }
    check_scratch<Space>(scratch_bytes<Space, T>(vi, launch), 0, std::string("reduce --") + vi.name);
    if (v == Variant::team_reduce) team_launch = launch;
    const std::string name = std::string("--") + vi.name + slow_note(v, gpu) + suffix;
    if (v != Variant::recursive && v != Variant::builtin) ladder_rows.push_back(report.rows.size());
    add_checked_row(
        report, space, c.cfg,
        {.name = name,
         .kind = v == Variant::builtin ? "builtin" : "puzzle",
         .group = group,
         .bytes = bytes,
         .portable = v == Variant::team_reduce},
        poison_result, [&] { run_variant<Space, T>(c.impl, v, space, launch, in, partial, work, result, done); },
        check_result("reduce " + name));
  }

  if (c.sweep) sweep_persistent<Space, T>(report, space, n, c, in, partial, result, done, bytes, suffix, check_result);

  if (auto* sum = gpu ? LibraryBaselines::instance().find<LibrarySumFn>(kCubSum) : nullptr) {
    LibraryResult lib = sum(in.data(), n, is_float, c.cfg);
    check_sum(lib.sum, lib.name);
    report.rows.push_back(
        {.name = lib.name + suffix, .kind = "library", .group = group, .bytes = bytes, .timing = lib.timing});
  }

#if defined(KPZ_HAS_KOKKOSKERNELS)
  // Kokkos Kernels: the whole sum in one call, and --team-reduce's job (a team per tile, the same
  // tile and threads per team) done by the team-level dot.
  {
    namespace kk = kokkos_kernels;
    std::vector<std::pair<std::string, std::function<void()>>> library_rows{
        {"KokkosBlas::sum", [&] { kk::device_sum<Space, T>(space, in, result); }}};
    std::unique_ptr<kk::TeamDotSum<Space, T>> team_dot;
    if (team_launch.team_size > 0) {
      const int threads = gpu ? std::min(team_launch.team_size * team_launch.vector_length, team_size_max(space))
                              : team_launch.team_size;
      team_dot = std::make_unique<kk::TeamDotSum<Space, T>>(space, n, team_launch.tile, threads);
      library_rows.push_back({"KokkosBlas::Experimental::dot (team, x . 1) per --team-reduce tile + KokkosBlas::sum",
                              [&] { (*team_dot)(in, result); }});
    }
    for (const auto& [name, launch_fn] : library_rows)
      add_checked_row(report, space, c.cfg, {name + suffix, "library", group, bytes, {}}, poison_result, launch_fn,
                      check_result(name));
  }
#endif

  // The input must be what it was (the kernels take View<const T*>; this checks it end to end).
  if (to_host(in_dev) != host) throw std::runtime_error("reduce bench: a kernel modified the input");

  // Extra columns for this group: step and cumulative speed-ups, and the ratio to the built-in.
  const BenchRow* builtin = nullptr;
  bool library = false;
  for (const auto& r : report.rows)
    if (r.group == group) {
      if (r.kind == "builtin") builtin = &r;
      if (r.kind == "library") library = true;
    }
  const double first = ladder_rows.empty() ? 0 : report.rows[ladder_rows.front()].timing.median_s;
  for (std::size_t k = 0; k < ladder_rows.size(); ++k)  // the first rung's step is 1.00x, as in the book
    report.rows[ladder_rows[k]].extra.push_back({"step", report.rows[ladder_rows[k == 0 ? 0 : k - 1]].timing.median_s /
                                                             report.rows[ladder_rows[k]].timing.median_s});
  for (auto& r : report.rows) {
    if (r.group != group || r.kind == "copy") continue;
    if (first > 0) r.extra.push_back({"cumulative", first / r.timing.median_s});
    if (library && builtin && &r != builtin)
      r.extra.push_back({"vs builtin", builtin->timing.median_s / r.timing.median_s});
  }
}

template <class Space>
BenchReport bench_on(const Space& space, const BenchRequest& req) {
  const bool gpu = is_gpu_v<Space>;
  std::vector<std::size_t> sizes;
  if (req.params.get("size"))
    sizes = {static_cast<std::size_t>(req.params.get("size"))};
  else if (gpu)
    sizes = {std::size_t{1} << 24, std::size_t{1} << 28};
  else
    sizes = {std::size_t{1} << 24};
  // The ladder's tree width when --lanes is not given: the book's block of 512 on a GPU; 64 on a
  // CPU, where a team is one thread and --neighbored's log2(lanes) passes over every slot are its
  // whole cost (16-core Xeon, 2^26 ints: 4.3 % of copy at 512 lanes, 5.4 % at 128, 6.0 % at 64; the other
  // rungs stay between 20 % and 180 %; benchmarks/results/portability-notes.md).
  const int default_lanes = is_gpu_v<Space> ? 512 : 64;
  const Config c{req.params.get("lanes") ? static_cast<int>(req.params.get("lanes")) : default_lanes,
                 ShapeRequest{req.team_size, req.vector_length},
                 static_cast<int>(req.params.get("tile")),
                 req.cfg,
                 req.impl,
                 req.params.get("sweep") != 0};
  const bool is_float = req.params.get("float") != 0;

  BenchReport report;
  report.puzzle = "reduce";
  report.space = std::string(space_name<Space>());
  report.config.set("sizes", Json::array_of(sizes)).set("type", is_float ? "float" : "int").set("lanes", c.lanes);
  report.config.set("impl", std::string(to_string(req.impl))).set("warmup", req.cfg.warmup).set("runs", req.cfg.runs);
  report.config.set("timer", gpu ? "cuda events, held stream" : "fence + host timer");
#if defined(KPZ_HAS_KOKKOSKERNELS)
  report.config.set("kokkos_kernels", true);
#else
  report.config.set("kokkos_kernels", false);
#endif
  for (const std::size_t n : sizes) {
    if (is_float)
      bench_size<Space, float>(report, space, n, c, req.seed);
    else
      bench_size<Space, int>(report, space, n, c, req.seed);
  }
  report.notes.push_back(
      "each row: the whole sum (team kernel + second launch; persistent: one launch, the last team adds the partial "
      "sums; recursive: every level), kernel time only");
  report.notes.push_back(
      "step: speed-up over the rung above; cumulative: over --neighbored; bytes: N values read once");
  return report;
}

KPZ_REGISTER_BENCH(
    "reduce",
    {size_option("N (0: 2^24 and 2^28 on a GPU, 2^24 on the host)", std::int64_t{1} << 28),
     {"lanes", "scratch slots per team for the ladder (0: 512, the book's block size, on a GPU; 64 on a CPU)", 0, 0,
      4096},
     {"tile", "values per team for --team-reduce (0: the framework's launch shape)", 0, 0, 1 << 24},
     switch_option("float", "0: int values (the book); 1: float values"),
     switch_option("sweep", "1: also --persistent over team sizes and leagues (how its defaults were chosen)")},
    "the reduction ladder (the book's table), persistent, team-reduce, recursive, parallel_reduce, Kokkos Kernels "
    "and CUB, vs a device copy");

}  // namespace

}  // namespace kpz::reduce
