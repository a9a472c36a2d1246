// butterfly's registration: variants, options, inputs, oracle, checking and the --steps table;
// the trace budgets are in trace_config.cpp.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/variants.hpp"
#include "kpz/check.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/lookup.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::butterfly {

VariantInfo info(Variant variant) {
  return by_enum<Variant::vector>(
      {VariantInfo{Kind::conditional, Op::max}, VariantInfo{Kind::pair_swap, Op::max},
       VariantInfo{Kind::all_reduce, Op::max}, VariantInfo{Kind::all_reduce, Op::min},
       VariantInfo{Kind::all_reduce, Op::sum}, VariantInfo{Kind::conditional, Op::max, true},
       VariantInfo{Kind::in_place, Op::max}, VariantInfo{Kind::vector, Op::max}},
      variant);
}

namespace {

constexpr std::int64_t kMaxSize = std::int64_t{1} << 28;

// Worked examples from the docs when no size is given; otherwise seeded random values in
// [-50, 50) rounded to quarters, so negatives and ties are common and max/min are exact.
std::vector<float> make_input(const RunRequest& req, const VariantInfo& v, int n, int group) {
  std::vector<float> in(static_cast<std::size_t>(n));
  const bool worked = !req.params.given("size");
  if (worked && v.kind == Kind::pair_swap) {
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  } else if (worked && v.kind == Kind::all_reduce) {
    for (int i = 0; i < n; ++i) in[i] = (i % group == group - 1) ? 1000.0f : 2.0f * static_cast<float>(i % group);
  } else if (worked && v.digits) {
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i < 32 ? i % 10 : i);
  } else {
    Rng rng(req.seed);
    for (auto& x : in) x = static_cast<float>(std::floor(rng.uniform(-200.0, 200.0)) / 4.0);
  }
  return in;
}

float host_apply(Op op, float a, float b) {
  return apply(op, a, b);
}

// The oracle: computed per group directly, not by replaying the butterfly.
void oracle(const std::vector<float>& in, int group, VariantInfo v, std::vector<double>& expected,
            std::vector<double>& bound) {
  const std::size_t n = in.size();
  expected.assign(n, 0.0);
  bound.assign(n, 0.0);
  for (std::size_t g = 0; g < n; g += group) {
    double mx = in[g], mn = in[g], sum = 0, abs_sum = 0;
    for (std::size_t i = g; i < g + group; ++i) {
      mx = std::max<double>(mx, in[i]);
      mn = std::min<double>(mn, in[i]);
      sum += in[i];
      abs_sum += std::fabs(in[i]);
    }
    for (std::size_t i = g; i < g + group; ++i) {
      switch (v.kind) {
        case Kind::pair_swap:
          expected[i] = in[i ^ 1];
          break;
        case Kind::all_reduce:
          expected[i] = v.op == Op::max ? mx : v.op == Op::min ? mn : sum;
          if (v.op == Op::sum) bound[i] = sum_error_bound(abs_sum, group);
          break;
        case Kind::conditional:
        case Kind::vector:
          expected[i] = (i % 2 == 0) ? mx : mn;
          break;
        case Kind::in_place:
          expected[i] = mx;
          break;
      }
    }
  }
}

// --steps: the lane values of group 0 after every mask, replayed on the host.
std::vector<std::string> trace_lines(const std::vector<float>& in, int group, VariantInfo v) {
  std::vector<std::string> lines;
  auto row = [](const std::string& label, const std::vector<float>& x) {
    std::string s = label;
    for (float f : x) s += " " + format_number(f);
    return s;
  };
  std::vector<float> hi(in.begin(), in.begin() + group), lo = hi;
  lines.push_back(row("group 0 lanes:  ", hi));
  if (v.kind == Kind::pair_swap) {
    for (int i = 0; i < group; ++i) lo[i] = hi[i ^ 1];
    lines.push_back(row("after mask 1:   ", lo));
    return lines;
  }
  if (v.kind == Kind::vector) {
    // No steps to show: Kokkos' nested reduction is one call. Show what the lanes hold after it.
    const float mx = *std::max_element(hi.begin(), hi.end()), mn = *std::min_element(hi.begin(), hi.end());
    lines.push_back("after parallel_reduce(ThreadVectorRange, MinMax): max " + format_number(mx) + ", min " +
                    format_number(mn) + " in every lane");
    for (int i = 0; i < group; ++i) hi[i] = i % 2 == 0 ? mx : mn;
    lines.push_back(row("written:        ", hi));
    return lines;
  }
  for (int mask = group / 2; mask >= 1; mask /= 2) {
    std::vector<float> h = hi, l = lo;
    for (int i = 0; i < group; ++i) {
      h[i] = host_apply(v.kind == Kind::conditional ? Op::max : v.op, hi[i], hi[i ^ mask]);
      l[i] = host_apply(Op::min, lo[i], lo[i ^ mask]);
    }
    hi = h;
    lo = l;
    const std::string m = "after mask " + std::to_string(mask) + ": ";
    lines.push_back(row(m + (v.kind == Kind::conditional ? "max" : ""), hi));
    if (v.kind == Kind::conditional) lines.push_back(row(m + "min", lo));
  }
  return lines;
}

template <class Space>
RunReport run_on(const Space& space, const RunRequest& req) {
  const VariantInfo v = info(req.variant_as<Variant>());
  const int group = static_cast<int>(req.params.get("group-size"));
  if (group < 2 || group > 32 || (group & (group - 1)))
    throw UsageError("--group-size " + std::to_string(group) + " is not allowed: use 2, 4, 8, 16 or 32");
  const bool parallel = v.kind == Kind::all_reduce;
  const int n = static_cast<int>(parallel && !req.params.given("size") ? group : req.params.get("size"));
  if (n % group)
    throw UsageError("--size " + std::to_string(n) + " must be a multiple of --group-size " + std::to_string(group));
  LaunchShape shape =
      butterfly_shape(space, v.kind == Kind::vector, group, {req.team_size, req.vector_length}, Purpose::check);
  if (req.params.get("tile")) shape.tile = static_cast<int>(req.params.get("tile"));
  const int team_size = shape.team_size, tile = shape.tile;
  if (tile % group)
    throw UsageError("--tile " + std::to_string(tile) + " must be a multiple of --group-size " + std::to_string(group));
  if (v.kind != Kind::vector)
    check_scratch_option<Space>(
        "butterfly with a tile of " + std::to_string(tile) + " lanes", "--tile", tile, 0,
        [&](int x) { return scratch_bytes<Space>(x); }, group);

  const std::vector<float> host_in = make_input(req, v, n, group);
  require_finite(host_in, "butterfly input");
  auto in = to_device(space, "in", host_in);
  View<float*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), n);
  poison(out);
  space.fence();
  const Launch launch{team_size, tile, group, shape.vector_length};
  View<const float*, Space> cin = in;
  const auto kern = kernels<Space>(req.impl == Impl::reference);
  switch (v.kind) {
    case Kind::pair_swap:
      kern.pair_swap(space, launch, cin, out);
      break;
    case Kind::all_reduce:
      kern.all_reduce(space, launch, v.op, cin, out);
      break;
    case Kind::conditional:
      kern.conditional(space, launch, cin, out);
      break;
    case Kind::in_place:
      kern.bug_in_place(space, launch, cin, out);
      break;
    case Kind::vector:
      kern.vector_minmax(space, launch, cin, out);
      break;
  }
  space.fence();
  const std::vector<float> got = to_host(out);

  std::vector<double> expected, bound;
  oracle(host_in, group, v, expected, bound);
  RunReport report;
  report.config.set("size", n).set("group_size", group);
  const Json shape_json = shape.to_json();
  for (const char* key : {"team_size", "vector_length", "tile"}) report.config.set(key, *shape_json.find(key));
  report.config.set("teams", (n + tile - 1) / tile);
  if (req.steps) {
    if (group > 8)
      report.notes.push_back("(--steps prints groups of at most 8 lanes: add --group-size 8)");
    else
      report.notes = trace_lines(host_in, group, v);
  }
  OwnerFn owner = tile_owner(space_name<Space>(), tile, team_size);
  if (v.kind == Kind::vector) {  // members own rows of kVectorGroups groups, lanes own elements
    const std::size_t rows = (tile / group + kVectorGroups - 1) / kVectorGroups;  // per team
    owner = [rows_owner = tile_owner(space_name<Space>(), rows, team_size), group, tile, rows](std::size_t i) {
      const std::size_t row = (i / tile) * rows + (i % tile) / group / kVectorGroups;
      return rows_owner(row) + ", lane " + std::to_string(i % group);
    };
  }
  compare_within(report, got, expected, bound, owner);
  keep_arrays(report, req, got, expected, [&](Json& inputs) { inputs.set("in", Json::array_of(host_in)); });
  return report;
}

std::vector<std::string> advice(const SpaceLimits& s) {
  std::vector<std::string> lines;
  if (s.space == "cuda") {
    lines.push_back(
        "XorExchange (and the benchmark's fast kernel) take the warp-shuffle path only when the team "
        "size is a multiple of 32 (the default, 256, is); other --team-size values exchange through "
        "scratch and barriers");
    lines.push_back(
        "lanes are team members with vector length 1: groups of 32 lanes are one warp, so keep "
        "--group-size 32 and team sizes that are multiples of 32 to compare with CUDA's __shfl_xor_sync");
    lines.push_back(
        "--vector: a group's W lanes are one member's vector lanes (vector length W, at most 32): "
        "Kokkos' nested parallel_reduce is the warp shuffle tree; --vector-length below W gives "
        "each lane several elements, above W leaves lanes idle");
  } else if (s.space != "serial" && s.team_size_max < 8) {
    lines.push_back("a group of 32 lanes is shared by at most " + std::to_string(s.team_size_max) +
                    " team members here: a barrier in the wrong place can pass the run (the race check, "
                    "which traces groups of 8, still fails it); without the race check " +
                    (s.space == "threads"
                         ? "check on a machine with 8 cores as well (KOKKOS_NUM_THREADS=8), or on OpenMP"
                         : "run with OMP_NUM_THREADS=8 as well"));
  }
  return lines;
}

// `checks` and every group size, with at least three groups over at least three teams (one group
// a team) and with the default tile.
std::vector<CheckCase> with_every_group(std::vector<CheckCase> checks) {
  for (const std::int64_t w : {2, 4, 8, 16, 32})
    for (const std::int64_t t : {w, std::int64_t{0}})
      checks.push_back(CheckCase{{"size", 5 * w}, {"group-size", w}, {"tile", t}});
  return checks;
}

PuzzleSpec make_spec() {
  const OptionSpec group{"group-size", "W, lanes per group (2, 4, 8, 16, 32)", 32, 2, 32};
  const OptionSpec tile{"tile", "lanes per team, a multiple of W (0: the backend's default)", 0, 0, 1 << 13};
  auto size = [](std::int64_t fallback, const char* help) {
    return OptionSpec{"size", help, fallback, 1, kMaxSize, "group-size"};
  };
  // Workshop estimates (docs/instructor/estimates.md): 10 minutes to read, build and run, 1.5 per
  // line to write (the TODOs' "roughly N lines"), 5 per concept new at that step; a bug hunt 20;
  // a variant that reuses an earlier one's function 5. Rounded to 5 minutes. Team sweeps: every
  // team size with at least three teams each (the generated TeamSweep tests; --vector's team
  // sizes beyond a 32-lane member's maximum are refused and skipped).
  return {
      .name = "butterfly",
      .summary = "XOR exchanges in lane groups: pair swap, butterfly all-reduce, conditional max/min",
      .variants =
          {{.name = "general",
            .id = int(Variant::general),
            .summary = "N elements in groups of W over many teams: even lanes group max, odd lanes min",
            .options = {size(1 << 20, "N, a multiple of W (random inputs)"), group, tile},
            .functions = {"conditional"},
            .checks =
                with_every_group({CheckCase{{"size", 64}, {"group-size", 2}},
                                  CheckCase{{"size", 4096}, {"group-size", 16}}, CheckCase{{"size", 96}}.team(1)}),
            .team_sweep = {CheckCase{{"size", 32 * 1000}, {"group-size", 32}}},
            .trace = trace_config(Variant::general),
            .minutes = 5},  // reuses conditional over many teams
           {.name = "pair-swap",
            .id = int(Variant::pair_swap),
            .summary = "out[i] = in[i ^ 1]; in = 0..31 gives [1, 0, 3, 2, ...]",
            .options = {size(32, "N (random inputs when given)"), group, tile},
            .functions = {"pair_swap"},
            .checks = with_every_group({CheckCase{{"size", 4}, {"group-size", 2}}, CheckCase{{"size", 4096}},
                                        CheckCase{{"size", 96}, {"group-size", 8}, {"tile", 16}}}),
            .trace = trace_config(Variant::pair_swap),
            .minutes = 25},  // 8 lines; new: lanes exchanging through scratch (i ^ 1)
           {.name = "parallel-max",
            .id = int(Variant::parallel_max),
            .summary = "butterfly with masks W/2 ... 1: every lane gets its group's max",
            .options = {size(32, "N (random inputs when given; default W)"), group, tile},
            .functions = {"all_reduce"},
            .checks = with_every_group(
                {CheckCase{{"group-size", 2}}, CheckCase{{"group-size", 8}, {"size", 96}}, CheckCase{{"size", 4096}}}),
            .trace = trace_config(Variant::parallel_max),
            .minutes = 25},  // 8 lines; new: the butterfly all-reduce, double buffering
           {.name = "parallel-min",
            .id = int(Variant::parallel_min),
            .summary = "the same code with min",
            .options = {size(32, "N (random inputs when given; default W)"), group, tile},
            .functions = {"all_reduce"},
            .checks = with_every_group({CheckCase{{"group-size", 4}, {"size", 64}}, CheckCase{{"size", 4096}}}),
            .trace = trace_config(Variant::parallel_min),
            .minutes = 5},  // reuses all_reduce
           {.name = "parallel-sum",
            .id = int(Variant::parallel_sum),
            .summary = "the same code with +",
            .options = {size(32, "N (random inputs when given; default W)"), group, tile},
            .functions = {"all_reduce"},
            .checks = with_every_group(
                {CheckCase{{"group-size", 16}, {"size", 4096}}, CheckCase{{"group-size", 2}, {"size", 6}}}),
            .team_sweep = {CheckCase{{"size", 8 * 77}, {"group-size", 8}, {"tile", 64}}},
            .trace = trace_config(Variant::parallel_sum),
            .minutes = 5},  // reuses all_reduce
           {.name = "conditional-max",
            .id = int(Variant::conditional_max),
            .summary = "64 values, groups of 32 in two teams: even lanes max, odd lanes min",
            .options = {size(64, "N (random inputs when given)"), group, {"tile", "lanes per team", 32, 0, 1 << 13}},
            .functions = {"conditional"},
            .checks = with_every_group(
                {CheckCase{{"size", 96}, {"group-size", 8}, {"tile", 16}}, CheckCase{{"size", 4096}, {"tile", 0}}}),
            .trace = trace_config(Variant::conditional_max),
            .minutes = 40},  // 15 lines; new: pairs writing both max and min
           // A bug hunt checks the one case its trace explains; its team sweep is the reference's
           // (the exercise passes these too, by luck: the race check tells).
           {.name = "bug-in-place",
            .id =
                int(Variant::bug_in_place),
            .summary = "bug hunt: every lane gets its group's max in one buffer; right on Serial by luck",
            .options = {size(32, "N (random inputs)"),
                        {"group-size", "W, lanes per group (2, 4, 8, 16, 32)", 8, 2, 32},
                        {"tile", "lanes per team", 16, 0, 1 << 13}},
            .functions = {"bug_in_place"},
            .checks = {CheckCase{{"size", 96}, {"group-size", 4}, {"tile", 8}}},
            .team_sweep = {CheckCase{{"size", 48}, {"group-size", 8}, {"tile", 16}},
                           CheckCase{{"size", 96}, {"group-size", 32}, {"tile", 32}},
                           CheckCase{{"size", 64}, {"group-size", 2}, {"tile", 8}},
                           CheckCase{{"size", 40}, {"group-size", 4}, {"tile", 8}}},
            .trace = trace_config(Variant::bug_in_place),
            .bug_hunt = true,
            .minutes = 20,  // bug hunt, in the trace build
            .track = Track::stretch},
           {.name = "vector",
            .id = int(Variant::vector),
            .summary = "what --general computes with Kokkos' levels: members walk groups, a group's W lanes are "
                       "vector lanes that reduce with nested parallel_reduce(ThreadVectorRange, MinMax)",
            .options = {size(1 << 20, "N, a multiple of W (random inputs)"), group, tile},
            .functions = {"vector_minmax"},
            .checks = with_every_group(
                {CheckCase{{"size", 32}}, CheckCase{{"size", 2}, {"group-size", 2}},
                 CheckCase{{"size", 160}, {"tile", 64}}, CheckCase{{"size", 4096}, {"group-size", 2}, {"tile", 256}},
                 CheckCase{{"size", 96}}.team(1), CheckCase{{"size", 4096}, {"group-size", 8}}.lanes(2),
                 CheckCase{{"size", 1024}, {"group-size", 4}, {"tile", 64}}.lanes(16),
                 CheckCase{{"size", 3232}, {"tile", 320}}.lanes(1)}),
            .team_sweep = {CheckCase{{"size", 32 * 1000}, {"group-size", 32}, {"tile", 256}}},
            .trace = trace_config(Variant::vector),
            .minutes = 45,  // 18 lines; new: a nested vector-level reduce, a reducer
            .track = Track::stretch}},
      .run = KPZ_ON_REQUEST_SPACE(run_on),
      // `kpuzzles run`'s peak, measured: about 32 bytes per element (input, output, host copies, oracle).
      .bytes_needed = [](const VariantSpec&, const Params& p) { return 32.0 * static_cast<double>(p.get("size")); },
      .course_position = 20,
      .learning_order = {"pair-swap", "parallel-max", "parallel-min", "parallel-sum", "bug-in-place", "conditional-max",
                         "general", "vector"},
      .advice = advice,
  };
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::butterfly
