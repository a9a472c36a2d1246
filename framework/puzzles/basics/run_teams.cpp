// basics steps 7-8 (--team, --scratch): launch shape, scratch check, oracle and check.
#include <algorithm>
#include <string>
#include <vector>

#include "basics/basics.hpp"
#include "basics/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::basics {
namespace {

// One lane per member; on a CPU, teams as large as the backend gives, so that a missing barrier shows.
KernelNeeds team_needs() {
  return KernelNeeds{.gpu_team = 256, .gpu_vector = 1, .host_vector = 1};
}

template <class Space>
RunReport reverse_on(const Space& space, const RunRequest& req) {
  const Variant variant = req.variant_as<Variant>();
  const int n = static_cast<int>(req.params.get("size"));
  const int tile = static_cast<int>(req.params.get("tile"));
  const LaunchShape shape =
      launch_shape(space, team_needs(), ShapeRequest{req.team_size, req.vector_length}, Purpose::check);
  if (shape.vector_length != 1)
    throw ShapeError("--vector-length is not for basics --" + req.variant_name() +
                     ": its teams use one lane per member");
  if (variant == Variant::scratch)
    check_scratch_option<Space>("basics --scratch with a tile of " + std::to_string(tile) + " floats", "--tile", tile,
                                0, [&](int x) { return scratch_bytes<Space>(x); });
  const Launch launch{shape.team_size, tile};

  Rng rng(req.seed);
  std::vector<float> in(static_cast<std::size_t>(n));
  for (auto& x : in) x = static_cast<float>(rng.uniform(-2.0, 3.0));
  const bool worked = worked_example(req, {"size"});
  if (worked)
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  auto din = to_device(space, "in", in);
  View<float*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), n);
  poison(out);
  space.fence();
  const auto k = kernels<Space>(req.impl == Impl::reference);
  if (variant == Variant::scratch)
    k.scratch_reverse(space, launch, din, out);
  else
    k.team_reverse(space, launch, din, out);
  space.fence();
  const std::vector<float> got = to_host(out);

  std::vector<float> expected(in.size());
  for (int first = 0; first < n; first += tile) {
    const int count = std::min(tile, n - first);
    for (int i = 0; i < count; ++i) expected[first + i] = in[first + count - 1 - i];
  }
  RunReport report;
  report.config.set("size", n).set("tile", tile).set("team_size", launch.team_size);
  report.config.set("teams", (n + tile - 1) / tile).set("worked_example", worked);
  compare_exact(report, got, expected,
                tile_owner(space_name<Space>(), static_cast<std::size_t>(tile), launch.team_size));
  keep_arrays(report, req, got, expected, [&](Json& inputs) { inputs.set("in", Json::array_of(in)); });
  return report;
}

}  // namespace

const Runner run_teams = KPZ_ON_REQUEST_SPACE(reverse_on);

}  // namespace kpz::basics
