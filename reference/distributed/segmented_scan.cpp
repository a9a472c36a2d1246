// distributed reference solution: a segmented scan across ranks, the carry between ranks by
// MPI_Exscan with the segmented operator. exercises/distributed/segmented_scan.cpp is generated
// from this file by cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO for the
// learner.
#include "distributed/distributed.hpp"

namespace kpz::distributed::reference {

// The segmented operator as MPI applies a user-defined operation: `in` and `inout` each hold
// *len SegPairs; in[i] summarises ranks before those inout[i] summarises (MPI keeps that order
// for an operation declared non-commutative), and inout[i] becomes the summary of both.
void combine_pairs(void* in, void* inout, int* len, MPI_Datatype*) {
  const SegPair* earlier = static_cast<const SegPair*>(in);
  SegPair* later = static_cast<SegPair*>(inout);
  // KPZ-TODO(roughly 4 lines): for each of the *len pairs, turn later[i] into the summary of
  //   earlier[i]'s ranks followed by later[i]'s, value and flag.
  for (int i = 0; i < *len; ++i) {
    later[i].value = later[i].flag ? later[i].value : earlier[i].value + later[i].value;
    later[i].flag = earlier[i].flag | later[i].flag;
  }
  // KPZ-END
}

template <class Space>
void segmented_scan(const Space& space, MPI_Comm comm, View<const std::int64_t*, Space> values,
                    View<const std::uint8_t*, Space> heads, View<std::int64_t*, Space> out) {
  // The slice scanned alone; its summary (local.total) and its first head (local.first_head).
  const LocalScan local = local_segmented_scan(space, values, heads, out);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  SegPair carry{0, 0};  // the summary of every rank before this one; the identity on rank 0
  // KPZ-TODO(roughly 6 lines): make combine_pairs an MPI operation that is not commutative; scan
  //   local.total over the ranks exclusively with it (one seg_pair_type() each) and keep the
  //   result in `carry` on every rank but the first; free the operation.
  MPI_Op op;
  MPI_Op_create(&combine_pairs, /*commute=*/0, &op);
  SegPair before{0, 0};
  MPI_Exscan(&local.total, &before, 1, seg_pair_type(), op, comm);
  MPI_Op_free(&op);
  if (rank > 0) carry = before;
  // KPZ-END
  const std::int64_t first_head = local.first_head;
  // KPZ-TODO(roughly 3 lines): add the carry's value to every element of `out` before first_head,
  //   on `space`.
  const std::int64_t add = carry.value;
  Kokkos::parallel_for(
      "distributed::fix_up", Kokkos::RangePolicy<Space>(space, 0, first_head),
      KOKKOS_LAMBDA(const std::int64_t i) { out(i) += add; });
  // KPZ-END
  space.fence();
}

KPZ_INSTANTIATE_KERNELS(KPZ_DISTRIBUTED_SCAN_KERNELS)

}  // namespace kpz::distributed::reference
