// @name@'s registration: the variant, its options and checks, the inputs, the oracle, the trace
// budget.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "@name@/@name@.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::@ns@ {
namespace {

constexpr std::int64_t kMaxSize = std::int64_t{1} << 28;

// The variants (VariantSpec::id): run switches on the id, never on the name.
enum class Variant { tiled };

template <class Space>
RunReport run_on(const Space& space, const RunRequest& req) {
  const int n = static_cast<int>(req.params.get("size"));
  const bool worked = !req.params.given("size");

  // The launch the registry chose for the variant's needs (below); tile_launch refuses a tile
  // whose scratch the backend cannot give. --tile when given; else tiles of 4 in the worked
  // example, the backend's otherwise.
  LaunchShape launch = req.launch;
  const int given_tile = static_cast<int>(req.params.get("tile"));
  if (given_tile > 0)
    launch.tile = given_tile;
  else if (worked)
    launch.tile = 4;
  const int tile = launch.tile;

  // The worked example numbers the elements 0, 1, 2, ... as the page draws them.
  std::vector<float> in = random_floats(req.seed, static_cast<std::size_t>(n), -3.0, 5.0);
  for (int i = 0; worked && i < n; ++i) in[i] = static_cast<float>(i);
  std::vector<float> expected(in.size());
  for (int first = 0; first < n; first += tile) {
    const int count = std::min(tile, n - first);
    for (int i = 0; i < count; ++i) expected[first + i] = in[first + count - 1 - i];
  }

  const View<float*, Space> out = poisoned_output<float>(space, "out", in.size());
  const View<const float*, Space> d_in = to_device(space, "in", in);  // lives until to_host has waited
  // `kpuzzles bench @name@` times this call (kpz::timed, PuzzleSpec::bytes_moved below).
  timed(req, [&] { kernels<Space>(req.impl).tiled(space, launch, d_in, out); });
  const std::vector<float> got = to_host(out);

  RunReport report;
  report.config.set("size", n).set("tile", tile).set("team_size", launch.team_size);
  report.config.set("teams", (n + tile - 1) / tile).set("worked_example", worked);
  // Each mismatch names the member of the launch meant to write it; small runs keep the arrays.
  compare_exact(report, req, got, expected, launch, "in", in);
  return report;
}

PuzzleSpec make_spec() {
  const auto sized = [](std::int64_t n, std::int64_t tile) { return CheckCase{{"size", n}, {"tile", tile}}; };
  // Workshop estimate (docs/instructor/estimates.md): 10 minutes to read, build and run, 1.5 per
  // line to write, 5 per new concept; rounded to 5 minutes.
  return {
      .name = "@name@",
      .summary = "each tile of an array reversed through team scratch (replace with your puzzle's summary)",
      .variants = {{.name = "tiled",
                    .id = int(Variant::tiled),
                    .summary = "in = 0..9 in tiles of 4: each team stages its tile, waits, writes it reversed",
                    .options = {{"size", "N (random inputs when given)", 10, 1, kMaxSize},
                                {"tile", "elements per team (0: 4 in the worked example, else the backend's)", 0, 0, 1 << 16}},
                    .functions = {"tiled"},
                    // One element, a tile of one, a short last tile, the backend's tile, one member.
                    .checks = {sized(1, 0), sized(7, 1), sized(1000, 64), sized(4099, 0), sized(999, 7).team(1)},
                    .team_sweep = {sized(3000, 64)},
                    // `kpuzzles trace` (docs/tracing.md): three teams of four members on 10 elements in
                    // tiles of 4; each element read once, staged once, read back once after one
                    // barrier, written once.
                    .trace = traceable({{"size", 10}, {"tile", 4}}, 4,
                                       [](const Params& p) {
                                         const double tile = static_cast<double>(p.get("tile"));
                                         return std::vector<BudgetLimit>{
                                             {"global-reads-per-cell-per-team", 1, "each input once"},
                                             {"global-writes-per-cell", 1, "each output once"},
                                             {"barriers-per-team", 1, "one, between staging and reading"},
                                             {"scratch-writes-per-team", tile, "the tile staged once"},
                                             {"scratch-reads-per-team", tile, "each staged element read once"},
                                             {"collectives-per-team", 0, ""}};
                                       }),
                    // A core exercise: the agendas (docs/instructor/) count it; `.track =
                    // Track::stretch` leaves it to those who finish early.
                    .minutes = 20,  // 5 lines; new: (the concepts this exercise introduces)
                    // 256 threads a team on a GPU, as many as the backend gives on a CPU when
                    // checking (so that a missing barrier shows), one lane each (kpz/kernel_needs.hpp).
                    .needs = KernelNeeds{.gpu_team = 256, .gpu_tile = 1024, .host_tile = 1024}}},
      .run = KPZ_ON_REQUEST_SPACE(run_on),
      // `kpuzzles run`'s peak: in, out and their host copies as floats, about 16 bytes per element.
      .bytes_needed = [](const VariantSpec&, const Params& p) { return 16.0 * static_cast<double>(p.get("size")); },
      // The kernel's bytes moved, for `kpuzzles bench`'s GB/s: each float read once, written once.
      .bytes_moved = [](const VariantSpec&, const Params& p) { return 8.0 * static_cast<double>(p.get("size")); },
      // Where the puzzle sits in the course (lower comes first in `list` and `watch`; `kpuzzles list
      // --json` shows the others'), and its variants from easiest to hardest.
      .course_position = 100,
      .learning_order = {"tiled"},
  };
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::@ns@
