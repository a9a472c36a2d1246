// `kpuzzles bench bin-extract`: on N uniform floats in [0, 1) with 8 bins,
//  --extract (bin 3): the framework's chunked kernel (compact per chunk, then place), the learner's
//    two-level kernel and its --team-scan form (reference or --exercise; the latter is the
//    portable row), Kokkos::Experimental::copy_if (builtin) and,
//    in CUDA builds, CUB DeviceSelect::If (library, benchmarks/bin-extract/cuda/);
//  --partition: the framework's two-pass counting sort, the learner's kernel, and
//    Kokkos::BinSort's permutation plus a gather (builtin; not stable, so only its bins are
//    checked);
// against a device-to-device copy. Every kernel's result is checked before it is timed.
#include <Kokkos_Sort.hpp>
#include <Kokkos_StdAlgorithms.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bin-extract/bin-extract.hpp"
#include "bin-extract/fast/kernels.hpp"
#include "bin-extract/spec.hpp"
#include "kpz/backend_traits.hpp"
#include "kpz/bench.hpp"
#include "kpz/check.hpp"
#include "kpz/errors.hpp"
#include "kpz/library_baselines.hpp"
#include "kpz/transfer.hpp"

namespace kpz::bin_extract {
namespace {

void require_equal(const std::vector<float>& got, const std::vector<float>& want, const std::string& what) {
  if (got.size() != want.size())
    throw std::runtime_error(what + " gives " + std::to_string(got.size()) + " elements instead of " +
                             std::to_string(want.size()) + ": refusing to time it");
  if (!want.empty() && std::memcmp(got.data(), want.data(), want.size() * sizeof(float)) != 0)
    throw std::runtime_error(what + " gives a wrong or unstable output: refusing to time it");
}

// The built-in partition: BinSort's permutation (bins over [0, 1]; 1.0 lands in its extra bin),
// then a gather. Kokkos 5.0.2's create_permute_vector adds to the bin counts of an earlier call,
// so they are cleared before every call.
template <class Space>
struct BinSortPartition {
  using KeyView = View<const float*, Space>;
  using Sorter = Kokkos::BinSort<KeyView, Kokkos::BinOp1D<KeyView>>;
  Sorter sorter;
  BinSortPartition(const Space& space, KeyView keys, int num_bins)
      : sorter(space, keys, Kokkos::BinOp1D<KeyView>(num_bins, 0.0f, 1.0f), false) {}
  void run(const Space& space, KeyView in, View<float*, Space> out) {
    const auto counts = sorter.get_bin_count();
    Kokkos::deep_copy(space, View<int*, Space>(const_cast<int*>(counts.data()), counts.extent(0)), 0);
    sorter.create_permute_vector(space);
    const auto perm = sorter.get_permute_vector();
    Kokkos::parallel_for(
        "bin_extract::binsort_gather", Kokkos::RangePolicy<Space>(space, 0, in.extent(0)),
        KOKKOS_LAMBDA(const int i) { out(i) = in(perm(i)); });
  }
};

template <class Space>
BenchReport bench_on(const Space& space, const BenchRequest& req) {
  const bool gpu = is_gpu_v<Space>;
  const std::size_t n = bench_size<Space>(req, std::size_t{1} << 28, std::size_t{1} << 22);
  const int num_bins = static_cast<int>(req.params.get("num-bins"));
  const int target = static_cast<int>(req.params.get("target-bin"));
  if (target >= num_bins)
    throw UsageError("--target-bin " + std::to_string(target) + " is not a bin: use 0.." +
                     std::to_string(num_bins - 1));
  const auto kern = kernels<Space>(req.impl);
  const bool all = req.params.get("framework-only") == 0;  // else only the framework's kernels and the copies
  const std::string impl(to_string(req.impl));
  // The learner's kernels at the backend's speed shape (a CPU: one thread per team, so that their
  // team scans and barriers cost nothing); --team-scan's own shape; the fast kernels' own launch.
  KernelNeeds needs;
  needs.gpu_team = 256;
  needs.gpu_tile = needs.host_tile = default_tile<Space>();
  const LaunchShape shape = launch_shape(space, needs, ShapeRequest{req.team_size, 0}, Purpose::speed);
  const LaunchShape scan_shape = team_scan_shape(space, ShapeRequest{req.team_size, req.vector_length}, Purpose::speed);
  const int team_size = shape.team_size;
  const Launch launch{team_size, shape.tile};
  const FastLaunch fast = fast_launch(space, n, req.team_size, num_bins);
  check_scratch<Space>(fast_scratch_bytes<Space>(fast, num_bins), 0, "bin-extract fast kernels");
  check_scratch<Space>(partition_scratch_bytes<Space>(launch.tile, num_bins), 0, "bin-extract --partition");

  BenchReport report = open_bench_report("bin-extract", space, req, n);
  report.config.set("num_bins", num_bins).set("target_bin", target);
  report.config.set("team_size", shape.team_size).set("vector_length", shape.vector_length).set("tile", shape.tile);
  report.config.set("team_scan", scan_shape.to_json());
  report.config.set("fast_team_size", fast.team_size).set("fast_tile", fast.tile).set("fast_chunks", fast.chunks);

  const std::vector<float> host_in = make_input(n, num_bins, target, kUniform, req.seed);
  std::vector<float> want_partition(n), want_selected;
  std::vector<std::size_t> want_offsets(num_bins + 1, 0);
  {
    // Host counting sort straight into values (the oracle's order vector would take 8 bytes per
    // element more).
    for (float x : host_in) ++want_offsets[bin_of(x, num_bins) + 1];
    for (int b = 0; b < num_bins; ++b) want_offsets[b + 1] += want_offsets[b];
    std::vector<std::size_t> next(want_offsets.begin(), want_offsets.end() - 1);
    for (float x : host_in) want_partition[next[bin_of(x, num_bins)]++] = x;
    want_selected.assign(want_partition.begin() + want_offsets[target],
                         want_partition.begin() + want_offsets[target + 1]);
  }
  auto in_dev = to_device(space, "in", host_in);
  View<const float*, Space> in = in_dev;
  View<float*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), n);
  const auto poison_out = [&] { poison(out); };

  // --extract: each kernel reports the selection's length, `selected()` reads back what it wrote.
  const std::string xgroup = "extract";
  const auto extract_row = [&](const std::string& name, const std::string& kind, const auto& run, const auto& selected,
                               const std::string& what) -> BenchRow& {
    return add_checked_row(
        report, space, req.cfg,
        {.name = name, .kind = kind, .group = xgroup, .bytes = extract_bytes(n, want_selected.size())}, poison_out, run,
        [&] { require_equal(selected(), want_selected, what); });
  };
  {
    View<float*, Space> staging(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "staging"), n);
    const ExtractLayout xlayout = extract_layout<Space>(fast, n);
    View<int*, Space> chunk_counts(Kokkos::view_alloc(space, "chunk_counts"), xlayout.chunks);
    View<int*, Space> count(Kokkos::view_alloc(space, "count"), 1);
    extract_row(
        "extract: compact per chunk, then place (framework)", "puzzle",
        [&] { extract_chunked(space, xlayout, num_bins, target, in, staging, chunk_counts, out, count); },
        [&] { return host_prefix(out, count, 0); }, "chunked extract");
    // Its two launches alone, each with its own bytes: the compaction reads N and writes the
    // selection to staging, the placing reads and writes the selection.
    const double selection = static_cast<double>(sizeof(float)) * static_cast<double>(want_selected.size());
    const auto compact = [&] { extract_compact(space, xlayout, num_bins, target, in, staging, chunk_counts); };
    report.rows.push_back(
        {.name = "extract launch 1: compact the chunks into staging (framework; bytes: reads N, writes the selection)",
         .kind = "puzzle",
         .group = xgroup,
         .bytes = static_cast<double>(sizeof(float)) * static_cast<double>(n) + selection,
         .timing = time_kernel(space, req.cfg, compact)});
    const auto place = [&] {
      extract_place(space, xlayout, View<const float*, Space>(staging), View<const int*, Space>(chunk_counts), out,
                    count);
    };
    report.rows.push_back(
        {.name = "extract launch 2: place the chunks' selections (framework; bytes: reads and writes the selection)",
         .kind = "puzzle",
         .group = xgroup,
         .bytes = 2.0 * selection,
         .timing = time_kernel(space, req.cfg, place)});
  }
  // The learner's kernels: `teams` teams (a tile or a chunk each), whose offsets the kernel writes in
  // offsets (zeroed before every run), the selection's length in the last.
  const auto learner_extract_row = [&](const std::string& name, const std::string& what, int teams,
                                       const auto& kernel) -> BenchRow& {
    View<int*, Space> offsets(Kokkos::view_alloc(space, "tile_offsets"), teams + 1);
    const auto run = [&] {
      Kokkos::deep_copy(space, offsets, 0);
      kernel(offsets);
    };
    return extract_row(
        name, "puzzle", run, [&] { return host_prefix(out, offsets, teams); }, what);
  };
  if (all)
    learner_extract_row(
        "extract: two levels, nested scans (" + impl + ")", "extract (" + impl + ")", teams_for(n, launch.tile),
        [&](const View<int*, Space>& offsets) { kern.extract(space, launch, num_bins, target, in, offsets, out); });
  if (all) {
    // The portable exercise variant, --team-scan (reference or --exercise).
    check_scratch<Space>(team_scan_scratch_bytes<Space>(scan_shape), 0, "bin-extract --team-scan");
    learner_extract_row("extract: team-scan, TeamVectorRange count, bit masks, team_scan (" + impl + ")",
                        "team-scan extract (" + impl + ")", teams_for(n, scan_shape.tile),
                        [&](const View<int*, Space>& offsets) {
                          kern.team_scan_extract(space, scan_shape, num_bins, target, in, offsets, out);
                        })
        .portable = true;
  }
  if (all) {
    // The portable one-read variant, --one-read: a chunk per member, so offsets has chunks + 1 entries.
    const LaunchShape one_shape = one_read_shape(space, ShapeRequest{req.team_size, req.vector_length}, Purpose::speed);
    const int chunks = one_read_chunks(space, static_cast<long>(n), 0);
    View<float*, Space> staging(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "staging"), n);
    learner_extract_row("extract: one read, a chunk per member, run masks, vector scan, then place (" + impl + ")",
                        "one-read extract (" + impl + ")", chunks,
                        [&](const View<int*, Space>& offsets) {
                          kern.one_read_extract(space, one_shape, chunks, num_bins, target, in, staging, offsets, out);
                        })
        .portable = true;
    report.config.set("one_read", one_shape.to_json().set("chunks", chunks));
  }
  if (all) {
    long long got = 0;
    extract_row(
        "Kokkos::Experimental::copy_if", "builtin",
        [&] {
          const auto end = Kokkos::Experimental::copy_if(space, in, out, InBin{num_bins, target});
          got = end - Kokkos::Experimental::begin(out);
        },
        [&] { return host_prefix(out, got); }, "Kokkos::Experimental::copy_if");
  }
  if (gpu && all) {
    if (auto* cub = LibraryBaselines::instance().find<LibrarySelectFn>(kCubSelectIf)) {
      std::vector<float> selected;
      const ExternalTiming t = cub(host_in, num_bins, target, req.cfg, selected);
      require_equal(selected, want_selected, t.name);
      report.rows.push_back({.name = t.name, .kind = "library", .group = xgroup, .bytes = t.bytes, .timing = t.timing});
    } else {
      report.notes.push_back("CUB DeviceSelect::If: not in this build");
    }
  }

  // --partition
  const std::string pgroup = "partition";
  const double pbytes = partition_bytes(n, num_bins);
  View<int*, Space> bin_offsets(Kokkos::view_alloc(space, "bin_offsets"), num_bins + 1);
  const auto check_offsets = [&](const std::string& what) {
    const std::vector<int> got = to_host(bin_offsets);
    for (int b = 0; b <= num_bins; ++b)
      if (got[b] != static_cast<long long>(want_offsets[b]))
        throw std::runtime_error(what + " gives a wrong bin offset for bin " + std::to_string(b) +
                                 ": refusing to time it");
  };
  // The stable partition in `out` and, with `offsets`, the bins' offsets in bin_offsets.
  const auto check_partition = [&](const std::string& what, bool offsets) {
    return [&, what, offsets] {
      require_equal(to_host(out), want_partition, what);
      if (offsets) check_offsets(what);
    };
  };
  // Both rank a team's tiles; `ballot` ranks each warp's share with ballots and streams the tiles
  // through a scratch ring, `table` through a (bin, member) count table and a team scan.
  const auto rank_only = [](PartitionRank how) {
    return how == PartitionRank::ballot ? std::string("tiles ranked by warp ballots, staged in a scratch ring")
                                        : std::string("tiles ranked by a scratch table and team scan");
  };
  const auto rank_name = [&](PartitionRank how) { return std::string("a chunk per team, ") + rank_only(how); };
  {
    const PartitionLayout layout = partition_layout<Space>(fast, n, num_bins);
    View<int*, Space> chunk_offsets(Kokkos::view_alloc(space, "chunk_offsets"),
                                    partition_chunk_entries(layout, num_bins));
    add_checked_row(
        report, space, req.cfg,
        {.name = "partition: two passes, " + rank_name(layout.rank) + " (framework)",
         .kind = "puzzle",
         .group = pgroup,
         .bytes = pbytes},
        poison_out, [&] { partition_two_pass(space, layout, num_bins, in, chunk_offsets, out, bin_offsets); },
        check_partition("two-pass partition", true));
  }
  // The framework partition's passes timed alone, each with its own bytes, for both ways pass 2
  // ranks a tile (each splits the input its own way, so each has its own pass 1): pass 1 reads N
  // (its last team also scans the few thousand counts into places), pass 2 reads N and writes N.
  for (const PartitionRank how : {PartitionRank::ballot, PartitionRank::table}) {
    const PartitionLayout layout = partition_layout<Space>(fast, n, num_bins, how);
    if (layout.rank != how) {
      report.notes.push_back("partition, " + rank_name(how) + ": only up to " +
                             std::to_string(kpz::team::BallotBinRank<Space, false>::max_bins) + " bins, so no rows");
      continue;
    }
    const std::string chunk = how == PartitionRank::ballot ? "ballot rank" : "table rank";
    View<int*, Space> chunk_offsets(Kokkos::view_alloc(space, "chunk_offsets"),
                                    partition_chunk_entries(layout, num_bins));
    const double n_bytes = static_cast<double>(sizeof(float)) * static_cast<double>(n);
    add_checked_row(
        report, space, req.cfg,
        {.name = "partition pass 1 (" + chunk +
                 "): histograms, scanned into places by the last team (framework; bytes: reads N)",
         .kind = "puzzle",
         .group = pgroup,
         .bytes = n_bytes},
        [] {}, [&] { partition_histograms(space, layout, num_bins, in, chunk_offsets, bin_offsets); },
        [&] { check_offsets("partition pass 1 (" + chunk + ")"); });
    const std::string what = "partition pass 2 (" + chunk + "): scatter, " + rank_only(how) + " (framework)";
    add_checked_row(
        report, space, req.cfg,
        {.name = what + "; bytes: reads N, writes N", .kind = "puzzle", .group = pgroup, .bytes = 2.0 * n_bytes},
        poison_out, [&] { partition_scatter(space, layout, num_bins, in, chunk_offsets, out); },
        check_partition(what, false));
  }
  if (all) {
    const int teams = teams_for(n, launch.tile);
    View<int*, Space> tile_offsets(Kokkos::view_alloc(space, "tile_offsets"),
                                   static_cast<std::size_t>(num_bins) * teams + 1);
    add_checked_row(
        report, space, req.cfg,
        {.name = "partition: scratch histogram, a scan per bin (" + impl + ")",
         .kind = "puzzle",
         .group = pgroup,
         .bytes = pbytes},
        poison_out,
        [&] {
          Kokkos::deep_copy(space, tile_offsets, 0);
          kern.partition(space, launch, num_bins, in, tile_offsets, out, bin_offsets);
        },
        check_partition("partition (" + impl + ")", true));
  }
  if (all) {
    BinSortPartition<Space> binsort(space, in, num_bins);
    // Not stable: check that every bin holds the right elements by sorting within bins.
    const auto check_bins = [&] {
      std::vector<float> got = to_host(out);
      for (int b = 0; b < num_bins; ++b) {
        std::sort(got.begin() + want_offsets[b], got.begin() + want_offsets[b + 1]);
        std::vector<float> want(want_partition.begin() + want_offsets[b], want_partition.begin() + want_offsets[b + 1]);
        std::sort(want.begin(), want.end());
        if (!std::equal(want.begin(), want.end(), got.begin() + want_offsets[b]))
          throw std::runtime_error("Kokkos::BinSort gives a wrong bin " + std::to_string(b) + ": refusing to time it");
      }
    };
    add_checked_row(
        report, space, req.cfg,
        {.name = "Kokkos::BinSort permutation + gather (not stable)",
         .kind = "builtin",
         .group = pgroup,
         .bytes = pbytes},
        poison_out, [&] { binsort.run(space, in, out); }, check_bins);
  }
  report.notes.push_back("bytes: extract reads N and writes the selection (" + std::to_string(want_selected.size()) +
                         " elements); partition reads N, writes N and NUM_BINS + 1 offsets");
  return report;
}

KPZ_REGISTER_BENCH(
    "bin-extract",
    {size_option("N (0: 2^28 on a GPU, 2^22 on the host)", std::int64_t{1} << 30),
     {"num-bins", "NUM_BINS", 8, 1, 256},
     {"target-bin", "the bin --extract selects", 3, 0, 255},
     switch_option("framework-only", "1: time only the framework's kernels (and the copies), for quick experiments")},
    "extract one bin and partition by all bins: framework and learner kernels vs copy_if, CUB, BinSort, a copy");

}  // namespace

}  // namespace kpz::bin_extract
