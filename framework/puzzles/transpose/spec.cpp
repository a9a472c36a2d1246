// transpose's registration: variants, options, inputs, oracle, checks and trace budgets.
#include <string>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"
#include "transpose/transpose.hpp"

namespace kpz::transpose {
namespace {

enum class Variant { tiled, naive, in_place };

// Who wrote element (j, i) of the transpose: the team of the tile of `in` that holds (i, j)
// (in_place: the team of the upper tile of the mirror pair).
OwnerFn owner_of(Variant variant, int rows, int cols, int tile) {
  return [=](std::size_t k) {
    const int bi = static_cast<int>(k % rows) / tile, bj = static_cast<int>(k / rows) / tile;
    const bool swap = variant == Variant::in_place && bi > bj;
    return "team " + std::to_string((swap ? bj : bi) * ((cols + tile - 1) / tile) + (swap ? bi : bj));
  };
}

template <class Space>
RunReport run_on(const Space& space, const RunRequest& req) {
  const Variant variant = req.variant_as<Variant>();
  const bool square = variant == Variant::in_place;
  const int rows = static_cast<int>(req.params.get(square ? "size" : "rows"));
  const int cols = square ? rows : static_cast<int>(req.params.get("cols"));
  const bool worked =
      variant != Variant::tiled && !req.params.given("rows") && !req.params.given("cols") && !req.params.given("size");

  // Host-side validation before anything is allocated: the tile's scratch (the registry has
  // resolved the launch shape for the variant's needs).
  const LaunchShape& shape = req.launch;
  const int tiles_staged = variant == Variant::in_place ? 2 : variant == Variant::tiled ? 1 : 0;
  const auto bytes_of = [&](int t) { return tiles_staged * tile_scratch_bytes<Space>(t); };
  const int tile = req.params.get("tile") > 0 ? static_cast<int>(req.params.get("tile"))
                                              : halved_to_fit<Space>(shape.tile, bytes_of);
  check_scratch_option<Space>(
      "transpose --" + req.variant_name() + " with tiles of " + std::to_string(tile) + " x " + std::to_string(tile),
      "--tile", tile, 0, bytes_of);
  const LaunchShape launch{
      .team_size = shape.team_size, .vector_length = shape.vector_length, .tile = tile, .in_flight = shape.in_flight};

  // The worked examples number the elements 0, 1, 2, ... row by row, as the page draws them.
  std::vector<float> in = random_floats(req.seed, static_cast<std::size_t>(rows) * cols, -3.0, 5.0);
  for (std::size_t k = 0; worked && k < in.size(); ++k) in[k] = static_cast<float>(k);
  std::vector<float> expected(in.size());
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) expected[static_cast<std::size_t>(j) * rows + i] = in[std::size_t(i) * cols + j];

  const auto kern = kernels<Space>(req.impl);
  std::vector<float> got;
  if (variant == Variant::in_place) {
    auto m = to_device(space, "m", in);
    kern.in_place(space, launch, rows, m);
    got = to_host(m);  // deep_copy without a space: waits for the kernel
  } else {
    const View<float*, Space> out = poisoned_output<float>(space, "out", in.size());
    const View<const float*, Space> d_in = to_device(space, "in", in);  // lives until to_host has waited
    (variant == Variant::naive ? kern.naive : kern.tiled)(space, launch, rows, cols, d_in, out);
    got = to_host(out);
  }

  RunReport report;
  report.config.set("rows", rows).set("cols", cols).set("tile", tile);
  report.config.set("team_size", launch.team_size).set("vector_length", launch.vector_length);
  if (variant == Variant::tiled) report.config.set("in_flight", launch.in_flight);
  report.config.set("teams", ((rows + tile - 1) / tile) * ((cols + tile - 1) / tile));
  report.config.set("worked_example", worked);
  compare_exact(report, req, got, expected, owner_of(variant, rows, cols, tile), "in", in);
  return report;
}

// Budgets for `kpuzzles trace` (docs/tracing.md): each element read once (in_place: a diagonal
// tile is its own mirror, read twice: at most n x tile more) and written once; the tiled kernels
// stage each element once and read it back once, after one barrier.
TraceSpec trace_config(Variant variant, std::map<std::string, std::int64_t> options) {
  return traceable(std::move(options), 4, [variant](const Params& p, const Json& config) {
    const double tile = config.find("tile")->as_double(1);
    const double staged = variant == Variant::naive ? 0 : (variant == Variant::in_place ? 2 : 1) * tile * tile;
    const double reads = variant == Variant::in_place ? 1 + tile / static_cast<double>(p.get("size")) : 1;
    return std::vector<BudgetLimit>{{"global-reads-per-output", reads, "each element once"},
                                    {"global-writes-per-cell", 1, "each element once"},
                                    {"barriers-per-team", staged > 0 ? 1.0 : 0.0, "one, between staging and writing"},
                                    {"scratch-writes-per-team", staged, "each element staged once"},
                                    {"scratch-reads-per-team", staged, "each staged element read once"},
                                    {"collectives-per-team", 0, ""}};
  });
}

PuzzleSpec make_spec() {
  const auto rc = [](std::int64_t rows, std::int64_t cols, std::int64_t tile = 0) {
    return CheckCase{{"rows", rows}, {"cols", cols}, {"tile", tile}};
  };
  const auto sq = [](std::int64_t n, std::int64_t tile) { return CheckCase{{"size", n}, {"tile", tile}}; };
  const OptionSpec tile{"tile", "a team's tile is tile x tile elements (0: the backend's)", 0, 0, 1024};
  // 1 x 1, a row, a column, sizes under and not a multiple of the tile, tiles of 1, 3 and 7.
  const std::vector<CheckCase> edges = {rc(1, 1),       rc(1, 77),        rc(77, 1),       rc(5, 7, 4),
                                        rc(33, 65, 16), rc(100, 9, 3),    rc(9, 100, 7),   rc(129, 130),
                                        rc(64, 64, 1),  rc(300, 301, 32), rc(2, 3).team(1)};
  const std::map<std::string, std::int64_t> small = {{"rows", 6}, {"cols", 9}, {"tile", 4}};
  // tiled's: tiles of 8, so that a full tile has two groups of rows (and of columns) at the check's
  // loads in flight, on two members: a missing barrier is then a race between them.
  const std::map<std::string, std::int64_t> grouped = {{"rows", 10}, {"cols", 13}, {"tile", 8}};
  // Workshop estimates (docs/instructor/estimates.md): 10 minutes to read, build and run, 1.5 per
  // line, 5 per new concept; rounded to 5 minutes.
  return {
      .name = "transpose",
      .summary = "matrix transpose with the tile staged in team scratch: coalesced both ways",
      .variants =
          {{.name = "tiled",
            .id = int(Variant::tiled),
            .summary = "any rows x cols: each team stages its tile in scratch, then writes it transposed",
            .options = {{"rows", "rows of in", 3001, 1, 1 << 14}, {"cols", "columns of in", 1999, 1, 1 << 14}, tile},
            .functions = {"tiled_in_flight"},
            .checks = edges,
            .team_sweep = {rc(200, 150, 32)},
            .trace = trace_config(Variant::tiled, grouped),
            .minutes = 60,  // 23 lines; new: coalescing both ways, a padded tile, loads in flight
            .needs = kernel_needs()},
           {.name = "naive",
            .id = int(Variant::naive),
            .summary = "in = 0..14 as 3 rows of 5: each element straight to its place, no scratch",
            .options = {{"rows", "rows of in (random inputs when given)", 3, 1, 1 << 14},
                        {"cols", "columns of in (random inputs when given)", 5, 1, 1 << 14},
                        tile},
            .functions = {"naive"},
            .checks = edges,
            .trace = trace_config(Variant::naive, small),
            .minutes = 25,  // 5 lines; new: 2D tiles, TeamThreadRange x ThreadVectorRange
            .needs = kernel_needs()},
           {.name = "in-place",
            .id = int(Variant::in_place),
            .summary = "a 5 x 5 matrix in place in tiles of 2: a team swaps a tile with its mirror",
            .options = {{"size", "n of the n x n matrix (random inputs when given)", 5, 1, 1 << 14},
                        {"tile", "a team's tile is tile x tile elements (0: the backend's)", 2, 0, 1024}},
            .functions = {"in_place"},
            .checks = {sq(1, 0), sq(2, 1), sq(7, 3), sq(64, 0), sq(100, 16), sq(129, 0), sq(33, 8).team(1)},
            .team_sweep = {sq(150, 32)},
            .trace = trace_config(Variant::in_place, {}),
            .minutes = 25,  // 6 lines; new: two tiles, the diagonal, in-place races
            .track = Track::stretch,
            .needs = kernel_needs()}},
      .run = KPZ_ON_REQUEST_SPACE(run_on),
      // `kpuzzles run`'s peak: in, out and the result as floats, the oracle's two doubles.
      .bytes_needed =
          [](const VariantSpec& variant, const Params& p) {
            const bool square = variant.id == int(Variant::in_place);
            return 32.0 * static_cast<double>(square ? p.get("size") * p.get("size") : p.get("rows") * p.get("cols"));
          },
      .course_position = 15,  // after conv1d: the same tile in scratch, now in two dimensions
      .learning_order = {"naive", "tiled", "in-place"},
  };
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::transpose
