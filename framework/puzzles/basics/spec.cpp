// basics' registration: the on-ramp's variants (one per Kokkos concept, in course order), their
// options and checks, trace configurations and budgets. The runners are in run_*.cpp.
#include <initializer_list>
#include <string>
#include <vector>

#include "basics/basics.hpp"
#include "basics/spec.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/lookup.hpp"

namespace kpz::basics {

bool worked_example(const RunRequest& req, std::initializer_list<const char*> options) {
  for (const char* o : options)
    if (req.params.given(o)) return false;
  return true;
}

namespace {

// Flat variants launch no team: --team-size and --vector-length are refused for them (exit 2).
void refuse_team_shape(const RunRequest& req) {
  if (req.team_size != 0 || req.vector_length != 0)
    throw ShapeError("--team-size and --vector-length are for the team steps (basics --team to --collectives): --" +
                     req.variant_name() + " launches no team");
}

// Budgets for `kpuzzles trace` (docs/tracing.md): each input element read once, each output
// written once; --team needs no barrier, --scratch one, between staging and reading.
std::vector<BudgetLimit> budget(Variant variant, const Params& p) {
  const double n = static_cast<double>(p.get("size"));
  const double tile = static_cast<double>(p.get("tile"));
  const bool scratch = variant == Variant::scratch;
  return {
      {"global-reads", n, "each input once"},
      {"global-reads-per-cell-per-team", 1, "each input once"},
      {"global-writes-per-cell", 1, "each output once"},
      {"barriers-per-team", scratch ? 1.0 : 0.0, scratch ? "one, between staging and reading" : "none: no scratch"},
      {"collectives-per-team", 0, ""},
      {"scratch-writes-per-team", scratch ? tile : 0.0, scratch ? "the tile staged once" : "no scratch"},
      {"scratch-reads-per-team", scratch ? tile : 0.0, scratch ? "each staged element read once" : "no scratch"},
  };
}

// The flat steps (RangePolicy, MDRangePolicy: every iteration its own member, no scratch, no
// barrier): what each reads and writes of global memory. A flat kernel's reads of one element
// count per iteration.
std::vector<BudgetLimit> flat_budget(Variant variant, const Params& p) {
  std::vector<BudgetLimit> b = {{"barriers-per-team", 0, "a flat kernel has none"},
                                {"collectives-per-team", 0, ""},
                                {"scratch-writes-per-team", 0, "no scratch"},
                                {"scratch-reads-per-team", 0, "no scratch"}};
  const auto add = [&b](const char* metric, double max, const char* why) { b.push_back({metric, max, why}); };
  if (variant == Variant::mdrange) {
    const double rows = static_cast<double>(p.get("rows")), cols = static_cast<double>(p.get("cols"));
    add("global-reads", 3 * rows * cols, "in(i, j), u(i) and v(j) once per element");
    add("global-reads-per-cell-per-team", 1, "each iteration reads in(i, j), u(i) and v(j) once");
    add("global-writes-per-cell", 1, "each output once");
    return b;
  }
  const double n = static_cast<double>(p.get("size"));
  switch (variant) {
    case Variant::views:
      add("global-reads", n, "d(i) once");
      add("global-writes-per-cell", 1, "d(i) once");
      break;
    case Variant::axpy:
      add("global-reads", 2 * n, "x(i) and y(i) once, for i < N only");
      add("global-writes-per-cell", 1, "each output once");
      break;
    case Variant::reduce:
      add("global-reads", 2 * n, "x once per reduction");
      add("global-writes-per-cell", 0, "the results are host values");
      break;
    case Variant::custom_reducer:
      add("global-reads", n, "x once: each part by its own reduction");
      add("global-writes-per-cell", 0, "the results are host values");
      break;
    case Variant::scan:
      add("global-reads", 2 * n, "counts once per pass of the scan");
      add("global-reads-per-cell-per-team", 2, "counts(i) once per pass");
      add("global-writes-per-cell", 1, "offsets(i) once, in the final pass");
      break;
    default:  // histogram: atomic updates count as reads and writes
      add("global-reads", 3 * n, "values once per kernel, one atomic update per value");
      break;
  }
  if (variant != Variant::scan) add("global-reads-per-cell-per-team", 1, "each element once per iteration");
  return b;
}

// --vector: a reads each a(r, j) twice (the dot product, the scaling), x(j) once per row and y(r)
// once per column; out and y are written once; one barrier, between writing y and reading it.
std::vector<BudgetLimit> vector_budget(const Params& p) {
  const double rows = static_cast<double>(p.get("rows")), cols = static_cast<double>(p.get("cols"));
  const double tile = static_cast<double>(p.get("tile"));
  const double per_cell = tile > cols ? tile : cols;
  return {
      {"global-reads", 4 * rows * cols, "a twice, x once per row, y once per column"},
      {"global-reads-per-cell-per-team", per_cell > 2 ? per_cell : 2, "x(j) once per row, y(r) once per column"},
      {"global-writes-per-cell", 1, "each y(r) and out(r, j) once: one lane writes y(r)"},
      {"barriers-per-team", 1, "one, between writing y and reading it"},
      {"collectives-per-team", 0, ""},
      {"scratch-writes-per-team", 0, "no scratch"},
      {"scratch-reads-per-team", 0, "no scratch"},
  };
}

// --collectives: each value read twice by its team (the sum, the centring), each offset once (by
// the member that broadcasts it), each output written once; two broadcasts and one team_reduce.
std::vector<BudgetLimit> collectives_budget() {
  return {
      {"global-reads-per-cell-per-team", 2, "values(i) twice, offsets(s) once: one member reads it"},
      {"global-writes-per-cell", 1, "each output once"},
      {"barriers-per-team", 0, "the collectives synchronise"},
      {"collectives-per-team", 3, "two team_broadcast calls and one team_reduce"},
      {"scratch-writes-per-team", 0, "no scratch"},
      {"scratch-reads-per-team", 0, "no scratch"},
  };
}

// `kpuzzles trace`: --team and --scratch on the worked example (10 elements in tiles of 4, three
// teams, the last one short); --vector on 7 rows of 6 in tiles of 3 rows (three teams, the last
// one short; 6 columns on 4 lanes); --collectives on its worked example (4 segments, one empty);
// --scratch-levels on its worked example (12 values in tiles of 4, 5 bins, 2 of them in level 0);
// the flat steps on their worked examples (team size 0: no team), but --subviews, --dualview and
// --tools.
TraceSpec trace_config(Variant id) {
  if (id == Variant::scratch_levels)
    return traceable({{"level0-bins", 2}}, 4, [](const Params& p) { return levels_budget(p); });
  if (id == Variant::dualview)
    return {.not_traceable_reason =
                "a DualView holds plain Kokkos::Views, whose accesses the trace build does not record; the step is "
                "judged by the DualView's flags after each of its functions instead"};
  if (id == Variant::tools)
    return {.not_traceable_reason =
                "the trace build runs kernels on its own executor, which Kokkos Tools never hear of, and the step's "
                "code is host callbacks, no kernel"};
  if (id == Variant::subviews)
    return {.not_traceable_reason =
                "its kernels read the matrix through subviews, plain Kokkos::Views (strided ones too) whose "
                "accesses the trace build does not record"};
  if (id == Variant::collectives) return traceable({}, 4, [](const Params&) { return collectives_budget(); });
  if (id == Variant::vector)
    return traceable({{"rows", 7}, {"cols", 6}, {"tile", 3}}, 4, [](const Params& p) { return vector_budget(p); });
  if (id == Variant::team || id == Variant::scratch)
    return traceable({{"size", 10}, {"tile", 4}}, 4, [id](const Params& p) { return budget(id, p); });
  return traceable({}, 0, [id](const Params& p) { return flat_budget(id, p); });
}

// A step with --size alone whose function is named as the variant, checked on these sizes.
VariantSpec sized(Variant id, const char* name, const char* summary, std::int64_t fallback, std::int64_t max,
                  std::initializer_list<std::int64_t> checked, int minutes, Track track) {
  std::vector<CheckCase> checks;
  for (const std::int64_t n : checked) checks.push_back(CheckCase{{"size", n}});
  return {.name = name,
          .id = int(id),
          .summary = summary,
          .options = {{"size", "N (random inputs when given)", fallback, 1, max}},
          .functions = {name},
          .checks = checks,
          .trace = trace_config(id),
          .minutes = minutes,
          .track = track};
}

PuzzleSpec make_spec() {
  const OptionSpec tile{"tile", "elements per team", 4, 1, 1 << 16};
  const OptionSpec size{"size", "N (random inputs when given)", 10, 1, kMaxSize};
  const auto matrix = [](std::int64_t rows, std::int64_t cols) { return CheckCase{{"rows", rows}, {"cols", cols}}; };
  const auto binned = [](std::int64_t n, std::int64_t bins) { return CheckCase{{"size", n}, {"bins", bins}}; };
  // --team and --scratch: one element, tiles of 64, and a short last tile with one member per team.
  const std::vector<CheckCase> tiles = {CheckCase{{"size", 1}}, CheckCase{{"size", 1000}, {"tile", 64}},
                                        CheckCase{{"size", 999}, {"tile", 7}}.team(1)};
  const auto segs = [](std::int64_t segments, std::int64_t length) {
    return CheckCase{{"segments", segments}, {"length", length}};
  };
  const auto rows_of = [](std::int64_t rows, std::int64_t cols, std::int64_t tile) {
    return CheckCase{{"rows", rows}, {"cols", cols}, {"tile", tile}};
  };
  const auto levels = [](std::int64_t n, std::int64_t bins, std::int64_t tile, std::int64_t level0) {
    return CheckCase{{"size", n}, {"bins", bins}, {"tile", tile}, {"level0-bins", level0}};
  };
  // Minutes by docs/instructor/estimates.md's rule (10 + 1.5 per line to write + 5 per new concept,
  // rounded to 5); mdrange and scan are stretch: conv1d --simple needs neither. vector is core:
  // transpose --naive and reduce --team-reduce put work on the lanes. collectives is stretch: the
  // later puzzles use nested reductions, not team_reduce or team_broadcast. subviews and
  // custom-reducer are stretch: no later exercise asks for a subview, and the later custom
  // reducers (butterfly's GroupsMinMax, segscan's SegReducer) are given or in stretch exercises.
  // dualview and tools are stretch: no later exercise holds a DualView or registers a callback.
  return {
      .name = "basics",
      .summary =
          "the on-ramp: Views, DualView, RangePolicy, MDRangePolicy, subviews, reducers, scan, atomics, teams, "
          "scratch, lanes, collectives, scratch levels, Kokkos Tools",
      .variants =
          {// 4 lines; new: View, host mirror, deep_copy, fence
           sized(Variant::views, "views",
                 "Views, a host mirror and deep_copy: out = 2 in + 1 computed on the device (in = 0..7)", 8, kMaxSize,
                 {1, 2, 127, 128, 129, 1000, 4099}, 35, Track::core),
           {.name = "dualview",
            .id = int(Variant::dualview),
            .summary = "DualView: --views' work in four steps, each marking or syncing a side (in = 0..7)",
            .options = {{"size", "N (random inputs when given)", 8, 1, kMaxSize}},
            .functions = {"dualview_fill", "dualview_to_device", "dualview_compute", "dualview_to_host"},
            .checks = {CheckCase{{"size", 1}}, CheckCase{{"size", 127}}, CheckCase{{"size", 4099}}},
            .trace = trace_config(Variant::dualview),
            .minutes = 30,  // 6 lines; new: DualView, marking a side modified, syncing
            .track = Track::stretch},
           // 3 lines; new: RangePolicy, KOKKOS_LAMBDA, a guard
           sized(Variant::axpy, "axpy",
                 "RangePolicy with a guard: z = alpha x + y over a launch padded to blocks of 128", 5, kMaxSize,
                 {1, 128, 1001, 2, 127, 129, 4099}, 25, Track::core),
           {.name = "mdrange",
            .id = int(Variant::mdrange),
            .summary = "MDRangePolicy: out(i, j) = in(i, j) + u(i) v(j) on a 3 x 4 matrix",
            .options = {{"rows", "rows of the matrix (random inputs when given)", 3, 1, 1 << 16},
                        {"cols", "columns of the matrix (random inputs when given)", 4, 1, 1 << 16}},
            .functions = {"mdrange"},
            // One row, one column, rows != cols both ways, sizes that are not tile multiples.
            .checks = {matrix(1, 1), matrix(1, 37), matrix(37, 1), matrix(100, 33), matrix(3, 4), matrix(33, 100),
                       matrix(257, 129)},
            .trace = trace_config(Variant::mdrange),
            .minutes = 20,  // 2 lines; new: MDRangePolicy, layouts
            .track = Track::stretch},
           {.name = "subviews",
            .id = int(Variant::subviews),
            .summary = "Kokkos::subview with ALL and ranges: row and column sums by a 1D routine, a block copied out",
            .options = {{"rows", "rows of a (random inputs and block when given)", 3, 1, 1 << 12},
                        {"cols", "columns of a (random inputs and block when given)", 4, 1, 1 << 12}},
            .functions = {"subviews"},
            // One element; one row (every column a single element); one column (every row one);
            // rows != cols both ways; a column longer than many rows.
            .checks = {matrix(1, 1), matrix(1, 37), matrix(37, 1), matrix(2, 3), matrix(100, 33), matrix(33, 100),
                       matrix(1000, 7)},
            .trace = trace_config(Variant::subviews),
            .minutes = 30,  // 7 lines; new: subview with ALL, an index and pairs; strided (LayoutStride) views
            .track = Track::stretch},
           // 4 lines; new: parallel_reduce, Max, MinLoc
           sized(Variant::reduce, "reduce",
                 "parallel_reduce: the maximum (built-in Max) and the minimum with its index (MinLoc)", 8, kMaxSize,
                 {1, 1000, 2, 3, 65537}, 35, Track::core),
           {.name = "custom-reducer",
            .id = int(Variant::custom_reducer),
            .summary = "a custom reducer (init and join): count, mean and m2 in one pass by Welford's merge (x = 1, 3, "
                       "..., 15)",
            .options = {{"size", "N (random inputs when given)", 8, 1, kMaxScanSize}},
            .functions = {"moments", "MomentsReducer"},
            // One value (the first part empty); two; three (a part of one value); sizes that
            // are not multiples of 3 or of the threads.
            .checks = {CheckCase{{"size", 1}}, CheckCase{{"size", 2}}, CheckCase{{"size", 3}},
                       CheckCase{{"size", 1000}}, CheckCase{{"size", 4099}}, CheckCase{{"size", 65537}}},
            .trace = trace_config(Variant::custom_reducer),
            .minutes = 40,  // 13 lines; new: a custom reducer (init, join), merging summaries (Welford)
            .track = Track::stretch},
           // 4 lines; new: parallel_scan, the final flag
           sized(Variant::scan, "scan", "parallel_scan: exclusive prefix sums of counts, the total at the end", 8,
                 kMaxScanSize, {1, 1000, 2, 127, 128, 129, 4099}, 25, Track::stretch),
           {.name = "histogram",
            .id = int(Variant::histogram),
            .summary = "a histogram twice: with atomic_add and with a ScatterView (12 values, 5 bins)",
            .options = {{"size", "values (random when size or bins is given)", 12, 1, kMaxSize},
                        {"bins", "bins (random values when size or bins is given)", 5, 1, 1 << 20}},
            .functions = {"histogram_atomic", "histogram_scatter"},
            // One bin; more bins than values (most stay empty); few bins (heavy contention); many bins.
            .checks = {binned(1, 1), binned(3, 20), binned(10000, 7), binned(1000, 1000), binned(4099, 1),
                       binned(20000, 4096)},
            .trace = trace_config(Variant::histogram),
            .minutes = 35},  // 5 lines; new: atomic_add, ScatterView
           {.name = "team",
            .id = int(Variant::team),
            .summary = "TeamPolicy and TeamThreadRange: reverse each team's tile (N = 10, tiles of 4)",
            .options = {size, tile},
            .functions = {"team_reverse"},
            .checks = tiles,
            .trace = trace_config(Variant::team),
            .minutes = 25,  // 4 lines; new: TeamPolicy, TeamThreadRange
            .needs = team_needs()},
           {.name = "scratch",
            .id = int(Variant::scratch),
            .summary = "team scratch and team_barrier: the same reversal through a tile staged in scratch",
            .options = {size, tile},
            .functions = {"scratch_reverse"},
            .checks = tiles,
            .trace = trace_config(Variant::scratch),
            .minutes = 25,  // 5 lines; new: team_scratch, team_barrier
            .needs = team_needs()},
           {.name = "vector",
            .id = int(Variant::vector),
            .summary = "vector lanes: a row times x on one member's lanes (ThreadVectorRange), then TeamVectorRange",
            .options = {{"rows", "rows of a (random inputs when rows or cols is given)", 5, 1, 1 << 16},
                        {"cols", "columns of a (random inputs when rows or cols is given)", 3, 1, 1 << 16},
                        {"tile", "rows per team", 2, 1, 1 << 16}},
            .functions = {"row_dots"},
            // One element; one row; one column; columns not a multiple of the lanes; fewer rows per
            // team than members; rows not a multiple of the tile; one lane; one member.
            .checks = {rows_of(1, 1, 1), rows_of(1, 37, 4), rows_of(37, 1, 5), rows_of(10, 3, 4).lanes(8),
                       rows_of(100, 33, 7).team(1), rows_of(33, 100, 16).lanes(1), rows_of(999, 65, 64),
                       rows_of(3, 5, 1)},
            .team_sweep = {rows_of(60, 41, 7)},
            .trace = trace_config(Variant::vector),
            .minutes = 45,  // 12 lines; new: a nested reduce on lanes, single(PerThread), TeamVectorRange
            .needs = lane_needs()},
           {.name = "collectives",
            .id = int(Variant::collectives),
            .summary = "team_broadcast and team_reduce: a segment per team, its bounds broadcast, its sum reduced",
            .options = {{"segments", "segments, one per team (random inputs when segments or length is given)", 4, 1,
                         1 << 20},
                        {"length", "mean segment length (random, 0 to 2 x length)", 2, 0, 1 << 16}},
            .functions = {"center_segments"},
            // Only empty segments; one short segment; one segment longer than any team; many
            // short ones, some empty; one member per team.
            .checks = {segs(3, 0), segs(1, 1), segs(1, 1000), segs(200, 3), segs(50, 37), segs(7, 64).team(1)},
            .team_sweep = {segs(20, 50)},
            .trace = trace_config(Variant::collectives),
            .minutes = 35,  // 9 lines; new: team_broadcast, team_reduce
            .track = Track::stretch,
            .needs = team_needs()},
           {.name = "scratch-levels",
            .id = int(Variant::scratch_levels),
            .summary = "level-0 and level-1 scratch: a per-team histogram table too big for level 0 (12 values, 5 "
                       "bins, 2 in level 0)",
            .options = {{"size", "values (random, half in 8 hot bins, when size or bins is given)", 12, 1, kMaxSize},
                        {"bins", "bins (random values when size or bins is given)", 5, 1, 1 << 23},
                        {"tile", "values per team", 4, 1, 1 << 24},
                        {"level0-bins", "the lowest bins, in level 0 (-1: as many as level 0 holds)", -1, -1, 1 << 23}},
            .functions = {"histogram_levels"},
            // One value, one bin; one bin (every value on one counter); a short last tile with the
            // table split; all in level 1; all in level 0 with one member; more bins than values;
            // 2^16 bins (level 0 too small anywhere) on 4 lanes.
            .checks = {levels(1, 1, 1, -1), levels(1000, 1, 64, -1), levels(999, 300, 64, 100),
                       levels(5000, 4096, 1000, 0), levels(3000, 50, 7, 50).team(1), levels(3, 20, 4, -1),
                       levels(20000, 1 << 16, 4096, -1).lanes(4)},
            .team_sweep = {levels(2000, 100, 128, 30)},
            .trace = trace_config(Variant::scratch_levels),
            .minutes = 45,  // 23 lines; new: level-1 scratch, one table over two levels
            .track = Track::stretch,
            .needs = levels_needs()},
           {.name = "tools",
            .id = int(Variant::tools),
            .summary = "Kokkos Tools: count and time every kernel of a workload by label, with callbacks of your own",
            .options = {{"elements", "elements each kernel works on", 4096, 1, kMaxSize},
                        {"launches", "the most launches of one kernel (each a seeded-random 1 to this)", 5, 1, 1000}},
            .functions = {"time_kernels", "begin_kernel", "end_kernel"},
            // One element; one launch of each kernel; many launches of large kernels.
            .checks = {CheckCase{{"elements", 1}}, CheckCase{{"elements", 1000}, {"launches", 1}},
                       CheckCase{{"elements", 100000}, {"launches", 40}}},
            .trace = trace_config(Variant::tools),
            .minutes = 50,  // 21 lines; new: Kokkos Tools callbacks, kernel ids, registering and unregistering
            .track = Track::stretch}},
      .run =
          [](const RunRequest& req) {
            const auto v = req.variant_as<Variant>();
            if (v < Variant::team || v == Variant::tools) refuse_team_shape(req);
            return by_enum<Variant::tools>(
                {run_views, run_dualview, run_axpy, run_mdrange, run_subviews, run_reduce, run_moments, run_scan,
                 run_histogram, run_teams, run_teams, run_vector, run_collectives, run_levels, run_tools},
                v)(req);
          },
      // `kpuzzles run`'s peak: the arrays, their host copies and the oracle's doubles, about 40 bytes
      // per element.
      .bytes_needed =
          [](const VariantSpec& variant, const Params& p) {
            const auto& values = p.values();
            const auto size = values.find("size");
            if (size != values.end()) return 40.0 * static_cast<double>(size->second);
            if (variant.id == int(Variant::tools))  // two arrays of floats, no oracle arrays
              return 8.0 * static_cast<double>(p.get("elements"));
            if (variant.id == int(Variant::collectives))  // at most 2 x length + 1 values a segment
              return 40.0 * static_cast<double>(p.get("segments")) * static_cast<double>(2 * p.get("length") + 1);
            return 40.0 * static_cast<double>(p.get("rows")) * static_cast<double>(p.get("cols"));
          },
      .course_position = 0,  // before conv1d: every concept conv1d --simple uses is introduced here
      .learning_order = {"views", "dualview", "axpy", "mdrange", "subviews", "reduce", "custom-reducer", "scan",
                         "histogram", "team", "scratch", "vector", "collectives", "scratch-levels", "tools"},
  };
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::basics
