// reduce's registration: the rungs of the ladder as variants, their options, checks and
// estimates, and the lanes a rung allows. The run is run.cpp, the trace budgets trace_config.cpp.
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "reduce/reduce.hpp"
#include "reduce/spec.hpp"

namespace kpz::reduce {

namespace {

// Each variant's name and unroll (VariantInfo), in the enum's order.
constexpr std::pair<const char*, int> kVariants[] = {
    {"persistent", 0},  {"neighbored", 1}, {"neighbored-less", 1}, {"interleaved", 1},     {"unroll2", 2},
    {"unroll4", 4},     {"unroll8", 8},    {"unroll-warps8", 8},   {"complete-unroll", 8}, {"template", 8},
    {"team-reduce", 0}, {"builtin", 0},    {"recursive", 1}};

}  // namespace

VariantInfo info(Variant v) {
  const auto [name, unroll] = by_enum<Variant::recursive>(kVariants, v);
  return {v, name, unroll};
}

VariantInfo info(const std::string& name) {
  for (std::size_t i = 0; i < std::size(kVariants); ++i)
    if (name == kVariants[i].first) return info(static_cast<Variant>(i));
  throw std::logic_error("reduce: unknown variant " + name);
}

void validate_lanes(const VariantInfo& v, int lanes) {
  if (v.unroll == 0) return;  // persistent and builtin have no tree of lanes
  const std::string flag = "--" + std::string(v.name);
  const std::string given = "--lanes " + std::to_string(lanes);
  if (lanes < 1 || (lanes & (lanes - 1)) != 0)
    throw UsageError(given + " is not allowed: the tree halves the lanes at every step, so " + flag +
                     " needs a power of two (1, 2, 4, ..., 4096)");
  switch (v.variant) {
    case Variant::unroll_warps8:
      if (lanes < 64)
        throw UsageError(given + " is too small for " + flag +
                         ": the warp finish takes the last 64 values; use 64 .. 4096");
      break;
    case Variant::complete_unroll:
      if (lanes < 64 || lanes > 1024)
        throw UsageError(given + " is not allowed for " + flag +
                         ": the tree is written out for 64 .. 1024 lanes (64, 128, 256, 512, 1024)");
      break;
    case Variant::template_lanes:
      if (lanes < 64 || lanes > 1024)
        throw UsageError(given + " is not allowed for " + flag +
                         ": it is compiled for lanes 64, 128, 256, 512 and 1024 only");
      break;
    case Variant::recursive:
      if (lanes < 2)
        throw UsageError(given + " is not allowed for " + flag + ": a level of 1 lane never shrinks; use 2 .. 4096");
      break;
    default:
      break;
  }
}

namespace {

PuzzleSpec make_spec() {
  const OptionSpec size{"size", "N (random values when given; default: the worked example 1, 2, ..., 1000)", 1000, 1,
                        kMaxSize};
  const OptionSpec type{"float", "0: int values, summed exactly; 1: float values, within a stated bound", 0, 0, 1};
  const OptionSpec lanes{"lanes", "scratch slots per team (the book's block size), a power of two", 512, 1, 4096};
  const OptionSpec teams{"teams",
                         "number of teams (0: from the device: two waves of full occupancy on CUDA, one team per group "
                         "of threads on a host)",
                         0, 0, 1 << 20};
  const OptionSpec tile{
      "tile", "values per team for --team-reduce (0: the framework's launch shape; rows of vector length x 16)", 0, 0,
      1 << 24};
  // Every rung: the worked example and these cases besides, and edge sizes with int and float
  // values: 1; below one tile of 512 lanes; around a tile; not a power of two; not a multiple of
  // 8 tiles (4096 values), with >= 3 teams even for the unroll-8 rungs. Every variant with every
  // team size, int and float (the generated TeamSweep tests): lanes are logical, so any team size
  // works; on CUDA, sizes that are multiples of 32 take the warp shuffle paths, the others the
  // XorExchange scratch path. 3 x 4096 + 77 values: at least three teams of 512 lanes even for
  // the unroll-8 rungs.
  const std::vector<CheckCase> rung_checks = {CheckCase{{"size", 1}}, CheckCase{{"size", 1001}, {"float", 1}},
                                              CheckCase{{"size", 5000}, {"lanes", 64}}.team(1)};
  const auto variant = [&](Variant id, const char* summary, std::vector<OptionSpec> options,
                           std::vector<std::string> functions, int minutes, Track track,
                           std::vector<CheckCase> checks) -> VariantSpec {
    std::vector<CheckCase> sweep;
    for (const std::int64_t t : {0, 1}) {
      for (const std::int64_t n : {1, 2, 3, 5, 100, 511, 512, 513, 1000, 3 * 4096, 3 * 4096 + 17, 65537})
        checks.push_back(CheckCase{{"size", n}, {"float", t}});
      sweep.push_back(id == Variant::persistent ? CheckCase{{"size", 3 * 4096 + 77}, {"float", t}, {"teams", 5}}
                                                : CheckCase{{"size", 3 * 4096 + 77}, {"float", t}});
    }
    return {.name = info(id).name,
            .id = int(id),
            .summary = summary,
            .options = std::move(options),
            .functions = std::move(functions),
            .checks = std::move(checks),
            .team_sweep = std::move(sweep),
            .trace = trace_config(info(id)),
            .minutes = minutes,
            .track = track};
  };
  // Workshop estimates (docs/instructor/estimates.md): 10 minutes to read, build and run, 1.5 per
  // line to write (the TODOs' "roughly N lines"), 5 per concept new at that step; a bug hunt 20;
  // a variant that reuses an earlier one's function 5. Rounded to 5 minutes.
  return {
      .name = "reduce",
      .summary =
          "the reduction ladder: nine team kernels from neighbored pairs to templates, Kokkos' own levels, and beyond",
      .variants =
          {variant(Variant::persistent,
                   "beyond the book: one even share per team, a league sized from the device, four 16-byte loads in "
                   "flight, warp shuffles",
                   {size, type, teams}, {"persistent"}, 30, Track::stretch,  // 8 lines; new: a device-sized league
                   {CheckCase{{"size", 1}}, CheckCase{{"size", 1001}, {"float", 1}},
                    CheckCase{{"size", 5000}, {"teams", 3}}.team(1)}),
           variant(Variant::neighbored, "rung 1: stride doubling, slot i adds slot i + stride when i % (2 stride) == 0",
                   {size, type, lanes}, {"neighbored"}, 25, Track::core,  // 6 lines; new: a tree in team scratch
                   rung_checks),
           variant(Variant::neighbored_less, "rung 2: the same pairs on contiguous iterations (no idle ones)",
                   {size, type, lanes}, {"neighbored_less"}, 20, Track::core, rung_checks),  // 7 lines
           variant(Variant::interleaved, "rung 3: stride halving from lanes / 2, slot i adds slot i + stride",
                   {size, type, lanes}, {"interleaved_tree", "interleaved_step"}, 15, Track::core,  // 3 lines
                   rung_checks),
           variant(Variant::unroll2, "rung 4: each lane adds 2 tiles' elements while loading", {size, type, lanes},
                   {"load_tile"}, 30, Track::core,  // 9 lines; new: several tiles added while loading
                   rung_checks),
           variant(Variant::unroll4, "rung 5: 4 tiles while loading", {size, type, lanes}, {"load_tile"}, 5,
                   Track::core, rung_checks),  // reuses load_tile
           variant(Variant::unroll8, "rung 6: 8 tiles while loading", {size, type, lanes}, {"load_tile"}, 5,
                   Track::core, rung_checks),  // reuses load_tile
           variant(Variant::unroll_warps8, "rung 7: the last 64 values by warp shuffles (XorExchange), no barriers",
                   {size, type, lanes}, {"warp_finish"}, 40, Track::stretch,  // 16 lines; new: XorExchange steps
                   rung_checks),
           variant(Variant::complete_unroll, "rung 8: the tree written out step by step for 64 .. 1024 lanes",
                   {size, type, lanes}, {"complete_unroll"}, 15, Track::stretch, rung_checks),  // 4 lines
           variant(Variant::template_lanes, "rung 9: the lane count as a template parameter (64, 128, 256, 512, 1024)",
                   {size, type, lanes}, {"templated"}, 20, Track::stretch,  // 4 lines; new: lanes as a template
                   rung_checks),
           // Tiles of 256 with --vector-length 2 are rows of 32: several rows per team, a short last row.
           variant(
               Variant::team_reduce,
               "the portable rung: Kokkos' levels and collectives (TeamThreadRange rows, ThreadVectorRange "
               "lanes, nested parallel_reduce), no hand-built tree",
               {size, type, tile}, {"team_reduce"}, 40, Track::core,  // 12 lines; new: nested parallel_reduce
               {CheckCase{{"size", 1}}, CheckCase{{"size", 1001}, {"float", 1}, {"tile", 256}}.lanes(2),
                CheckCase{{"size", 5000}, {"tile", 300}}.team(1), CheckCase{{"size", 4099}, {"tile", 1024}}.lanes(1),
                CheckCase{{"size", 70001}, {"float", 1}}.lanes(4)}),
           variant(Variant::builtin, "Kokkos::parallel_reduce: the baseline every kernel is compared with",
                   {size, type}, {"builtin"}, 20, Track::core,  // 4 lines; new: Kokkos::parallel_reduce
                   {CheckCase{{"size", 1}}, CheckCase{{"size", 4097}, {"float", 1}}}),
           variant(Variant::recursive, "host-driven recursion: interleaved on the partial sums until one value is left",
                   {size, type, lanes}, {"recursive"}, 25, Track::stretch, rung_checks)},  // 9 lines
      .run = run,
      // `kpuzzles run`'s peak, measured: about 8 bytes per value (the host values and the device copy).
      .bytes_needed = [](const VariantSpec&, const Params& p) { return 8.0 * static_cast<double>(p.get("size")); },
      .course_position = 30,  // before bin-extract and segscan, whose counts and carries are reductions
      .learning_order = {"neighbored", "neighbored-less", "interleaved", "unroll2", "unroll4", "unroll8",
                         "unroll-warps8", "complete-unroll", "template", "builtin", "team-reduce", "recursive",
                         "persistent"},
  };
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::reduce
