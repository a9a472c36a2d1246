// distributed reference solution: conv1d across ranks, the halo exchanged while the interior
// computes. exercises/distributed/halo.cpp is generated from this file by cmake/kpz-skeletons:
// each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include <vector>

#include "distributed/distributed.hpp"

namespace kpz::distributed::reference {

template <class Space>
void halo_conv(const Space& space, const Space& side, MPI_Comm comm, const HaloPlan& plan, View<float*, Space> ext,
               View<const float*, Space> b, View<float*, Space> out) {
  // Where MPI reads and writes ext: ext itself, or its host mirror when MPI cannot reach the
  // device (buffer.data()[i] is ext(i)). The parts of the slice other ranks need go there first.
  const MpiBuffer<float, Space> buffer(space, ext);
  for (const HaloPiece& piece : plan.sends) buffer.to_mpi(piece.offset, piece.count);
  const std::int64_t valid = plan.count + plan.halo;  // outputs read no further
  std::vector<MPI_Request> requests(plan.receives.size() + plan.sends.size(), MPI_REQUEST_NULL);
  // KPZ-TODO(roughly 8 lines): post a non-blocking receive for every piece of plan.receives (it
  //   lands after the slice, at its offset within the halo) and a non-blocking send for every
  //   piece of plan.sends, each with its own entry of `requests`.
  std::size_t next = 0;
  for (const HaloPiece& piece : plan.receives)
    MPI_Irecv(buffer.data() + plan.count + piece.offset, static_cast<int>(piece.count), MPI_FLOAT, piece.peer, 0, comm,
              &requests[next++]);
  for (const HaloPiece& piece : plan.sends)
    MPI_Isend(buffer.data() + piece.offset, static_cast<int>(piece.count), MPI_FLOAT, piece.peer, 0, comm,
              &requests[next++]);
  // KPZ-END
  // KPZ-TODO(roughly 1 line): while the messages are in flight, compute the outputs that need no
  //   halo, [0, plan.interior()), on the second instance, `side`.
  conv_outputs(side, View<const float*, Space>(ext), b, out, 0, plan.interior(), valid);
  // KPZ-END
  // KPZ-TODO(roughly 1 line): wait for all of `requests`.
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  // KPZ-END
  buffer.from_mpi(plan.count, plan.halo);
  conv_outputs(space, View<const float*, Space>(ext), b, out, plan.interior(), plan.count, valid);
  side.fence();
  space.fence();
}

KPZ_INSTANTIATE_KERNELS(KPZ_DISTRIBUTED_HALO_KERNELS)

}  // namespace kpz::distributed::reference
