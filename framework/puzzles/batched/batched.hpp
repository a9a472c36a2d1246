#pragma once
// batched: for B small dense systems, the residual r_b = rhs_b - A_b x_b and its squared norm
// rr_b = r_b . r_b, one team per system. The kernel signatures (signatures.inc) are implemented
// twice, with the same text: by the learner in exercises/batched/ (namespace
// kpz::batched::exercise) and in reference/batched/ (namespace kpz::batched::reference).
// The puzzle is built only with Kokkos Kernels (requires.cmake).
#include <cstddef>
#include <string>
#include <vector>

#include "batched/signatures.inc"
#include "kpz/kernel_table.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/spaces.hpp"
#include "kpz/types.hpp"

namespace kpz::batched {

// The batch in device memory, one system after the other, each row-major (LayoutRight on every
// backend): A(b, i, j) of one system is contiguous, which a team reading its own system wants.
template <class DataType, class Space>
using BatchView = Kokkos::View<DataType, Kokkos::LayoutRight, typename Space::memory_space>;

// What the host side decides before a launch (CUDA: a block of team_size x vector_length threads).
struct Launch {
  int team_size;
  int vector_length;
};

// One system per team: rows on the members, a row's columns on the vector lanes. On a GPU the
// shape follows the system (the H100 sweep of benchmarks/results/batched-notes.md, teams of 1-64
// members x 1-32 lanes): 16 members up to 32 rows and 32 from 64 rows, so that a block holds
// enough rows in flight; one lane a member below 32 columns (each thread loads its own row: lanes
// that split a short row wait on each other's shuffles) and 4 from 32 columns. 8 x 8 for every
// system was 1.15-1.8x slower at every shape of the bench, 8 x 32 up to 4.4x. CPU: one lane, the
// row is a SIMD loop.
inline KernelNeeds team_needs(std::size_t rows, std::size_t cols) {
  return KernelNeeds{.vector_loops = true,
                     .gpu_team = rows >= 64 ? 32 : 16,
                     .gpu_vector = cols >= 32 ? 4 : 1,
                     .host_vector = 1,
                     .check_team = 64};
}

// One team per system (CUDA: one block per system, a member's vector lanes are threadIdx.x):
// batch teams of launch.team_size members with launch.vector_length lanes each; body(team, b)
// handles system b, the team's league rank.
template <class Space, class Body>
void system_launch(const Space& space, const Launch& launch, const char* name, std::size_t batch, Body body) {
  const TeamPolicy<Space> policy(space, static_cast<int>(batch), launch.team_size, launch.vector_length);
  Kokkos::parallel_for(
      name, policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) { body(team, team.league_rank()); });
}

// Fewest bytes any batched kernel moves: A, x and rhs read once, r and rr written once.
inline double bytes_moved(std::size_t batch, std::size_t rows, std::size_t cols) {
  const double b = static_cast<double>(batch), m = static_cast<double>(rows), n = static_cast<double>(cols);
  return static_cast<double>(sizeof(float)) * b * (m * n + n + 2.0 * m + 1.0);
}

// Host <-> device copies of the batch (row-major std::vectors <-> BatchViews), shared by the
// runner, the benchmark and the tests.

// A BatchView of `DataType` (float** or float***) with the given extents, holding `host`.
template <class DataType, class Space, class... Extents>
BatchView<DataType, Space> batch_to_device(const Space& space, const std::string& label, const std::vector<float>& host,
                                           Extents... extents) {
  BatchView<DataType, Space> dev(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, label), extents...);
  using Host = Kokkos::View<typename BatchView<DataType, Space>::const_data_type, Kokkos::LayoutRight,
                            Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  Kokkos::deep_copy(space, dev, Host(host.data(), extents...));
  space.fence();
  return dev;
}

// The B x M matrix `dev` as a row-major std::vector.
template <class ViewType>
std::vector<float> batch_to_host(const ViewType& dev) {
  std::vector<float> host(dev.size());
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> dst(host.data(), dev.extent(0),
                                                                                             dev.extent(1));
  Kokkos::deep_copy(dst, dev);
  return host;
}

// The kernels of signatures.inc: declarations in exercise:: and reference::, Kernels, kernels().
KPZ_KERNELS(KPZ_BATCHED_KERNELS)

}  // namespace kpz::batched
