// `kpuzzles bench transpose`: the tiled, naive and in-place kernels against a device copy and
// Kokkos' own transpose (deep_copy from a LayoutRight to a LayoutLeft View of the same data).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kpz/bench.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"
#include "transpose/transpose.hpp"

namespace kpz::transpose {
namespace {

template <class Space>
BenchReport bench_on(const Space& space, const BenchRequest& req) {
  // 2^28 and 2^26 elements, as the other benches; --size N: a square matrix of about N elements.
  const int side = req.params.get("size") ? static_cast<int>(std::sqrt(static_cast<double>(req.params.get("size"))))
                   : is_gpu_v<Space>      ? 16384
                                          : 8192;
  const int rows = req.params.get("rows") ? static_cast<int>(req.params.get("rows")) : std::max(side, 1);
  const int cols = req.params.get("cols") ? static_cast<int>(req.params.get("cols")) : std::max(side, 1);
  const std::size_t n = static_cast<std::size_t>(rows) * cols;
  const LaunchShape shape = launch_shape(space, kernel_needs(), req);
  const int tile = req.params.get("tile") ? static_cast<int>(req.params.get("tile")) : shape.tile;
  const auto fit = [&](int staged) {
    return halved_to_fit<Space>(tile, [&](int t) { return staged * tile_scratch_bytes<Space>(t); });
  };
  const LaunchShape launch{
      .team_size = shape.team_size, .vector_length = shape.vector_length, .tile = fit(1), .in_flight = shape.in_flight},
      pairs{.team_size = shape.team_size, .vector_length = shape.vector_length, .tile = fit(2)};
  BenchReport report = open_bench_report("transpose", space, req, n);
  report.config.set("rows", rows).set("cols", cols).set("tile", launch.tile).set("in_place_tile", pairs.tile);
  report.config.set("team_size", launch.team_size).set("vector_length", launch.vector_length);
  report.config.set("in_flight", launch.in_flight);

  const std::vector<float> host_in = random_floats(req.seed, n, -3.0, 5.0);
  const View<const float*, Space> in = to_device(space, "in", host_in);
  View<float*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), n);
  const auto kern = kernels<Space>(req.impl);
  const double bytes = bytes_moved(rows, cols);
  const auto verify = [&](const std::string& what) {  // out(j * rows + i) == in(i * cols + j)
    return [&, what] {
      verify_sample(
          to_host(out), [&](std::size_t k, float v) { return v == host_in[k % rows * cols + k / rows]; }, what);
    };
  };
  const auto poison_out = [&] { poison(out); };  // the tile and the shape: in the report's config
  add_checked_row(
      report, space, req.cfg, {.name = "transpose --tiled", .kind = "puzzle", .bytes = bytes, .portable = true},
      poison_out, [&] { kern.tiled(space, launch, rows, cols, in, out); }, verify("--tiled"));
  // The same kernel at the other loads-in-flight counts (a GPU runs 4, a CPU 1; 8 for contrast):
  // why the launch shape holds the count.
  for (const int count : {1, 4, 8}) {
    if (count == launch.in_flight) continue;
    LaunchShape at = launch;
    at.in_flight = count;
    const std::string what = "--tiled, " + std::to_string(count) + (count == 1 ? " load" : " loads") + " in flight";
    add_checked_row(
        report, space, req.cfg, {.name = what + " per thread", .kind = "builtin", .bytes = bytes}, poison_out,
        [&, at] { kern.tiled(space, at, rows, cols, in, out); }, verify(what));
  }
  add_checked_row(
      report, space, req.cfg, {.name = "transpose --naive", .kind = "puzzle", .bytes = bytes}, poison_out,
      [&] { kern.naive(space, launch, rows, cols, in, out); }, verify("--naive"));

  // Kokkos' transpose: a LayoutLeft rows x cols View holds element (i, j) where `out` holds (j, i).
  using Memory = typename Space::memory_space;
  const Kokkos::View<const float**, Kokkos::LayoutRight, Memory> in_2d(in.data(), rows, cols);
  const Kokkos::View<float**, Kokkos::LayoutLeft, Memory> out_2d(out.data(), rows, cols);
  add_checked_row(
      report, space, req.cfg,
      {.name = "Kokkos::deep_copy, LayoutRight to LayoutLeft", .kind = "library", .bytes = bytes}, poison_out,
      [&] { Kokkos::deep_copy(space, out_2d, in_2d); }, verify("deep_copy"));

  if (rows == cols) {  // each timed run transposes the result of the one before, in place
    add_checked_row(
        report, space, req.cfg,
        {.name = "transpose --in-place (tile " + std::to_string(pairs.tile) + ")", .kind = "puzzle", .bytes = bytes},
        [&] { Kokkos::deep_copy(space, out, in); }, [&] { kern.in_place(space, pairs, rows, out); },
        verify("--in-place"));
  } else {
    report.notes.push_back("--in-place needs a square matrix: not run");
  }
  return report;
}

KPZ_REGISTER_BENCH("transpose",
                   {{"size", "N: a square matrix of sqrt(N) x sqrt(N) elements (0: 2^28 on a GPU, 2^26 on the host)", 0,
                     0, std::int64_t{1} << 28},
                    {"rows", "rows of in (0: from --size)", 0, 0, 1 << 14},
                    {"cols", "columns of in (0: likewise)", 0, 0, 1 << 14},
                    {"tile", "a team's tile is tile x tile elements (0: the launch shape's)", 0, 0, 1024}},
                   "transpose --tiled, --naive and --in-place vs a device copy and Kokkos' deep_copy between layouts");

}  // namespace

}  // namespace kpz::transpose
