// basics' registration: the on-ramp's variants (one per Kokkos concept, in course order), their
// options and checks, trace configurations and budgets. The runners are in run_*.cpp.
#include <initializer_list>
#include <string>
#include <vector>

#include "basics/basics.hpp"
#include "basics/runs.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/lookup.hpp"

namespace kpz::basics {

Variant variant_of(const std::string& name) {
  return enum_of<Variant::scratch>({"views", "axpy", "mdrange", "reduce", "scan", "histogram", "team", "scratch"}, name,
                                   "basics' variants");
}

bool worked_example(const RunRequest& req, std::initializer_list<const char*> options) {
  for (const char* o : options)
    if (req.params.given(o)) return false;
  return true;
}

namespace {

// Flat variants launch no team: --team-size and --vector-length are refused for them (exit 2).
void refuse_team_shape(const RunRequest& req) {
  if (req.team_size != 0 || req.vector_length != 0)
    throw ShapeError("--team-size and --vector-length are for basics --team and --scratch: --" + req.variant +
                     " launches no team");
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

void set_trace_configs(PuzzleSpec& spec) {
  for (auto& v : spec.variants) {
    const Variant id = variant_of(v.name);
    if (id == Variant::team || id == Variant::scratch) {
      // The worked example: 10 elements in tiles of 4, three teams (the last one short).
      v.trace = traceable({{"size", 10}, {"tile", 4}}, 4, [id](const Params& p, const Json&) { return budget(id, p); });
    } else {
      // The worked examples (the defaults, a few elements each), flat kernels only (team size 0).
      v.trace = traceable({}, 0, [id](const Params& p, const Json&) { return flat_budget(id, p); });
    }
  }
}

PuzzleSpec make_spec() {
  const OptionSpec tile{"tile", "elements per team", 4, 1, 1 << 16};
  const auto size = [](std::int64_t fallback, std::int64_t max) {
    return OptionSpec{"size", "N (random inputs when given)", fallback, 1, max};
  };
  // A step with --size alone and its function named as the variant, checked on these sizes.
  const auto sized = [&](const char* name, const char* summary, std::int64_t fallback, std::int64_t max,
                         std::initializer_list<std::int64_t> checked) {
    VariantSpec v{name, summary, {size(fallback, max)}, name};
    for (const std::int64_t n : checked) v.checks.push_back(CheckCase{{"size", n}});
    return v;
  };
  const auto matrix = [](std::int64_t rows, std::int64_t cols) { return CheckCase{{"rows", rows}, {"cols", cols}}; };
  const auto binned = [](std::int64_t n, std::int64_t bins) { return CheckCase{{"size", n}, {"bins", bins}}; };
  PuzzleSpec spec{"basics", "the on-ramp: Views, RangePolicy, MDRangePolicy, reducers, scan, atomics, teams, scratch"};
  // --team and --scratch: one element, tiles of 64, and a short last tile with one member per team.
  const std::vector<CheckCase> tiles = {CheckCase{{"size", 1}}, CheckCase{{"size", 1000}, {"tile", 64}},
                                        CheckCase{{"size", 999}, {"tile", 7}}.team(1)};
  spec.variants = {
      sized("views", "Views, a host mirror and deep_copy: out = 2 in + 1 computed on the device (in = 0..7)", 8,
            kMaxSize, {1, 2, 127, 128, 129, 1000, 4099}),
      sized("axpy", "RangePolicy with a guard: z = alpha x + y over a launch padded to blocks of 128", 5, kMaxSize,
            {1, 128, 1001, 2, 127, 129, 4099}),
      {"mdrange",
       "MDRangePolicy: out(i, j) = in(i, j) + u(i) v(j) on a 3 x 4 matrix",
       {{"rows", "rows of the matrix (random inputs when given)", 3, 1, 1 << 16},
        {"cols", "columns of the matrix (random inputs when given)", 4, 1, 1 << 16}},
       "mdrange",
       // One row, one column, rows != cols both ways, sizes that are not tile multiples.
       {matrix(1, 1), matrix(1, 37), matrix(37, 1), matrix(100, 33), matrix(3, 4), matrix(33, 100), matrix(257, 129)}},
      sized("reduce", "parallel_reduce: the maximum (built-in Max) and the minimum with its index (MinLoc)", 8,
            kMaxSize, {1, 1000, 2, 3, 65537}),
      sized("scan", "parallel_scan: exclusive prefix sums of counts, the total at the end", 8, kMaxScanSize,
            {1, 1000, 2, 127, 128, 129, 4099}),
      {"histogram",
       "a histogram twice: with atomic_add and with a ScatterView (12 values, 5 bins)",
       {{"size", "values (random when size or bins is given)", 12, 1, kMaxSize},
        {"bins", "bins (random values when size or bins is given)", 5, 1, 1 << 20}},
       "histogram_atomic",
       // One bin; more bins than values (most stay empty); few bins (heavy contention); many bins.
       {binned(1, 1), binned(3, 20), binned(10000, 7), binned(1000, 1000), binned(4099, 1), binned(20000, 4096)}},
      {"team",
       "TeamPolicy and TeamThreadRange: reverse each team's tile (N = 10, tiles of 4)",
       {size(10, kMaxSize), tile},
       "team_reverse",
       tiles},
      {"scratch",
       "team scratch and team_barrier: the same reversal through a tile staged in scratch",
       {size(10, kMaxSize), tile},
       "scratch_reverse",
       tiles},
  };
  spec.course_position = 0;  // before conv1d: every concept conv1d --simple uses is introduced here
  spec.learning_order = {"views", "axpy", "mdrange", "reduce", "scan", "histogram", "team", "scratch"};
  // Minutes by docs/instructor/estimates.md's rule (10 + 1.5 per line to write + 5 per new concept,
  // rounded to 5); mdrange and scan are stretch: conv1d --simple needs neither.
  set_estimate(spec, "views", 35, Track::core);       // 4 lines; new: View, host mirror, deep_copy, fence
  set_estimate(spec, "axpy", 25, Track::core);        // 3 lines; new: RangePolicy, KOKKOS_LAMBDA, a guard
  set_estimate(spec, "mdrange", 20, Track::stretch);  // 2 lines; new: MDRangePolicy, layouts
  set_estimate(spec, "reduce", 35, Track::core);      // 4 lines; new: parallel_reduce, Max, MinLoc
  set_estimate(spec, "scan", 25, Track::stretch);     // 4 lines; new: parallel_scan, the final flag
  set_estimate(spec, "histogram", 35, Track::core);   // 5 lines; new: atomic_add, ScatterView
  set_estimate(spec, "team", 25, Track::core);        // 4 lines; new: TeamPolicy, TeamThreadRange
  set_estimate(spec, "scratch", 25, Track::core);     // 5 lines; new: team_scratch, team_barrier
  set_trace_configs(spec);
  spec.run = [](const RunRequest& req) {
    const Variant v = variant_of(req.variant);
    if (v != Variant::team && v != Variant::scratch) refuse_team_shape(req);
    return by_enum<Variant::scratch>(
        {run_views, run_axpy, run_mdrange, run_reduce, run_scan, run_histogram, run_teams, run_teams}, v)(req);
  };
  // `kpuzzles run`'s peak: the arrays, their host copies and the oracle's doubles, about 40 bytes
  // per element.
  spec.bytes_needed = [](const std::string&, const Params& p) {
    const auto& values = p.values();
    const auto size = values.find("size");
    if (size != values.end()) return 40.0 * static_cast<double>(size->second);
    return 40.0 * static_cast<double>(p.get("rows")) * static_cast<double>(p.get("cols"));
  };
  return spec;
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::basics
