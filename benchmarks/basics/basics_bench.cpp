// `kpuzzles bench basics`: the on-ramp's kernels against a device copy, and the three comparisons
// its page draws: axpy against the copy (a map runs at copy speed), the MDRange kernel on a
// LayoutRight and on a LayoutLeft matrix (the layout that matches the backend's iteration order
// wins), and the histogram with atomics against the one with a ScatterView, with few bins (every
// thread hits the same counters) and with many. `--scratch-levels 1` times step 13 instead: per-team
// histogram tables in level-0 and level-1 scratch against atomics straight into the output.
#include <array>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "basics/basics.hpp"
#include "basics/spec.hpp"
#include "kpz/backend_traits.hpp"
#include "kpz/bench.hpp"
#include "kpz/check.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::basics {
namespace {

// The MDRange kernel of step 3 on a matrix of the given layout (the puzzle's kernel takes the
// space's default layout: LayoutRight on a CPU, LayoutLeft on a GPU), with the iteration order of
// `Rank` and tiles of tile[0] x tile[1] (0 x 0: Kokkos' default tiles). With Per = 4 an iteration
// (i, q) handles the Per consecutive columns j = Per q ... Per q + Per - 1 of LayoutRight, loads
// first: each GPU thread then has Per loads in flight instead of one, the copy baseline's fix in 2D
// (benchmarks/results/portability-notes.md); the range is cols / Per, rounded up.
template <class Layout, class Rank, int Per, class Space>
void mdrange_on(const Space& space, Kokkos::View<const float**, Layout, typename Space::memory_space> in,
                View<const float*, Space> u, View<const float*, Space> v,
                Kokkos::View<float**, Layout, typename Space::memory_space> out, std::array<std::int64_t, 2> tile) {
  using Policy = Kokkos::MDRangePolicy<Space, Rank>;
  const int rows = static_cast<int>(out.extent(0)), cols = static_cast<int>(out.extent(1));
  const std::int64_t steps = (cols + Per - 1) / Per;
  const Policy policy =
      tile[0] > 0 ? Policy(space, {0, 0}, {rows, steps}, {tile[0], tile[1]}) : Policy(space, {0, 0}, {rows, steps});
  Kokkos::parallel_for(
      "basics::bench::mdrange", policy, KOKKOS_LAMBDA(int i, int q) {
        const int j0 = q * Per;
        const float ui = u(i);
        if (j0 + Per <= cols) {
          float a[Per], b[Per];
          for (int k = 0; k < Per; ++k) a[k] = in(i, j0 + k);
          for (int k = 0; k < Per; ++k) b[k] = v(j0 + k);
          for (int k = 0; k < Per; ++k) out(i, j0 + k) = a[k] + ui * b[k];
        } else {
          for (int j = j0; j < cols; ++j) out(i, j) = in(i, j) + ui * v(j);
        }
      });
}

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(what + " gives a wrong result: refusing to time it");
}

template <class Layout, class Rank = Kokkos::Rank<2>, int Per = 1, class Space>
void add_layout_row(BenchReport& report, const Space& space, const BenchRequest& req, const std::vector<float>& a,
                    View<const float*, Space> u, View<const float*, Space> v, const std::vector<float>& hu,
                    const std::vector<float>& hv, const std::string& name, std::array<std::int64_t, 2> tile = {0, 0}) {
  using Matrix = Kokkos::View<float**, Layout, typename Space::memory_space>;
  const std::size_t rows = hu.size(), cols = hv.size();
  Matrix in(Kokkos::view_alloc(space, "in"), rows, cols), out(Kokkos::view_alloc(space, "out"), rows, cols);
  auto h = Kokkos::create_mirror_view(in);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) h(i, j) = a[i * cols + j];
  Kokkos::deep_copy(space, in, h);
  add_checked_row(
      report, space, req.cfg,
      {.name = name, .kind = "puzzle", .group = "2D", .bytes = 8.0 * static_cast<double>(rows * cols)},
      [&] { poison(out); }, [&] { mdrange_on<Layout, Rank, Per>(space, in, u, v, out, tile); },
      [&] {
        Kokkos::deep_copy(h, out);
        for (std::size_t i = 0; i < rows; ++i)
          for (std::size_t j = 0; j < cols; ++j)
            require(std::fabs(h(i, j) - (a[i * cols + j] + static_cast<double>(hu[i]) * hv[j])) < 1e-4, name);
      });
}

// --scratch-levels: N values into B bins, B = 256 ... 65536 (or --bins), uniform and with half the
// values in the 8 lowest bins (hot bins, numbered first as a program that knows them would), by
// atomics straight into bins, by a ScatterView, and by step 13's kernel with its per-team table all
// in level 1, split (the lowest bins that fit in level 0, the rest in level 1) or all in level 0
// (where it fits). One team per slot the device runs at once (4 per core on a CPU): each team
// zeroes and merges its table once, and counts N / teams values.
template <class Space>
BenchReport levels_bench(const Space& space, const BenchRequest& req) {
  const std::size_t n = bench_size<Space>(req, std::size_t{1} << 26, std::size_t{1} << 24);
  BenchReport report = open_bench_report("basics", space, req, n);
  const LaunchShape shape = launch_shape(space, levels_needs(), req);
  const long long slots = std::max(1, space.concurrency() / (shape.team_size * shape.vector_length));
  const long long teams = is_gpu_v<Space> ? slots : 4 * slots;
  const Launch launch{.team_size = shape.team_size,
                      .tile = static_cast<int>((static_cast<long long>(n) + teams - 1) / teams),
                      .vector_length = shape.vector_length};
  report.config.set("team_size", launch.team_size).set("vector_length", launch.vector_length);
  report.config.set("tile", launch.tile).set("teams", (static_cast<long long>(n) + launch.tile - 1) / launch.tile);
  const auto k = kernels<Space>(req.impl);
  const std::vector<int> bin_counts = req.params.get("bins")
                                          ? std::vector<int>{static_cast<int>(req.params.get("bins"))}
                                          : std::vector<int>{256, 1024, 4096, 16384, 65536};
  for (const bool hot : {false, true})
    for (const int b : bin_counts) {
      const std::vector<int> hvalues = hot_values(req.seed, n, b, hot ? 0.5 : 0.0, true);
      const auto values = to_device(space, "values", hvalues);
      std::vector<int> want(static_cast<std::size_t>(b), 0);
      for (const int v : hvalues) ++want[static_cast<std::size_t>(v)];
      View<int*, Space> bins(Kokkos::view_alloc(space, "bins"), b);
      const std::string group = std::to_string(b) + " bins, " + (hot ? "hot" : "uniform");
      const int fit = level0_bins_max<Space>(b);
      double atomics_s = 0;
      const auto row = [&](const std::string& name, const auto& launch_row) {
        BenchRow& r = add_checked_row(
            report, space, req.cfg, {.name = name + ", " + group, .kind = "puzzle", .group = group, .bytes = 4.0 * n},
            [&] { poison(bins); }, launch_row, [&] { require(to_host(bins) == want, name + ", " + group); });
        if (atomics_s == 0) atomics_s = r.timing.median_s;
        r.extra.push_back({"vs atomics", atomics_s / r.timing.median_s});
      };
      row("atomic_add into bins", [&] { k.histogram_atomic(space, values, bins); });
      row("ScatterView", [&] { k.histogram_scatter(space, values, bins); });
      row("tables in level 1", [&] { k.histogram_levels(space, launch, 0, values, bins); });
      if (fit < b)
        row("tables split (" + std::to_string(fit) + " in level 0)",
            [&] { k.histogram_levels(space, launch, fit, values, bins); });
      else
        row("tables in level 0", [&] { k.histogram_levels(space, launch, b, values, bins); });
    }
  report.notes.push_back(
      "bytes model: the N int values read once (4 N bytes), the counters' traffic left out (what any histogram moves)");
  report.notes.push_back("level 0 holds " + std::to_string(level0_bins_max<Space>(1 << 30)) +
                         " int counters per team on " + std::string(space_name<Space>()) +
                         "; level 1 is global memory on a GPU, and on a CPU the same "
                         "heap as level 0");
  return report;
}

template <class Space>
BenchReport bench_on(const Space& space, const BenchRequest& req) {
  if (req.params.get("scratch-levels")) return levels_bench(space, req);
  const std::size_t n = bench_size<Space>(req, std::size_t{1} << 26, std::size_t{1} << 22);
  const auto k = kernels<Space>(req.impl);
  BenchReport report = start_bench_report("basics", space, req, n);
  add_copy_baselines(report, space, n, req.cfg, "map");
  Rng rng(req.seed);

  // Step 2: z = alpha x + y reads two arrays and writes one; a copy reads one and writes one.
  std::vector<float> hx(n), hy(n);
  for (auto& x : hx) x = static_cast<float>(rng.uniform(-2.0, 3.0));
  for (auto& y : hy) y = static_cast<float>(rng.uniform(-1.0, 2.0));
  std::vector<float> pad_x(hx), pad_y(hy);
  pad_x.resize(padded_range(static_cast<int>(n)), 0.0f);
  pad_y.resize(pad_x.size(), 0.0f);
  auto x = to_device(space, "x", pad_x);
  auto y = to_device(space, "y", pad_y);
  View<float*, Space> z_mem(Kokkos::view_alloc(space, "z"), pad_x.size());
  const View<float*, Space> z(z_mem.data(), n);
  add_checked_row(
      report, space, req.cfg,
      {.name = "basics --axpy", .kind = "puzzle", .group = "map", .bytes = 12.0 * static_cast<double>(n)},
      [&] { poison(z); }, [&] { k.axpy(space, 1.5f, x, y, z); },
      [&] {
        const std::vector<float> hz = to_host(z);
        for (std::size_t i = 0; i < n; ++i) require(std::fabs(hz[i] - (1.5 * hx[i] + hy[i])) < 1e-4, "axpy");
      });

  // Step 3: one matrix of about n elements, 2048 columns, in both layouts.
  const std::size_t cols = 2048, rows = n / cols > 0 ? n / cols : 1;
  std::vector<float> a(rows * cols), hu(rows), hv(cols);
  for (auto& e : a) e = static_cast<float>(rng.uniform(-2.0, 3.0));
  for (auto& e : hu) e = static_cast<float>(rng.uniform(-1.0, 2.0));
  for (auto& e : hv) e = static_cast<float>(rng.uniform(0.5, 1.5));
  auto u = to_device(space, "u", hu);
  auto v = to_device(space, "v", hv);
  add_layout_row<Kokkos::LayoutRight>(report, space, req, a, u, v, hu, hv, "MDRange on LayoutRight (row-major)");
  add_layout_row<Kokkos::LayoutLeft>(report, space, req, a, u, v, hu, hv, "MDRange on LayoutLeft (column-major)");
  // What decides an MDRange's speed: whether consecutive threads (a GPU warp's lanes) or a
  // thread's consecutive iterations (a CPU's vector loop) walk the contiguous index, and the
  // tiles. LayoutRight's contiguous index is j: Iterate::Right walks it innermost.
  using Right = Kokkos::Rank<2, Kokkos::Iterate::Right, Kokkos::Iterate::Right>;
  using Left = Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>;
  for (const auto& [t0, t1] : {std::pair<std::int64_t, std::int64_t>{1, 256}, {256, 1}, {16, 16}, {4, 64}}) {
    const std::string tiles = ", tiles " + std::to_string(t0) + " x " + std::to_string(t1);
    add_layout_row<Kokkos::LayoutRight, Right>(report, space, req, a, u, v, hu, hv,
                                               "MDRange LayoutRight, Iterate::Right" + tiles, {t0, t1});
    add_layout_row<Kokkos::LayoutRight, Left>(report, space, req, a, u, v, hu, hv,
                                              "MDRange LayoutRight, Iterate::Left" + tiles, {t0, t1});
  }
  // Four consecutive columns per iteration: a range over cols / 4, the same tiles in iterations.
  for (const auto& [t0, t1] : {std::pair<std::int64_t, std::int64_t>{0, 0}, {1, 256}, {1, 128}, {2, 64}}) {
    const std::string tiles = t0 ? ", tiles " + std::to_string(t0) + " x " + std::to_string(t1) : ", default tiles";
    add_layout_row<Kokkos::LayoutRight, Right, 4>(report, space, req, a, u, v, hu, hv,
                                                  "MDRange LayoutRight, 4 j an iteration" + tiles, {t0, t1});
  }

  // Step 6: the same values counted with atomics and through a ScatterView.
  std::vector<int> hvalues(n);
  for (const int bins : {16, 4096}) {
    for (auto& b : hvalues) b = static_cast<int>(rng.integer(0, bins - 1));
    auto values = to_device(space, "values", hvalues);
    View<int*, Space> counts(Kokkos::view_alloc(space, "bins"), bins);
    std::vector<int> want(bins, 0);
    for (const int b : hvalues) ++want[b];
    const std::string group = "histogram, " + std::to_string(bins) + " bins";
    for (const bool scatter : {false, true})
      add_checked_row(
          report, space, req.cfg,
          {.name = std::string(scatter ? "basics --histogram, ScatterView, " : "basics --histogram, atomic_add, ") +
                   std::to_string(bins) + " bins",
           .kind = "puzzle",
           .group = group,
           .bytes = 4.0 * static_cast<double>(n)},
          [&] { poison(counts); },
          [&] {
            if (scatter)
              k.histogram_scatter(space, values, counts);
            else
              k.histogram_atomic(space, values, counts);
          },
          [&] { require(to_host(counts) == want, scatter ? "histogram_scatter" : "histogram_atomic"); });
  }
  report.notes.push_back("2D rows: " + std::to_string(rows) + " x " + std::to_string(cols) +
                         " floats; the layout whose contiguous index matches the backend's MDRange order is faster");
  return report;
}

KPZ_REGISTER_BENCH(
    "basics",
    {size_option("N (0: 2^26 on a GPU, 2^22 on the host; 2^24 with --scratch-levels)", std::int64_t{1} << 28),
     switch_option("scratch-levels", "step 13 instead: per-team tables in level 0 / 1 scratch vs atomics"),
     {"bins", "bins for --scratch-levels (0: 256, 1024, 4096, 16384 and 65536)", 0, 0, 1 << 20}},
    "the on-ramp: axpy vs a copy, MDRange on LayoutRight vs LayoutLeft, histogram atomics vs "
    "ScatterView; with --scratch-levels 1, per-team histogram tables in level-0 and level-1 scratch");

}  // namespace

}  // namespace kpz::basics
