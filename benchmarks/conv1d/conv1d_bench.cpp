// `kpuzzles bench conv1d`: the portable vector-lane kernel, the general and the scalar tiled kernels
// against a device copy and the naive global-memory Kokkos kernel, for K = 3 and K = 16 (or one
// --kernel-size). Every kernel runs with the framework's speed shape for the backend.
#include <cmath>
#include <string>
#include <vector>

#include "conv1d/conv1d.hpp"
#include "conv1d/launch.hpp"
#include "kpz/backend_traits.hpp"
#include "kpz/bench.hpp"
#include "kpz/check.hpp"
#include "kpz/errors.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::conv1d {
namespace {

// What a learner writes first: every output reads K inputs straight from global memory.
template <class Space>
void naive_global(const Space& space, View<const float*, Space> a, View<const float*, Space> b,
                  View<float*, Space> out) {
  const int n = static_cast<int>(a.extent(0));
  const int taps = effective_taps(a.extent(0), b.extent(0));
  Kokkos::parallel_for(
      "conv1d::naive_global", Kokkos::RangePolicy<Space>(space, 0, n), KOKKOS_LAMBDA(int i) {
        const int last = Kokkos::min(taps, n - i);
        float sum = 0.0f;
        for (int j = 0; j < last; ++j) sum += a(i + j) * b(j);
        out(i) = sum;
      });
}

// Checks a strided sample of the output against a double-precision sum.
void check_sample(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& got,
                  const std::string& what) {
  const auto ok = [&](std::size_t i, float v) {
    double sum = 0, abs_sum = 0;
    for (std::size_t j = 0; j < b.size() && i + j < a.size(); ++j) {
      sum += static_cast<double>(a[i + j]) * b[j];
      abs_sum += std::fabs(static_cast<double>(a[i + j]) * b[j]);
    }
    return std::fabs(v - sum) <= 4e-6 * static_cast<double>(b.size() + 1) * abs_sum + 1e-30;
  };
  verify_sample(got, ok, what);
}

template <class Space>
BenchReport bench_on(const Space& space, const BenchRequest& req) {
  const std::size_t n = bench_size<Space>(req, std::size_t{1} << 28, std::size_t{1} << 22);
  std::vector<int> ks{3, 16};
  if (req.params.get("kernel-size")) ks = {static_cast<int>(req.params.get("kernel-size"))};
  // The vector kernel takes --vector-length; the scalar kernels run with one lane per member.
  const LaunchShape shape = launch_shape(space, vector_needs(), req);
  const LaunchShape scalar = launch_shape(space, scalar_needs(), ShapeRequest{req.team_size, 0}, Purpose::speed);
  const int team_size = scalar.team_size;

  BenchReport report = open_bench_report("conv1d", space, req, n);
  // team_size / vector_length / tile: the portable --vector kernel's shape (its rows name the tile
  // after a long filter shrinks it); the scalar kernels run with scalar_team_size x 1 lane.
  report.config.set("team_size", shape.team_size).set("vector_length", shape.vector_length).set("tile", shape.tile);
  report.config.set("scalar_team_size", team_size).set("pack_width", pack_width_v<float, Space>);

  Rng rng(req.seed);
  std::vector<float> host_a(n);
  for (auto& x : host_a) x = static_cast<float>(rng.uniform(-2.0, 3.0));
  auto a = to_device(space, "a", host_a);
  View<float*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), n);
  for (const int k : ks) {
    std::vector<float> host_b(static_cast<std::size_t>(k));
    for (auto& x : host_b) x = static_cast<float>(rng.uniform(-1.0, 1.5));
    auto b = to_device(space, "b", host_b);
    const int taps = effective_taps(n, static_cast<std::size_t>(k));
    const Launch launch{team_size, default_tile<Space>(team_size, taps)};
    check_scratch<Space>(general_scratch_bytes<Space>(launch.tile, taps), 0,
                         "conv1d --general with K=" + std::to_string(k));
    check_scratch<Space>(tiled_scratch_bytes<Space>(launch.tile, taps), 0,
                         "conv1d --block-boundary with K=" + std::to_string(k));
    const Launch lanes{shape.team_size, vector_tile<Space>(shape.tile, taps, shape.vector_length), shape.vector_length};
    check_scratch<Space>(vector_scratch_bytes<Space>(lanes.tile, taps, lanes.vector_length), 0,
                         "conv1d --vector with K=" + std::to_string(k));
    View<const float*, Space> ca = a, cb = b;
    const auto kern = kernels<Space>(req.impl);
    const std::string group = "K=" + std::to_string(k);
    const std::string tile = " (tile " + std::to_string(launch.tile) + ")";
    const double bytes = bytes_moved(n, static_cast<std::size_t>(k));
    const auto poison_out = [&] { poison(out); };
    const auto check = [&](const std::string& what) {
      return [&, what] { check_sample(host_a, host_b, to_host(out), what); };
    };
    const auto add_row = [&](const std::string& name, const std::string& shape_text, const auto& launch_fn,
                             bool portable = false) {
      add_checked_row(report, space, req.cfg,
                      {.name = name + ", " + group + shape_text,
                       .kind = "puzzle",
                       .group = group,
                       .bytes = bytes,
                       .portable = portable},
                      poison_out, launch_fn, check(name));
    };

    const std::string vtile = " (team " + std::to_string(lanes.team_size) + " x " +
                              std::to_string(lanes.vector_length) + " lanes, tile " + std::to_string(lanes.tile) + ")";
    add_row(
        "conv1d --vector", vtile, [&] { kern.vector_lanes(space, lanes, ca, cb, out); }, /*portable=*/true);
    add_row("conv1d --general", tile, [&] { kern.general(space, launch, ca, cb, out); });
    add_row("conv1d --block-boundary kernel", tile, [&] { kern.tiled(space, launch, ca, cb, out); });
    add_checked_row(
        report, space, req.cfg,
        {.name = "naive global parallel_for, " + group, .kind = "builtin", .group = group, .bytes = bytes}, poison_out,
        [&] { naive_global(space, ca, cb, out); }, check("conv1d naive"));
  }
  return report;
}

KPZ_REGISTER_BENCH(
    "conv1d",
    {size_option("N (0: 2^28 on a GPU, 2^22 on the host)", std::int64_t{1} << 30),
     {"kernel-size", "K (0: both 3 and 16)", 0, 0, 4096}},
    "conv1d --vector, --general and the scalar tiled kernel vs a device copy and the naive global-memory kernel");

}  // namespace

}  // namespace kpz::conv1d
