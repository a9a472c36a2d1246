// `kpuzzles bench transpose`: the tiled, naive and in-place kernels against a device copy and
// Kokkos' own transpose (deep_copy from a LayoutRight to a LayoutLeft View of the same data).
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "kpz/bench.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"
#include "transpose/transpose.hpp"

namespace kpz::transpose {
namespace {

// Experiments beside the lesson, for what limits --tiled on a GPU (transpose-notes.md, "Loads in
// flight": one global load in flight per thread, since each staged value is stored right after its
// load). --tiled's data path and scratch (the tile of `in` staged in rows of tile + 1 floats, then
// written transposed), but each thread iteration loads InFlight rows of the tile before it stores
// any, and reads InFlight columns of scratch before it writes any to `out`. With groups =
// ceil(height / InFlight), group g of the TeamThreadRange holds tile rows g, g + groups, ...,
// g + (InFlight - 1) * groups (tile 64 and 8 in flight, or tile 32 and 4, on 8 ranks: one group a
// rank, rows rank, rank + 8, ...), its lanes on consecutive columns; the write phase likewise with
// columns of the tile. Every (q, g) is a distinct row < InFlight * groups: edge tiles guard them.
template <int InFlight, class Space>
void tiled_loads_in_flight(const Space& space, const LaunchShape& launch, int rows, int cols,
                           View<const float*, Space> in, View<float*, Space> out) {
  const int tile = launch.tile, stride = launch.tile + 1;
  tile_grid_launch(
      space, launch, "transpose::tiled_loads_in_flight", rows, cols, tile_scratch_bytes<Space>(tile),
      KOKKOS_LAMBDA(const TeamMember<Space>& team, int r0, int c0) {
        const int height = Kokkos::min(tile, rows - r0), width = Kokkos::min(tile, cols - c0);
        const ScratchView<float*, Space> s(team.team_scratch(0), tile * stride);
        const int row_groups = (height + InFlight - 1) / InFlight;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, row_groups), [&](int g) {
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, width), [&](int c) {
            float v[InFlight];
            for (int q = 0; q < InFlight; ++q) {
              const int r = q * row_groups + g;
              v[q] = r < height ? in((r0 + r) * cols + c0 + c) : 0.0f;
            }
            for (int q = 0; q < InFlight; ++q)
              if (const int r = q * row_groups + g; r < height) s(r * stride + c) = v[q];
          });
        });
        team.team_barrier();
        const int col_groups = (width + InFlight - 1) / InFlight;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, col_groups), [&](int g) {
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, height), [&](int r) {
            float v[InFlight];
            for (int q = 0; q < InFlight; ++q) {
              const int c = q * col_groups + g;
              v[q] = c < width ? s(r * stride + c) : 0.0f;
            }
            for (int q = 0; q < InFlight; ++q)
              if (const int c = q * col_groups + g; c < width) out((c0 + c) * rows + r0 + r) = v[q];
          });
        });
      });
}

template <class Space>
BenchReport bench_on(const Space& space, const BenchRequest& req) {
  // 2^28 and 2^26 elements, as the other benches; --size N: a square matrix of about N elements.
  const int side = req.params.get("size") ? static_cast<int>(std::sqrt(static_cast<double>(req.params.get("size"))))
                   : is_gpu_v<Space>      ? 16384
                                          : 8192;
  const int rows = req.params.get("rows") ? static_cast<int>(req.params.get("rows")) : std::max(side, 1);
  const int cols = req.params.get("cols") ? static_cast<int>(req.params.get("cols")) : std::max(side, 1);
  const std::size_t n = static_cast<std::size_t>(rows) * cols;
  const LaunchShape shape =
      launch_shape(space, kernel_needs(), ShapeRequest{req.team_size, req.vector_length}, Purpose::speed);
  const int tile = req.params.get("tile") ? static_cast<int>(req.params.get("tile")) : shape.tile;
  const auto fit = [&](int staged) {
    return halved_to_fit<Space>(tile, [&](int t) { return staged * tile_scratch_bytes<Space>(t); });
  };
  const LaunchShape launch{shape.team_size, shape.vector_length, fit(1)},
      pairs{shape.team_size, shape.vector_length, fit(2)};
  BenchReport report = open_bench_report("transpose", space, req, n);
  report.config.set("rows", rows).set("cols", cols).set("tile", launch.tile).set("in_place_tile", pairs.tile);
  report.config.set("team_size", launch.team_size).set("vector_length", launch.vector_length);

  const std::vector<float> host_in = random_floats(req.seed, n, -3.0, 5.0);
  const View<const float*, Space> in = to_device(space, "in", host_in);
  View<float*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), n);
  const auto kern = kernels<Space>(req.impl == Impl::reference);
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
  // The experiments: in_flight is a std::integral_constant; `title` ends the row's name ("" for
  // the first: its name is the one earlier results files hold).
  const auto in_flight_row = [&](auto in_flight, const LaunchShape& at, const std::string& title) {
    const std::string what = std::to_string(decltype(in_flight)::value) + " loads in flight per thread" + title;
    add_checked_row(
        report, space, req.cfg, {.name = "--tiled with " + what + " (experiment)", .kind = "builtin", .bytes = bytes},
        poison_out, [&] { tiled_loads_in_flight<decltype(in_flight)::value>(space, at, rows, cols, in, out); },
        verify(what));
  };
  if (is_gpu_v<Space>) {  // a CPU thread runs its rows' lanes as one loop: nothing is in flight
    // CUDA's classic shape: tiles of 32 x 32, blocks of 32 x 8.
    const LaunchShape small{.team_size = launch.team_size, .vector_length = launch.vector_length, .tile = 32};
    in_flight_row(std::integral_constant<int, 4>{}, launch, "");
    in_flight_row(std::integral_constant<int, 8>{}, launch, ", tile " + std::to_string(launch.tile));
    in_flight_row(std::integral_constant<int, 4>{}, small, ", tile " + std::to_string(small.tile));
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
