// conv1d's run: one case of a variant on a space: the inputs (the docs' worked examples or
// seeded values), the double-precision oracle, the launch the host checks and the comparison.
#include <string>
#include <vector>

#include "conv1d/conv1d.hpp"
#include "conv1d/launch.hpp"
#include "conv1d/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/convolution_oracle.hpp"
#include "kpz/lookup.hpp"
#include "kpz/transfer.hpp"

namespace kpz::conv1d {

namespace {

// The level-0 scratch `simple` needs, for the host's check before the launch: all of a, all of b.
// (The learner sizes the launch's own request; the race check compares it with what the kernel's
// views carve.)
template <class Space>
std::size_t simple_scratch_bytes(int n, int taps) {
  using S = ScratchView<float*, Space>;
  return S::shmem_size(n) + S::shmem_size(taps);
}

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
  const LaunchShape shape = launch_shape(space, vector_variant ? vector_needs() : scalar_needs(), req);
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

  const ConvolutionInputs in =
      convolution_inputs(static_cast<std::size_t>(n), static_cast<std::size_t>(k), req.seed, worked);
  auto a = to_device(space, "a", in.a);
  auto b = to_device(space, "b", in.b);
  View<float*, Space> out = poisoned_output<float>(space, "out", static_cast<std::size_t>(n));
  space.fence();

  View<const float*, Space> ca = a, cb = b;
  const auto kern = kernels<Space>(req.impl);
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
  convolution_oracle(in.a, in.b, expected, bound);

  RunReport report;
  report.config.set("size", n).set("kernel_size", k);
  report.config.set("team_size", team_size).set("vector_length", launch.vector_length);
  report.config.set("tile", launch.tile).set("teams", (n + launch.tile - 1) / launch.tile);
  report.config.set("worked_example", worked);
  compare_within(report, got, expected, bound,
                 owner_of(variant, space_name<Space>(), launch.tile, team_size, launch.vector_length,
                          vector_row<Space>(launch.vector_length)));
  keep_arrays(report, req, got, expected, "a", in.a, "b", in.b);
  return report;
}

}  // namespace

RunReport run(const RunRequest& req) {
  return with_space(req.space, [&](const auto& space) { return run_on(space, req); });
}

}  // namespace kpz::conv1d
