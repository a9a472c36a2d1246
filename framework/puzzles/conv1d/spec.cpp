// conv1d's registration: the variants, their options, checks and estimates. The run is run.cpp,
// the trace budgets trace_config.cpp.
#include <string>
#include <vector>

#include "conv1d/spec.hpp"
#include "kpz/registry.hpp"

namespace kpz::conv1d {
namespace {

PuzzleSpec make_spec() {
  const OptionSpec size_general{"size", "number of inputs and outputs N", (1 << 20) + 3, 1, kMaxSize};
  const OptionSpec k_general{"kernel-size", "filter taps K (may exceed N)", 7, 1, 1 << 20};
  const auto size = [](std::int64_t fallback, std::int64_t max) {
    return OptionSpec{"size", "N (random inputs when given)", fallback, 1, max};
  };
  const auto taps = [](std::int64_t fallback, std::int64_t max) {
    return OptionSpec{"kernel-size", "K (random inputs when given)", fallback, 1, max};
  };
  // --block-boundary's worked example, and --bug-missing-barrier's: N = 15, K = 4, tiles of 8.
  const std::vector<OptionSpec> tiled_options{
      size(15, kMaxSize), taps(4, 1 << 20), {"tile", "outputs per team", 8, 1, 1 << 13}};
  const auto nk = [](std::int64_t n, std::int64_t k) { return CheckCase{{"size", n}, {"kernel-size", k}}; };
  const auto nkt = [](std::int64_t n, std::int64_t k, std::int64_t tile) {
    return CheckCase{{"size", n}, {"kernel-size", k}, {"tile", tile}};
  };
  // N = 1, K = 1, K > N, K = N, N smaller than a team, N not a multiple of the tile, given tiles.
  const auto edges = [&](std::vector<CheckCase> first) {
    for (const CheckCase& c : {nk(1, 3), nk(2, 1), nk(7, 20), nk(16, 16), nk(3, 2), nk(4097, 5), nk(4095, 9),
                               nkt(37, 5, 16), nkt(100, 9, 4), nkt(33, 40, 8), nkt(1000, 3, 7)})
      first.push_back(c);
    return first;
  };
  const std::vector<CheckCase> general = {nk(1, 1), nk(6, 11), nk(10007, 33), nk(4099, 5).team(1)};
  // Workshop estimates (docs/instructor/estimates.md): 10 minutes to read, build and run, 1.5 per
  // line to write (the TODOs' "roughly N lines"), 5 per concept new at that step; a bug hunt 20;
  // a variant that reuses an earlier one's function 5. Rounded to 5 minutes. Team sweeps: every
  // team size, at least three teams each (the generated TeamSweep tests).
  return {
      .name = "conv1d",
      .summary = "1D convolution with the input tile and its halo staged in team scratch",
      .variants = {{.name = "general",
                    .id = int(Variant::general),
                    .summary = "any N and K, fast: 4 outputs per member from 16-byte scratch words",
                    .options = {size_general,
                                k_general,
                                {"tile", "outputs per team (0: the backend's default)", 0, 0, 1 << 13}},
                    .functions = {"general"},
                    .checks = edges(general),
                    .team_sweep = {nk(50001, 13)},
                    .trace = trace_config(Variant::general),
                    .minutes = 65,  // 30 lines; new: any K against N, 16-byte scratch words
                    .track = Track::stretch},
                   {.name = "vector",
                    .id = int(Variant::vector),
                    .summary =
                        "one source for CPU and GPU: rows of outputs on threads, packs of outputs on vector lanes",
                    .options = {size_general,
                                k_general,
                                {"tile", "outputs per team (0: the framework's launch shape)", 0, 0, 1 << 13}},
                    .functions = {"vector_lanes"},
                    .checks = edges({nk(1, 1), nk(6, 11), nk(10007, 33), nk(4099, 5).team(1), nkt(1001, 7, 64).lanes(1),
                                     nkt(3001, 16, 100).lanes(4), nk(5000, 4)}),
                    .trace = trace_config(Variant::vector),
                    .minutes = 60,  // 27 lines; new: ThreadVectorRange, packs of outputs
                    .track = Track::stretch},
                   {.name = "simple",
                    .id = int(Variant::simple),
                    .summary = "one team: a = 0..5, b = 0..2 staged in scratch, barrier, compute",
                    .options = {size(6, 1 << 16), taps(3, 1 << 16)},
                    .functions = {"simple"},
                    .checks = {nk(1, 1), nk(5, 9), nk(37, 5), nk(1, 4), nk(33, 3), nk(100, 7), nk(257, 16)},
                    .trace = trace_config(Variant::simple),
                    // 12 lines; new: a team launch and its scratch request, a tile staged in team
                    // scratch, team_barrier
                    .minutes = 45},
                   {.name = "block-boundary",
                    .id = int(Variant::block_boundary),
                    .summary = "N = 15, K = 4, tiles of 8 outputs: each team loads a halo",
                    .options = tiled_options,
                    .functions = {"tiled"},
                    // The halo of K - 1 elements spans several following tiles (tiles of 3, 1, 8).
                    .checks = {nk(1, 1), nkt(100, 20, 8), nkt(1000, 3, 64), nkt(40, 10, 3), nkt(15, 4, 1),
                               nkt(50, 17, 8), nkt(64, 2, 64)},
                    .team_sweep = {nkt(1000, 6, 64)},
                    .trace = trace_config(Variant::block_boundary),
                    .minutes = 35},  // 12 lines; new: many teams, each loading a halo
                   {.name = "bug-missing-barrier",
                    .id = int(Variant::bug_missing_barrier),
                    .summary = "bug hunt: `bug_missing_barrier` on N = 15, K = 4; passes on Serial by luck, `kpuzzles "
                               "trace` shows why",
                    .options = tiled_options,
                    .functions = {"bug_missing_barrier"},
                    .checks = {nkt(100, 20, 8)},
                    .trace = trace_config(Variant::bug_missing_barrier),
                    .bug_hunt = true,
                    .minutes = 20}},  // bug hunt, in the trace build
      .run = run,
      // `kpuzzles run`'s peak, measured: about 32 bytes per element (a, out, the oracle's doubles), 16 per tap.
      .bytes_needed =
          [](const VariantSpec&, const Params& p) {
            return 32.0 * static_cast<double>(p.get("size")) + 16.0 * static_cast<double>(p.get("kernel-size"));
          },
      .course_position = 10,  // steps of 10 leave room: the on-ramp (basics) comes before conv1d
      .learning_order = {"simple", "block-boundary", "bug-missing-barrier", "general", "vector"},
      .advice =
          [](const SpaceLimits& s) {
            // --simple keeps all of a (and b) in one team's level-0 scratch.
            const std::size_t simple_max =
                s.scratch0_max / sizeof(float) > 64 ? s.scratch0_max / sizeof(float) - 64 : 1;
            return std::vector<std::string>{"--simple holds all of a and b in one team's scratch: --size up to about " +
                                            std::to_string(simple_max) + " here"};
          },
  };
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::conv1d
