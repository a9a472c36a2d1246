// distributed exercise: fill in every TODO, then run `kpuzzles run distributed`
// (or the tests). The solution is in reference/distributed/, but try first: the hints are in
// docs/puzzles/distributed.md. Generated from the reference: `kpuzzles reset distributed` restores it
// (your work is kept as a backup).
#include "distributed/distributed.hpp"

namespace kpz::distributed::exercise {

// The segmented operator as MPI applies a user-defined operation: `in` and `inout` each hold
// *len SegPairs; in[i] summarises ranks before those inout[i] summarises (MPI keeps that order
// for an operation declared non-commutative), and inout[i] becomes the summary of both.
void combine_pairs(void* in, void* inout, int* len, MPI_Datatype*) {
  const SegPair* earlier = static_cast<const SegPair*>(in);
  SegPair* later = static_cast<SegPair*>(inout);
  // TODO(roughly 4 lines): for each of the *len pairs, turn later[i] into the summary of
  //   earlier[i]'s ranks followed by later[i]'s, value and flag.
}

template <class Space>
void segmented_scan(const Space& space, MPI_Comm comm, View<const std::int64_t*, Space> values,
                    View<const std::uint8_t*, Space> heads, View<std::int64_t*, Space> out) {
  // The slice scanned alone; its summary (local.total) and its first head (local.first_head).
  const LocalScan local = local_segmented_scan(space, values, heads, out);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  SegPair carry{0, 0};  // the summary of every rank before this one; the identity on rank 0
  // TODO(roughly 6 lines): make combine_pairs an MPI operation that is not commutative; scan
  //   local.total over the ranks exclusively with it (one seg_pair_type() each) and keep the
  //   result in `carry` on every rank but the first; free the operation.
  const std::int64_t first_head = local.first_head;
  // TODO(roughly 3 lines): add the carry's value to every element of `out` before first_head,
  //   on `space`.
  space.fence();
}

KPZ_INSTANTIATE_KERNELS(KPZ_DISTRIBUTED_SCAN_KERNELS)

}  // namespace kpz::distributed::exercise
