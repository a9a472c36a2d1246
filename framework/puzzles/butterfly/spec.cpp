// butterfly's registration: the variants, their options, checks and estimates, and the advice
// doctor gives per backend. The run is run.cpp, the trace budgets trace_config.cpp.
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/spec.hpp"
#include "kpz/lookup.hpp"

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

std::vector<std::string> advice(const SpaceLimits& s) {
  std::vector<std::string> lines;
  if (s.space == "cuda") {  // emplace_back: GCC 12 at -O3 warns falsely on push_back of a long literal
    lines.emplace_back(
        "XorExchange (and the benchmark's fast kernel) take the warp-shuffle path only when the team "
        "size is a multiple of 32 (the default, 256, is); other --team-size values exchange through "
        "scratch and barriers");
    lines.emplace_back(
        "lanes are team members with vector length 1: groups of 32 lanes are one warp, so keep "
        "--group-size 32 and team sizes that are multiples of 32 to compare with CUDA's __shfl_xor_sync");
    lines.emplace_back(
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
            .minutes = 30},  // 6 lines; new: a team per tile and its scratch request, lanes exchanging (i ^ 1)
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
            .summary = "bug hunt: every lane gets its group's max, posting its value for its partner each step; right "
                       "on Serial by luck",
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
            .functions = {"vector_minmax_in_flight"},
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
      .run = run,
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
