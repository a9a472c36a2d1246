// `kpuzzles bench batched`: the learner's two team kernels (--hand-written, --library) against
// Kokkos Kernels in the same run: its Team-flavour gemv in the same TeamPolicy kernel, and the
// device-level route (deep_copy, KokkosBatched::BatchedGemm with N x 1 matrices, and
// KokkosBlas::dot over the columns of r seen as an M x B matrix), which passes over r three times.
#include <KokkosBatched_HostLevel_Gemm.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_team_dot.hpp>
#include <KokkosBlas2_team_gemv.hpp>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "batched/batched.hpp"
#include "kpz/backend_traits.hpp"
#include "kpz/bench.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::batched {
namespace {

template <class Space>
struct Batch {
  BatchView<const float***, Space> A;
  BatchView<const float**, Space> x, rhs;
  BatchView<float**, Space> r;
  View<float*, Space> rr;
};

// The library's Team flavour in one TeamPolicy kernel: KokkosBlas::TeamGemv spreads the rows over
// the members and runs each row's products as a plain loop (no vector lanes).
template <class Space>
void library_team(const Space& space, int team_size, const Batch<Space>& d) {
  const int m = static_cast<int>(d.A.extent(1));
  const auto A = d.A;
  const auto x = d.x;
  const auto rhs = d.rhs;
  const auto r = d.r;
  const auto rr = d.rr;
  Kokkos::parallel_for(
      "batched::library_team", TeamPolicy<Space>(space, static_cast<int>(A.extent(0)), team_size),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int b = team.league_rank();
        const auto r_b = Kokkos::subview(r, b, Kokkos::ALL);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m), [&](int i) { r_b(i) = rhs(b, i); });
        team.team_barrier();
        KokkosBlas::Experimental::team_gemv(team, 'N', -1.0f, Kokkos::subview(A, b, Kokkos::ALL, Kokkos::ALL),
                                            Kokkos::subview(x, b, Kokkos::ALL), 1.0f, r_b);
        team.team_barrier();
        const float sum_sq = KokkosBlas::Experimental::dot(team, r_b, r_b);
        Kokkos::single(Kokkos::PerTeam(team), [&] { rr(b) = sum_sq; });
      });
}

// The device-level route: three library calls, each a kernel over the whole batch.
template <class Space>
void library_device(const Space& space, const Batch<Space>& d) {
  const auto batch = d.A.extent(0), m = d.A.extent(1), n = d.A.extent(2);
  using Mem = typename Space::memory_space;
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  const Kokkos::View<const float***, Kokkos::LayoutRight, Mem, Unmanaged> x3(d.x.data(), batch, n, 1);
  const Kokkos::View<float***, Kokkos::LayoutRight, Mem, Unmanaged> r3(d.r.data(), batch, m, 1);
  // r, B x M row-major, is the column-major M x B matrix whose column b is r_b.
  const Kokkos::View<const float**, Kokkos::LayoutLeft, Mem, Unmanaged> r_columns(d.r.data(), m, batch);
  Kokkos::deep_copy(space, d.r, d.rhs);
  KokkosBatched::BatchedGemmHandle handle(KokkosBatched::BaseKokkosBatchedAlgos::KK_SERIAL);
  KokkosBatched::BatchedGemm<KokkosBatched::Trans::NoTranspose, KokkosBatched::Trans::NoTranspose,
                             KokkosBatched::BatchLayout::Left>(&handle, -1.0f, d.A, x3, 1.0f, r3);
  KokkosBlas::dot(space, d.rr, r_columns, r_columns);
}

// Checks r and rr of a sample of the systems against double-precision sums.
void check_sample(const std::vector<float>& A, const std::vector<float>& x, const std::vector<float>& rhs,
                  std::size_t m, std::size_t n, const std::vector<float>& r, const std::vector<float>& rr,
                  const std::string& what) {
  const std::size_t batch = rr.size(), step = batch / 257 + 1;
  const double eps = 4e-6;
  for (std::size_t b = 0; b < batch; b += step) {
    double sum_sq = 0, abs_sq = 0;
    for (std::size_t i = 0; i < m; ++i) {
      double ri = rhs[b * m + i], abs_sum = std::fabs(ri);
      for (std::size_t j = 0; j < n; ++j) {
        ri -= static_cast<double>(A[(b * m + i) * n + j]) * x[b * n + j];
        abs_sum += std::fabs(static_cast<double>(A[(b * m + i) * n + j]) * x[b * n + j]);
      }
      if (!(std::fabs(r[b * m + i] - ri) <= eps * static_cast<double>(n + 1) * abs_sum + 1e-30))
        throw std::runtime_error(what + " gives a wrong r in system " + std::to_string(b) + ": refusing to time it");
      sum_sq += ri * ri;
      abs_sq += abs_sum * abs_sum;
    }
    if (!(std::fabs(rr[b] - sum_sq) <= eps * static_cast<double>(m + n + 2) * abs_sq + 1e-30))
      throw std::runtime_error(what + " gives a wrong rr in system " + std::to_string(b) + ": refusing to time it");
  }
}

template <class Space>
BenchReport bench_on(const Space& space, const BenchRequest& req) {
  // Every group holds the same bytes of matrices: 256 MiB on a GPU, 32 MiB on the host.
  const std::size_t entries = bench_size<Space>(req, std::size_t{1} << 26, std::size_t{1} << 23);
  std::vector<std::pair<int, int>> shapes{{8, 8}, {16, 16}, {32, 32}, {64, 16}};
  if (req.params.get("rows"))
    shapes = {{static_cast<int>(req.params.get("rows")), static_cast<int>(req.params.get("cols"))}};
  BenchReport report = open_bench_report("batched", space, req, entries, "entries");
  Rng rng(req.seed);
  for (const auto& [m, n] : shapes) {
    const std::size_t rows = static_cast<std::size_t>(m), cols = static_cast<std::size_t>(n);
    const LaunchShape shape = launch_shape(space, team_needs(rows, cols), req);
    const Launch launch{.team_size = shape.team_size, .vector_length = shape.vector_length};
    // The Team flavour has no lanes: on a GPU a member per row, at least 16 (its best team in the
    // H100 sweep of batched-notes.md at every shape, within 3 %).
    KernelNeeds team_flavour = team_needs(rows, cols);
    team_flavour.vector_loops = false;
    team_flavour.gpu_vector = 1;
    team_flavour.gpu_team = static_cast<int>(std::clamp<std::size_t>(rows, 16, 64));
    const LaunchShape team_only = launch_shape(space, team_flavour, ShapeRequest{req.team_size, 0}, Purpose::speed);
    const std::size_t batch = std::max<std::size_t>(1, entries / (rows * cols));
    std::vector<float> hA(batch * rows * cols), hx(batch * cols), hrhs(batch * rows);
    for (auto& v : hA) v = static_cast<float>(rng.uniform(-1.0, 1.5));
    for (auto& v : hx) v = static_cast<float>(rng.uniform(-2.0, 3.0));
    for (auto& v : hrhs) v = static_cast<float>(rng.uniform(-1.0, 2.0));
    Batch<Space> d{batch_to_device<float***, Space>(space, "A", hA, batch, rows, cols),
                   batch_to_device<float**, Space>(space, "x", hx, batch, cols),
                   batch_to_device<float**, Space>(space, "rhs", hrhs, batch, rows),
                   BatchView<float**, Space>(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "r"), batch, rows),
                   View<float*, Space>(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "rr"), batch)};
    const auto kern = kernels<Space>(req.impl);
    const std::string group = std::to_string(m) + "x" + std::to_string(n);
    const std::string lanes =
        " (team " + std::to_string(launch.team_size) + " x " + std::to_string(launch.vector_length) + " lanes)";
    const std::string team_text = " (team " + std::to_string(team_only.team_size) + ")";
    const double bytes = bytes_moved(batch, rows, cols);
    const auto add_row = [&](const std::string& name, const std::string& kind, const auto& launch_fn,
                             bool portable = false) {
      add_checked_row(
          report, space, req.cfg,
          {.name = name + ", " + group, .kind = kind, .group = group, .bytes = bytes, .portable = portable},
          [&] {
            poison(d.r);
            poison(d.rr);
          },
          launch_fn, [&] { check_sample(hA, hx, hrhs, rows, cols, batch_to_host(d.r), to_host(d.rr), name); });
    };
    // --hand-written is the portable row: the three levels, written once for both machines.
    add_row(
        "batched --hand-written" + lanes, "puzzle",
        [&] { kern.hand_written(space, launch, d.A, d.x, d.rhs, d.r, d.rr); }, /*portable=*/true);
    add_row("batched --library: team_vector_gemv + team dot" + lanes, "puzzle",
            [&] { kern.library(space, launch, d.A, d.x, d.rhs, d.r, d.rr); });
    add_row("KokkosBlas team_gemv (Team) + team dot" + team_text, "library",
            [&] { library_team(space, team_only.team_size, d); });
    add_row("device level: deep_copy + KokkosBatched::BatchedGemm + KokkosBlas::dot", "library",
            [&] { library_device(space, d); });
  }
  report.notes.push_back(
      "bytes model: A, x and rhs read once, r and rr written once; the device-level route moves r "
      "three more times");
  return report;
}

KPZ_REGISTER_BENCH(
    "batched",
    {{"size", "N, the entries of all the matrices of a shape (0: 2^26 on a GPU, 2^23 on the host)", 0, 0,
      std::int64_t{1} << 28},
     {"rows", "M (0: the shapes 8x8, 16x16, 32x32, 64x16)", 0, 0, 4096},
     {"cols", "N (with --rows)", 16, 1, 4096}},
    "batched --hand-written and --library vs Kokkos Kernels' Team gemv and its device-level BatchedGemm + dot");

}  // namespace

}  // namespace kpz::batched
