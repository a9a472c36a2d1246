// `kpuzzles bench segscan`: segmented sums (--reduce) for mean segment lengths 4, 32, 1024 and
// 2^20, and y = A x (--spmv) for a short-row and a power-law matrix. Rows per group: the
// framework's merge-path kernel, the reference (or --exercise) kernel, the Kokkos ways a
// learner would try first (a team per segment with a nested parallel_reduce, a thread per
// segment), the portable --vector-scan exercise (a vector-level parallel_scan with the segmented
// operator as a reducer), and the library baselines of the build: CUB DeviceSegmentedReduce::Sum (CUDA
// builds) and, with Kokkos Kernels, KokkosSparse::spmv with SPMV_NATIVE (the SpMV rows, and a
// segmented sum as spmv with x = [1]) and a team per segment calling the team-level
// KokkosBlas::Experimental::dot.
// GB/s counts values + offsets + outputs (SpMV: values, columns, row offsets, x once, y).
//
// Launch shapes come from kpz::launch_shape(Purpose::speed): on a CPU one thread per team
// (Kokkos' team_size_recommended), so no row waits at a barrier of every core. With teams of
// every core (the old default) the team-per-segment row ran one 16-thread team, with barriers,
// per segment (4M segments at L = 4, N = 2^24), and the reference's Hillis-Steele scan a
// 16-way barrier per step of every tile: that bench did not finish in 150 s on 16 cores.
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "kokkos_kernels_baselines.hpp"
#include "kpz/backend_traits.hpp"
#include "kpz/bench.hpp"
#include "kpz/check.hpp"
#include "kpz/errors.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"
#include "segscan/fast/kernels.hpp"
#include "segscan/segscan.hpp"
#include "segscan/spec.hpp"

namespace kpz::segscan {
namespace {

// The CUDA-only baseline (benchmarks/segscan/cuda/cub_segmented_reduce.cpp): in = {values (float),
// offsets (int, S + 1)}, out = {sums (float, S)}, sizes = {N, S}.
constexpr const char* kCubSegmentedSum = "cub::DeviceSegmentedReduce::Sum<float>";

// What a learner writes first, CUB-style: one team per segment, a nested parallel_reduce over
// its values. Short segments leave most of the team idle.
template <class Space>
void team_per_segment(const Space& space, int team_size, View<const float*, Space> values,
                      View<const int*, Space> offsets, View<float*, Space> sums) {
  const int segments = static_cast<int>(sums.extent(0));
  Kokkos::parallel_for(
      "segscan::bench::team_per_segment", TeamPolicy<Space>(space, segments, team_size),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int s = team.league_rank();
        float sum = 0.0f;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, offsets(s), offsets(s + 1)), [&](int i, float& acc) { acc += values(i); },
            sum);
        Kokkos::single(Kokkos::PerTeam(team), [&]() { sums(s) = sum; });
      });
}

// The other first try: one thread per segment, a serial loop. Long segments serialize.
template <class Space>
void thread_per_segment(const Space& space, View<const float*, Space> values, View<const int*, Space> offsets,
                        View<float*, Space> sums) {
  Kokkos::parallel_for(
      "segscan::bench::thread_per_segment", Kokkos::RangePolicy<Space>(space, 0, sums.extent(0)), KOKKOS_LAMBDA(int s) {
        float sum = 0.0f;
        for (int i = offsets(s); i < offsets(s + 1); ++i) sum += values(i);
        sums(s) = sum;
      });
}

// Checks a strided sample of the segment totals (and the first and last) against double sums.
void check_sums(const std::function<double(std::int64_t)>& term, const segments::Offsets& offsets,
                const std::vector<float>& got, const std::string& what) {
  const std::size_t segs = offsets.size() - 1;
  if (segs == 0) return;
  const auto check_one = [&](std::size_t s) {
    double sum = 0, abs_sum = 0;
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      sum += term(i);
      abs_sum += std::fabs(term(i));
    }
    const double bound = sum_error_bound(abs_sum, static_cast<std::size_t>(offsets[s + 1] - offsets[s]));
    if (!(std::fabs(got[s] - sum) <= bound))
      throw std::runtime_error(what + " gives a wrong total for segment " + std::to_string(s) + " (" +
                               format_number(got[s]) + " instead of " + format_number(sum) + "): refusing to time it");
  };
  const std::size_t step = segs / 4099 + 1;
  for (std::size_t s = 0; s < segs; s += step) check_one(s);
  check_one(segs - 1);
}

std::string mean_name(std::int64_t mean) {
  for (int p = 10; p <= 30; ++p)
    if (mean == (std::int64_t{1} << p) && p > 10) return "2^" + std::to_string(p);
  return std::to_string(mean);
}

template <class Space>
void bench_reduce(BenchReport& report, const Space& space, const BenchRequest& req,
                  const std::vector<float>& host_values, View<float*, Space> mutable_values, std::int64_t mean,
                  const MergePathPlan& plan, int team_size, const LaunchShape& vshape) {
  const bool gpu = is_gpu_v<Space>;
  const auto n = static_cast<std::int64_t>(host_values.size());
  const View<const float*, Space> values = mutable_values;
  Rng rng(req.seed + static_cast<std::uint64_t>(mean));
  // Random lengths 0..2L for the short segments, equal lengths for L >= 2^20.
  segments::Offsets offsets;
  if (mean >= (std::int64_t{1} << 20)) {
    for (std::int64_t at = 0; at < n; at += mean) offsets.push_back(at);
    offsets.push_back(n);
  } else {
    offsets = segments::random_offsets(rng, n, mean);
  }
  segments::validate_offsets(offsets, n);
  const std::int64_t segs = segments::count(offsets);
  const std::vector<int> off32(offsets.begin(), offsets.end());
  auto d_offsets = to_device(space, "offsets", off32);
  View<const int*, Space> co = d_offsets;
  View<float*, Space> sums(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "sums"),
                           static_cast<std::size_t>(segs));
  const double bytes = 4.0 * (static_cast<double>(n) + 2.0 * static_cast<double>(segs) + 1.0);
  const std::string group = "L=" + mean_name(mean);
  const auto term = [&](std::int64_t i) { return static_cast<double>(host_values[static_cast<std::size_t>(i)]); };
  MergePathWorkspace<Space, float> ws(space, plan, segs, n);
  const Launch launch{team_size, default_tile<Space>()};
  const Launch vlaunch{.team_size = vshape.team_size,
                       .tile = vshape.tile,
                       .vector_length = vshape.vector_length,
                       .row = vector_scan_row(n, segs)};
  const auto vtiles = static_cast<std::size_t>(vshape.league(n));
  View<SegPair<float>*, Space> tile_totals(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "tile_totals"),
                                           vtiles);
  View<int*, Space> tile_open(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "tile_open"), vtiles);
  const bool ref = req.impl == Impl::reference;
  const auto kern = kernels<Space, float>(req.impl);

  const bool all = req.params.get("framework-only") == 0;
  std::vector<std::tuple<std::string, std::string, std::function<void()>>> kernels{
      {"merge path (framework), " + group, "puzzle", [&] { merge_path_reduce(space, plan, ws, values, co, sums); }}};
  if (all) {
    kernels.push_back(
        {std::string("reduce (") + (ref ? "reference" : "exercise") + ": scan + gather, allocates), " + group, "puzzle",
         [&] { kern.reduce(space, launch, values, co, sums); }});
    kernels.push_back({std::string("vector scan (") + (ref ? "reference" : "exercise") +
                           ": ThreadVectorRange parallel_scan + reducer), " + group,
                       "puzzle", [&] { kern.vector_scan(space, vlaunch, values, co, sums, tile_totals, tile_open); }});
    kernels.push_back({"team per segment, nested parallel_reduce, " + group, "builtin",
                       [&] { team_per_segment(space, gpu ? 128 : team_size, values, co, sums); }});
  }
  if (all && mean <= 1024)
    kernels.push_back(
        {"thread per segment, serial loop, " + group, "builtin", [&] { thread_per_segment(space, values, co, sums); }});
  const auto add_row = [&](const std::string& name, const std::string& kind, const auto& launch_fn) -> BenchRow& {
    return add_checked_row(
        report, space, req.cfg, {.name = name, .kind = kind, .group = group, .bytes = bytes}, [&] { poison(sums); },
        launch_fn, [&] { check_sums(term, offsets, to_host(sums), name); });
  };
  for (auto& [name, kind, launch_fn] : kernels)
    add_row(name, kind, launch_fn).portable = name.rfind("vector scan", 0) == 0;  // the portable exercise variant
  if (req.params.get("stages")) {
    // Step 1 of the merge path alone (bytes: the coordinates it writes), to see its share.
    report.rows.push_back({.name = "merge path, search stage only, " + group,
                           .kind = "puzzle",
                           .group = group,
                           .bytes = 8.0 * (ws.tiles + 1),
                           .timing = time_kernel(space, req.cfg, [&] { merge_path_locate(space, plan, ws, co); })});
  }
  auto* cub_run = all ? LibraryBaselines::instance().find<LibraryTimedFn>(kCubSegmentedSum) : nullptr;
  if (cub_run) {
    const std::string label = "CUB DeviceSegmentedReduce::Sum";
    poison(sums);
    space.fence();
    LibraryArgs args{{values.data(), co.data()}, {sums.data()}, {n, segs}, BenchConfig{0, 1}};
    cub_run(args);
    check_sums(term, offsets, to_host(sums), label);
    args.cfg = req.cfg;
    report.rows.push_back(
        {.name = label + ", " + group, .kind = "library", .group = group, .bytes = bytes, .timing = cub_run(args)});
  }
#if defined(KPZ_HAS_KOKKOSKERNELS)
  // Kokkos Kernels, after CUB (the first library row of a group is the others' baseline): spmv
  // as the library's segmented sum, and the team-level dot doing the team-per-segment row's job
  // (kokkos_kernels_baselines.hpp).
  if (all) {
    const kokkos_kernels::SpmvSegmentSums<Space> kk_spmv(space, mutable_values, d_offsets, sums);
    const kokkos_kernels::TeamDotSegmentSums<Space> kk_team(space, segments::longest(offsets), gpu ? 128 : team_size);
    const std::pair<std::string, std::function<void()>> library_rows[] = {
        {"KokkosSparse::spmv (SPMV_NATIVE, row = segment, x = [1]), " + group, [&] { kk_spmv(); }},
        {"team per segment, KokkosBlas::Experimental::dot (team, x . 1), " + group,
         [&] { kk_team(values, co, sums); }}};
    for (const auto& [name, launch_fn] : library_rows) add_row(name, "library", launch_fn);
  }
#endif
  report.notes.push_back(group + ": " + std::to_string(segs) + " segments, longest " +
                         std::to_string(segments::longest(offsets)) + ", merge path " + std::to_string(ws.tiles) +
                         " teams of " + std::to_string(plan.tile_items) + " items, vector scan rows of " +
                         std::to_string(vector_scan_row(n, segs)));
}

template <class Space>
void bench_spmv(BenchReport& report, const Space& space, const BenchRequest& req, std::int64_t rows, bool power_law,
                const MergePathPlan& plan, int team_size) {
  Rng rng(req.seed + (power_law ? 7 : 3));
  segments::Offsets offsets(static_cast<std::size_t>(rows) + 1, 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t len;
    if (power_law) {  // a quarter empty, the rest Pareto (alpha 1.5, minimum 3): mean about 7
      len = rng.uniform() < 0.25 ? 0
                                 : static_cast<std::int64_t>(std::min(3.0 * std::pow(1.0 - rng.uniform(), -1.0 / 1.5),
                                                                      static_cast<double>(rows)));
    } else {  // short rows: 0..16 nonzeros, mean 8
      len = rng.integer(0, 16);
    }
    offsets[static_cast<std::size_t>(r) + 1] = offsets[static_cast<std::size_t>(r)] + len;
  }
  const std::int64_t nnz = offsets.back();
  if (nnz >= (std::int64_t{1} << 30)) throw UsageError("--rows gives too many nonzeros");
  segments::validate_offsets(offsets, nnz, "CSR row offsets", "nnz");
  std::vector<int> columns(static_cast<std::size_t>(nnz));
  for (auto& c : columns) c = static_cast<int>(rng.integer(0, rows - 1));
  std::vector<float> a(static_cast<std::size_t>(nnz)), x(static_cast<std::size_t>(rows));
  for (auto& v : a) v = static_cast<float>(rng.uniform(-1.0, 2.0));
  for (auto& v : x) v = static_cast<float>(rng.uniform(-2.0, 3.0));
  const std::vector<int> off32(offsets.begin(), offsets.end());
  auto d_offsets = to_device(space, "row_offsets", off32);
  auto d_columns = to_device(space, "columns", columns);
  auto d_a = to_device(space, "matrix_values", a);
  auto d_x = to_device(space, "x", x);
  View<float*, Space> y(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "y"), static_cast<std::size_t>(rows));
  const double bytes = 8.0 * static_cast<double>(nnz) + 4.0 * (3.0 * static_cast<double>(rows) + 1.0);
  const std::string group = power_law ? "spmv power law" : "spmv short rows";
  const auto term = [&](std::int64_t j) {
    return static_cast<double>(a[static_cast<std::size_t>(j)]) *
           x[static_cast<std::size_t>(columns[static_cast<std::size_t>(j)])];
  };
  MergePathWorkspace<Space, float> ws(space, plan, rows, nnz);
  const Launch launch{team_size, default_tile<Space>()};
  const bool ref = req.impl == Impl::reference;
  const auto kern = kernels<Space, float>(req.impl);
  View<const int*, Space> co = d_offsets, cc = d_columns;
  View<const float*, Space> ca = d_a, cx = d_x;

  std::vector<std::tuple<std::string, std::string, std::function<void()>>> kernels{
      {"merge path spmv (framework), " + group, "puzzle",
       [&] { merge_path_spmv(space, plan, ws, co, cc, ca, cx, y); }}};
  if (req.params.get("framework-only") == 0)
    kernels.push_back(
        {std::string("spmv (") + (ref ? "reference" : "exercise") + ": products + reduce, allocates), " + group,
         "puzzle", [&] { kern.spmv(space, launch, co, cc, ca, cx, y); }});
  std::unique_ptr<KokkosKernelsSpmv<Space, float>> kk;
  if (have_kokkos_kernels()) {
    kk = std::make_unique<KokkosKernelsSpmv<Space, float>>(space, static_cast<int>(rows), static_cast<int>(rows),
                                                           d_offsets, d_columns, d_a, d_x, y);
    kernels.push_back({"KokkosSparse::spmv (SPMV_NATIVE), " + group, "library", [&] { (*kk)(); }});
  }
  const auto check_y = [&](const std::string& what) {
    return [&, what] { check_sums(term, offsets, to_host(y), what); };
  };
  for (auto& [name, kind, launch_fn] : kernels)
    add_checked_row(
        report, space, req.cfg, {.name = name, .kind = kind, .group = group, .bytes = bytes}, [&] { poison(y); },
        launch_fn, check_y(name));
  report.notes.push_back(group + ": " + std::to_string(rows) + " rows, " + std::to_string(nnz) +
                         " nonzeros, longest row " + std::to_string(segments::longest(offsets)));
}

template <class Space>
BenchReport bench_on(const Space& space, const BenchRequest& req) {
  const bool gpu = is_gpu_v<Space>;
  const auto n = static_cast<std::int64_t>(bench_size<Space>(req, std::size_t{1} << 28, std::size_t{1} << 22));
  std::vector<std::int64_t> means{4, 32, 1024, std::int64_t{1} << 20};
  if (req.params.get("mean-length")) means = {req.params.get("mean-length")};
  const std::int64_t rows = req.params.get("rows") ? req.params.get("rows")
                            : gpu                  ? std::int64_t{1} << 24
                                                   : std::int64_t{1} << 18;
  // Speed shapes (kpz/launch_shape.hpp). On a GPU the shapes of before: 256 members for the
  // scratch kernels, 128 for the merge path (43 items per member, chosen by the --tile-items
  // sweep in benchmarks/results/segscan-notes.md), 8 x 32 lanes for the vector scan. On a CPU
  // Kokkos' recommendation (one thread per team) unless --team-size sets every team.
  const ShapeRequest request{req.team_size, 0};
  KernelNeeds needs;
  needs.gpu_team = 256;
  needs.gpu_tile = needs.host_tile = default_tile<Space>();
  const LaunchShape shape = launch_shape(space, needs, request, Purpose::speed);
  const int team_size = shape.team_size;
  KernelNeeds merge_needs = needs;
  merge_needs.gpu_team = 128;
  const int merge_team = launch_shape(space, merge_needs, request, Purpose::speed).team_size;
  KernelNeeds vector_needs;
  vector_needs.vector_loops = true;
  vector_needs.gpu_team = 8;
  vector_needs.gpu_vector = 32;
  vector_needs.gpu_tile = vector_needs.host_tile = default_vector_scan_tile<Space>();
  LaunchShape vshape = launch_shape(space, vector_needs, req);
  if (req.params.get("vector-tile")) vshape.tile = static_cast<int>(req.params.get("vector-tile"));
  MergePathPlan plan = default_merge_path_plan<Space>(merge_team);
  MergePathPlan spmv_plan = default_merge_path_plan<Space>(merge_team, true);
  if (req.params.get("tile-items")) plan.tile_items = static_cast<int>(req.params.get("tile-items"));
  if (req.params.get("spmv-tile-items")) spmv_plan.tile_items = static_cast<int>(req.params.get("spmv-tile-items"));
  check_scratch<Space>(merge_path_scratch_bytes<Space, float>(plan), 0, "segscan merge path");
  check_scratch<Space>(merge_path_scratch_bytes<Space, float>(spmv_plan), 0, "segscan merge path spmv");
  check_scratch<Space>(merge_path_carry_scratch_bytes<Space, float>(plan), 0, "segscan merge path carry scan");
  check_scratch<Space>(hillis_steele_scratch_bytes<Space, float>(default_tile<Space>()), 0, "segscan --reduce");
  check_scratch<Space>(vector_scan_scratch_bytes<Space, float>(vshape.tile, vshape.vector_length, kShortSegmentRow), 0,
                       "segscan --vector-scan");

  BenchReport report = open_bench_report("segscan", space, req, static_cast<std::size_t>(n));
  report.config.set("spmv_rows", rows).set("team_size", team_size);
  report.config.set("vector_length", shape.vector_length)
      .set("tile", shape.tile)
      .set("vector_scan_shape", vshape.to_json());
  report.config.set("merge_path_team_size", plan.team_size)
      .set("merge_path_items_per_team", plan.tile_items)
      .set("merge_path_spmv_items_per_team", spmv_plan.tile_items)
      .set("merge_path_staged", plan.staged);
  report.config.set("kokkos_kernels", have_kokkos_kernels());
  report.config.set("cub", LibraryBaselines::instance().find<LibraryTimedFn>(kCubSegmentedSum) != nullptr);

  Rng rng(req.seed);
  std::vector<float> host_values(static_cast<std::size_t>(n));
  for (auto& v : host_values) v = static_cast<float>(rng.uniform(-2.0, 3.0));
  auto values = to_device(space, "values", host_values);
  for (const std::int64_t mean : means)
    bench_reduce<Space>(report, space, req, host_values, values, mean, plan, team_size, vshape);
  if (req.params.get("spmv")) {
    bench_spmv<Space>(report, space, req, rows, false, spmv_plan, team_size);
    bench_spmv<Space>(report, space, req, rows, true, spmv_plan, team_size);
  }
  if (!have_kokkos_kernels())
    report.notes.push_back(
        "no Kokkos Kernels in this build (configured with -DKPZ_KOKKOSKERNELS=OFF): no KokkosSparse::spmv or "
        "KokkosBlas rows");
  return report;
}

KPZ_REGISTER_BENCH(
    "segscan",
    {size_option("N values (0: 2^28 on a GPU, 2^22 on the host)", std::int64_t{1} << 29),
     {"mean-length", "one mean segment length L (0: 4, 32, 1024 and 2^20)", 0, 0, std::int64_t{1} << 28},
     {"rows", "SpMV rows = columns (0: 2^24 on a GPU, 2^18 on the host)", 0, 0, std::int64_t{1} << 26},
     {"spmv", "1: also time SpMV (a short-row and a power-law matrix); 0: segmented sums only", 1, 0, 1},
     {"tile-items", "merge items per team of the merge-path --reduce kernel (0: 5504 on a GPU, 2048 on the host)", 0, 0,
      1 << 14},
     {"spmv-tile-items", "merge items per team of the merge-path SpMV (0: 2944 on a GPU, 2048 on the host)", 0, 0,
      1 << 14},
     switch_option("framework-only",
                   "1: time only the merge-path rows (and the copies), for quick sweeps of --tile-items"),
     switch_option("stages", "1: also time the merge path's search stage alone (a row per L)"),
     {"vector-tile", "elements per team of the vector scan (0: 16384 on a GPU, 4096 on a CPU)", 0, 0, 1 << 15}},
    "segmented sums for mean lengths 4, 32, 1024, 2^20 and SpMV: merge path, vector scan vs CUB, Kokkos Kernels, "
    "first tries");

}  // namespace

}  // namespace kpz::segscan
