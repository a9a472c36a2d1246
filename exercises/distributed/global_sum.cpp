// distributed exercise: fill in every TODO, then run `kpuzzles run distributed`
// (or the tests). The solution is in reference/distributed/, but try first: the hints are in
// docs/puzzles/distributed.md. Generated from the reference: `kpuzzles reset distributed` restores it
// (your work is kept as a backup).
#include "distributed/distributed.hpp"

namespace kpz::distributed::exercise {

template <class Space>
void global_sum(const Space& space, MPI_Comm comm, View<const std::int64_t*, Space> slice, std::int64_t& total) {
  const std::int64_t count = static_cast<std::int64_t>(slice.extent(0));
  std::int64_t local = 0;
  // TODO(roughly 3 lines): sum this rank's slice on `space` into `local`.
  std::int64_t global = 0;
  // TODO(roughly 1 line): combine the `local` sums of all the ranks of `comm` into `global`, on
  //   every rank.
  total = global;
}

KPZ_INSTANTIATE_KERNELS(KPZ_DISTRIBUTED_SUM_KERNELS)

}  // namespace kpz::distributed::exercise
