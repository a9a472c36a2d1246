// batched exercise: fill in every TODO, then run `kpuzzles run batched`
// (or the tests). The solution is in reference/batched/, but try first: the hints are in
// docs/puzzles/batched.md. Generated from the reference: `kpuzzles reset batched` restores it
// (your work is kept as a backup).
#include <KokkosBlas1_team_dot.hpp>
#include <KokkosBlas2_team_gemv.hpp>

#include "batched/batched.hpp"

namespace kpz::batched::exercise {

template <class Space>
void hand_written(const Space& space, const Launch& launch, BatchView<const float***, Space> A,
                  BatchView<const float**, Space> x, BatchView<const float**, Space> rhs, BatchView<float**, Space> r,
                  View<float*, Space> rr) {
  const int m = static_cast<int>(A.extent(1));
  const int n = static_cast<int>(A.extent(2));
  system_launch(  // one team per system: the team's members and vector lanes share system b
      space, launch, "batched::hand_written", A.extent(0), KOKKOS_LAMBDA(const TeamMember<Space>& team, int b) {
        float sum_sq = 0.0f;
        // TODO(roughly 10 lines): for every row i of system b, r(b, i) becomes rhs(b, i) minus
        //   row i of A(b, :, :) times x(b, :), written once; sum_sq, the sum over the rows of r(b,
        //   i) squared, is known to every member of the team (the rows shared among the members,
        //   each row's products among the vector lanes).
        // TODO(roughly 1 line): sum_sq into rr(b), written once per team.
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
        // TODO(roughly 4 lines): the residual of system b into r_b, the product done by one
        //   call of Kokkos Kernels' team-level gemv (KokkosBlas::Experimental, TeamVector flavour);
        //   when the block ends, every member must see all of r_b.
        // TODO(roughly 2 lines): the squared norm of r_b into rr(b), by Kokkos Kernels'
        //   team-level dot and written once per team.
      });
}

KPZ_INSTANTIATE_KERNELS(KPZ_BATCHED_KERNELS)

}  // namespace kpz::batched::exercise
