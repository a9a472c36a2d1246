// batched reference solution. exercises/batched/batched.cpp is generated from this file by
// cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include <KokkosBlas1_team_dot.hpp>
#include <KokkosBlas2_team_gemv.hpp>

#include "batched/batched.hpp"

namespace kpz::batched::reference {

template <class Space>
void hand_written(const Space& space, const Launch& launch, BatchView<const float***, Space> A,
                  BatchView<const float**, Space> x, BatchView<const float**, Space> rhs, BatchView<float**, Space> r,
                  View<float*, Space> rr) {
  const int m = static_cast<int>(A.extent(1));
  const int n = static_cast<int>(A.extent(2));
  system_launch(  // one team per system: the team's members and vector lanes share system b
      space, launch, "batched::hand_written", A.extent(0), KOKKOS_LAMBDA(const TeamMember<Space>& team, int b) {
        float sum_sq = 0.0f;
        // KPZ-TODO(roughly 10 lines): for every row i of system b, r(b, i) becomes rhs(b, i) minus
        //   row i of A(b, :, :) times x(b, :), written once; sum_sq, the sum over the rows of r(b,
        //   i) squared, is known to every member of the team (the rows shared among the members,
        //   each row's products among the vector lanes).
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, m),
            [&](int i, float& row_sum) {
              float ax = 0.0f;
              Kokkos::parallel_reduce(
                  Kokkos::ThreadVectorRange(team, n), [&](int j, float& dot) { dot += A(b, i, j) * x(b, j); }, ax);
              const float ri = rhs(b, i) - ax;
              Kokkos::single(Kokkos::PerThread(team), [&] { r(b, i) = ri; });
              row_sum += ri * ri;
            },
            sum_sq);
        // KPZ-END
        // KPZ-TODO(roughly 1 line): sum_sq into rr(b), written once per team.
        Kokkos::single(Kokkos::PerTeam(team), [&] { rr(b) = sum_sq; });
        // KPZ-END
      });
}

template <class Space>
void library(const Space& space, const Launch& launch, BatchView<const float***, Space> A,
             BatchView<const float**, Space> x, BatchView<const float**, Space> rhs, BatchView<float**, Space> r,
             View<float*, Space> rr) {
  const int m = static_cast<int>(A.extent(1));
  system_launch(
      space, launch, "batched::library", A.extent(0), KOKKOS_LAMBDA(const TeamMember<Space>& team, int b) {
        // System b as Views of its own: what Kokkos Kernels' team routines take.
        const auto A_b = Kokkos::subview(A, b, Kokkos::ALL, Kokkos::ALL);
        const auto x_b = Kokkos::subview(x, b, Kokkos::ALL);
        const auto rhs_b = Kokkos::subview(rhs, b, Kokkos::ALL);
        const auto r_b = Kokkos::subview(r, b, Kokkos::ALL);
        // KPZ-TODO(roughly 4 lines): the residual of system b into r_b, the product done by one
        //   call of Kokkos Kernels' team-level gemv (KokkosBlas::Experimental, TeamVector flavour);
        //   when the block ends, every member must see all of r_b.
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, m), [&](int i) { r_b(i) = rhs_b(i); });
        team.team_barrier();
        KokkosBlas::Experimental::team_vector_gemv(team, 'N', -1.0f, A_b, x_b, 1.0f, r_b);
        team.team_barrier();
        // KPZ-END
        // KPZ-TODO(roughly 2 lines): the squared norm of r_b into rr(b), by Kokkos Kernels'
        //   team-level dot and written once per team.
        const float sum_sq = KokkosBlas::Experimental::dot(team, r_b, r_b);
        Kokkos::single(Kokkos::PerTeam(team), [&] { rr(b) = sum_sq; });
        // KPZ-END
      });
}

KPZ_INSTANTIATE_KERNELS(KPZ_BATCHED_KERNELS)

}  // namespace kpz::batched::reference
