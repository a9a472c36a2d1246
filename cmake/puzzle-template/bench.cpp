// `kpuzzles bench @name@`: the puzzle's kernel against the two device copies of the same bytes.
#include <string>
#include <vector>

#include "@name@/@name@.hpp"
#include "kpz/bench.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::@ns@ {
namespace {

template <class Space>
BenchReport bench_on(const Space& space, const BenchRequest& req) {
  // 2^28 floats on a GPU, 2^26 on a host (more than its last-level cache), as the other benches.
  const std::size_t n = bench_size<Space>(req, std::size_t{1} << 28, std::size_t{1} << 26);
  const LaunchShape shape = launch_shape(space, kernel_needs(), req);
  BenchReport report = open_bench_report("@name@", space, req, n);
  report.config.set("tile", shape.tile).set("team_size", shape.team_size);

  const std::vector<float> host_in = random_floats(req.seed, n, -3.0, 5.0);
  const View<const float*, Space> in = to_device(space, "in", host_in);
  View<float*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), n);
  const auto kern = kernels<Space>(req.impl);
  const auto verify = [&] {  // each tile reversed
    const std::size_t tile = static_cast<std::size_t>(shape.tile);
    verify_sample(
        to_host(out),
        [&](std::size_t k, float v) {
          const std::size_t first = k / tile * tile, count = std::min(tile, n - first);
          return v == host_in[first + count - 1 - (k - first)];
        },
        "@name@ --tiled");
  };
  add_checked_row(
      report, space, req.cfg,
      {.name = "@name@ --tiled", .kind = "puzzle", .bytes = 2.0 * sizeof(float) * static_cast<double>(n),
       .portable = true},
      [&] { poison(out); }, [&] { kern.tiled(space, shape, in, out); }, verify);
  return report;
}

KPZ_REGISTER_BENCH("@name@", {{"size", "N (0: 2^28 on a GPU, 2^26 on a host)", 0, 0, std::int64_t{1} << 28}},
                   "@name@ --tiled vs a device copy");

}  // namespace

}  // namespace kpz::@ns@
