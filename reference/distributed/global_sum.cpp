// distributed reference solution: the global sum. exercises/distributed/global_sum.cpp is
// generated from this file by cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO
// for the learner.
#include "distributed/distributed.hpp"

namespace kpz::distributed::reference {

template <class Space>
void global_sum(const Space& space, MPI_Comm comm, View<const std::int64_t*, Space> slice, std::int64_t& total) {
  const std::int64_t count = static_cast<std::int64_t>(slice.extent(0));
  std::int64_t local = 0;
  // KPZ-TODO(roughly 3 lines): sum this rank's slice on `space` into `local`.
  Kokkos::parallel_reduce(
      "distributed::local_sum", Kokkos::RangePolicy<Space>(space, 0, count),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& sum) { sum += slice(i); }, local);
  // KPZ-END
  std::int64_t global = 0;
  // KPZ-TODO(roughly 1 line): combine the `local` sums of all the ranks of `comm` into `global`, on
  //   every rank.
  MPI_Allreduce(&local, &global, 1, MPI_INT64_T, MPI_SUM, comm);
  // KPZ-END
  total = global;
}

KPZ_INSTANTIATE_KERNELS(KPZ_DISTRIBUTED_SUM_KERNELS)

}  // namespace kpz::distributed::reference
