// conv1d's registration: variants, options, inputs, oracle and checking.
#include <cmath>
#include <string>
#include <vector>

#include "conv1d/conv1d.hpp"
#include "conv1d/shapes.hpp"
#include "kpz/check.hpp"
#include "kpz/lookup.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::conv1d {
namespace {

constexpr std::int64_t kMaxSize = std::int64_t{1} << 28;  // 1 GiB per array of floats

struct Inputs {
  std::vector<float> a, b;
};

// Worked examples use a = 0..N-1, b = 0..K-1 (as in the docs); anything else is random,
// asymmetric around 0 so that sign errors and dropped terms show.
Inputs make_inputs(const RunRequest& req, bool worked_example) {
  const auto n = static_cast<std::size_t>(req.params.get("size"));
  const auto k = static_cast<std::size_t>(req.params.get("kernel-size"));
  Inputs in{std::vector<float>(n), std::vector<float>(k)};
  if (worked_example) {
    for (std::size_t i = 0; i < n; ++i) in.a[i] = static_cast<float>(i);
    for (std::size_t j = 0; j < k; ++j) in.b[j] = static_cast<float>(j);
    return in;
  }
  Rng rng(req.seed);
  for (auto& x : in.a) x = static_cast<float>(rng.uniform(-2.0, 3.0));
  for (auto& x : in.b) x = static_cast<float>(rng.uniform(-1.0, 1.5));
  return in;
}

// Double-precision oracle and, per element, the rounding a float kernel may show.
void oracle(const Inputs& in, std::vector<double>& expected, std::vector<double>& bound) {
  const std::size_t n = in.a.size(), k = in.b.size();
  expected.assign(n, 0.0);
  bound.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 0, abs_sum = 0;
    std::size_t terms = 0;
    for (std::size_t j = 0; j < k && i + j < n; ++j, ++terms) {
      const double p = static_cast<double>(in.a[i + j]) * in.b[j];
      sum += p;
      abs_sum += std::fabs(p);
    }
    expected[i] = sum;
    bound[i] = sum_error_bound(abs_sum, terms);
  }
}

// The variants (VariantSpec::id): runners and budgets switch on the id, not on the name.
enum class Variant { general, vector, simple, block_boundary, bug_missing_barrier };

// Who should have written output i: `general` gives each member 4 consecutive outputs,
// `vector` a row of `row` outputs (vector_row) per member, where lane l holds the l-th of
// `lanes` equal runs of consecutive outputs (packs_per_lane_v packs each).
OwnerFn owner_of(Variant variant, std::string_view space, int tile, int team_size, int lanes, int row_length) {
  if (variant == Variant::vector) {
    const std::size_t row = static_cast<std::size_t>(row_length);
    const std::size_t rows = (static_cast<std::size_t>(tile) + row - 1) / row;
    const OwnerFn by_row = tile_owner(space, rows, team_size);
    return [=](std::size_t i) {
      const std::size_t j = i % tile;
      return by_row((i / tile) * rows + j / row) + ", lane " + std::to_string((j % row) / (row / lanes));
    };
  }
  if (variant != Variant::general) return tile_owner(space, static_cast<std::size_t>(tile), team_size);
  const std::size_t quads = (static_cast<std::size_t>(tile) + 3) / 4;
  const OwnerFn by_quad = tile_owner(space, quads, team_size);
  return [=](std::size_t i) { return by_quad((i / tile) * quads + (i % tile) / 4); };
}

template <class Space>
RunReport run_on(const Space& space, const RunRequest& req) {
  const Variant variant = req.variant_as<Variant>();
  const bool simple_variant = variant == Variant::simple;
  const bool worked = variant != Variant::general && variant != Variant::vector && !req.params.given("size") &&
                      !req.params.given("kernel-size");
  const int n = static_cast<int>(req.params.get("size"));
  const int k = static_cast<int>(req.params.get("kernel-size"));
  const int taps = effective_taps(n, k);

  // Host-side validation and launch configuration, before anything is allocated. The framework
  // picks the shape for the backend (kpz/launch_shape.hpp); --team-size / --vector-length override.
  const bool vector_variant = variant == Variant::vector;
  const LaunchShape shape = launch_shape(space, vector_variant ? vector_needs() : scalar_needs(),
                                         ShapeRequest{req.team_size, req.vector_length}, Purpose::check);
  if (!vector_variant && shape.vector_length != 1)
    throw ShapeError("--vector-length is for conv1d --vector: --" + req.variant_name() + " uses one lane per member");
  const int team_size = shape.team_size;
  Launch launch{team_size, 0, shape.vector_length};
  if (vector_variant) {
    const int tile = static_cast<int>(req.params.get("tile"));
    launch.tile = tile > 0 ? tile : vector_tile<Space>(shape.tile, taps, shape.vector_length);
    check_scratch_option<Space>(
        "conv1d --vector with K=" + std::to_string(k) + " and a tile of " + std::to_string(launch.tile) + " outputs",
        "--tile", launch.tile, 0, [&](int x) { return vector_scratch_bytes<Space>(x, taps, shape.vector_length); });
  } else if (simple_variant) {
    check_scratch_option<Space>(
        "conv1d --simple with N=" + std::to_string(n) + ", K=" + std::to_string(k) + " (one team holds all of a and b)",
        "--size", n, 0, [&](int x) { return simple_scratch_bytes<Space>(x, taps); });
    launch.tile = n;
  } else {
    const bool general = variant == Variant::general;
    launch.tile = static_cast<int>(req.params.get("tile"));
    if (general && launch.tile == 0) launch.tile = default_tile<Space>(team_size, taps);
    check_scratch_option<Space>(
        "conv1d --" + req.variant_name() + " with K=" + std::to_string(k) + " and a tile of " +
            std::to_string(launch.tile) + " outputs",
        "--tile", launch.tile, 0,
        [&](int x) { return general ? general_scratch_bytes<Space>(x, taps) : tiled_scratch_bytes<Space>(x, taps); });
  }

  const Inputs in = make_inputs(req, worked);
  auto a = to_device(space, "a", in.a);
  auto b = to_device(space, "b", in.b);
  View<float*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), n);
  poison(out);
  space.fence();

  View<const float*, Space> ca = a, cb = b;
  const auto kern = kernels<Space>(req.impl == Impl::reference);
  using K = Kernels<Space>;
  if (variant == Variant::simple) {
    kern.simple(space, team_size, ca, cb, out);
  } else {  // the kernels with a launch shape
    const auto kernel = lookup<decltype(&K::general)>(variant,
                                                      {{Variant::general, &K::general},
                                                       {Variant::vector, &K::vector_lanes},
                                                       {Variant::bug_missing_barrier, &K::bug_missing_barrier},
                                                       {Variant::block_boundary, &K::tiled}},
                                                      "conv1d's kernels");
    (kern.*kernel)(space, launch, ca, cb, out);
  }
  space.fence();
  const std::vector<float> got = to_host(out);

  std::vector<double> expected, bound;
  oracle(in, expected, bound);

  RunReport report;
  report.config.set("size", n).set("kernel_size", k);
  report.config.set("team_size", team_size).set("vector_length", launch.vector_length);
  report.config.set("tile", launch.tile).set("teams", (n + launch.tile - 1) / launch.tile);
  report.config.set("worked_example", worked);
  compare_within(report, got, expected, bound,
                 owner_of(variant, space_name<Space>(), launch.tile, team_size, launch.vector_length,
                          vector_row<Space>(launch.vector_length)));
  keep_arrays(report, req, got, expected,
              [&](Json& inputs) { inputs.set("a", Json::array_of(in.a)).set("b", Json::array_of(in.b)); });
  return report;
}

// Budgets for `kpuzzles trace` (docs/tracing.md): every kernel reads each input element at most
// once per team (the halo is read by two teams), writes each output once, and needs one barrier.
std::vector<BudgetLimit> budget(Variant variant, const Params& p, const Json& config) {
  const double n = static_cast<double>(p.get("size"));
  const double taps =
      effective_taps(static_cast<std::size_t>(p.get("size")), static_cast<std::size_t>(p.get("kernel-size")));
  const double tile = config.find("tile") ? config.find("tile")->as_double(n) : n;
  const double teams = config.find("teams") ? config.find("teams")->as_double(1) : 1;
  std::vector<BudgetLimit> b = {
      {"global-reads-per-cell-per-team", 1, "each input element once per team"},
      {"global-writes-per-cell", 1, "each output once"},
      {"barriers-per-team", 1, "one, between staging and computing"},
      {"collectives-per-team", 0, ""},
  };
  if (variant == Variant::simple) {
    double terms = 0;
    for (double i = 0; i < n; ++i) terms += std::min(taps, n - i);
    b.push_back({"global-reads", n + taps, "a and b once"});
    b.push_back({"scratch-writes-per-team", n + taps, "a and b staged once"});
    b.push_back({"scratch-reads-per-team", 2 * terms, "two per term"});
  } else if (variant == Variant::general) {
    const double tap_quads = std::ceil(taps / 4);
    b.push_back({"global-reads", n + teams * (4 * tap_quads + 3) + teams * taps,
                 "a once plus a halo of ceil(K/4) Quads per team, b once per team"});
    b.push_back({"scratch-writes-per-team", std::ceil(tile / 4) + 2 * tap_quads, "one store per Quad"});
    b.push_back(
        {"scratch-reads-per-team", std::ceil(tile / 4) * (1 + 2 * tap_quads), "per 4 outputs: 1 + 2 per tap Quad"});
  } else if (variant == Variant::vector) {
    // The trace build's packs hold one element (kpz/simd_pack.hpp), so a row is lanes x U outputs.
    const double lanes = config.find("vector_length") ? config.find("vector_length")->as_double(1) : 1;
    const double row = lanes * kPacksPerLane;
    const double rows = std::ceil(tile / row);
    const double staged = rows * row + taps - 1;
    b.push_back({"global-reads", n + teams * (staged - tile) + teams * taps,
                 "a once plus the last row's reach and the halo per team, b once per team"});
    b.push_back({"scratch-writes-per-team", staged + taps, "the staged inputs and b once"});
    b.push_back({"scratch-reads-per-team", rows * lanes * taps * (kPacksPerLane + 1),
                 "per lane and tap: its U inputs and the weight"});
  } else {
    b.push_back(
        {"global-reads", n + teams * (taps - 1) + teams * taps, "a once plus a halo of K-1 per team, b once per team"});
    b.push_back({"scratch-writes-per-team", tile + 2 * taps - 1, "the tile, its halo and b staged once"});
    b.push_back({"scratch-reads-per-team", 2 * tile * taps, "two per term"});
  }
  return b;
}

// `kpuzzles trace`: small configurations with three teams or fewer, four members per team.
TraceSpec trace_config(Variant variant) {
  std::map<std::string, std::int64_t> options;
  if (variant == Variant::general || variant == Variant::vector)
    options = {{"size", 37}, {"kernel-size", 5}, {"tile", 16}};
  return traceable(std::move(options), 4,
                   [variant](const Params& p, const Json& config) { return budget(variant, p, config); });
}

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
                    .minutes = 30},  // 9 lines; new: a tile staged in team scratch, team_barrier
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
                    .summary =
                        "bug hunt: `tiled` on N = 15, K = 4; passes on Serial by luck, `kpuzzles trace` shows why",
                    .options = tiled_options,
                    .functions = {"bug_missing_barrier"},
                    .checks = {nkt(100, 20, 8)},
                    .trace = trace_config(Variant::bug_missing_barrier),
                    .bug_hunt = true,
                    .minutes = 20}},  // bug hunt, in the trace build
      .run = KPZ_ON_REQUEST_SPACE(run_on),
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
