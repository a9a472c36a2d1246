#pragma once
// The MPI plumbing distributed's reference and skeleton share: starting MPI once per process,
// the datatype of a SegPair, and where the halo's bytes go to MPI (device memory, or host mirrors
// when this MPI cannot read the device's). No backend #if outside this file and mpi.cpp.
#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kpz::distributed {

// Starts MPI in this process on first use (after Kokkos; MPI_THREAD_FUNNELED: only the thread
// that runs Kokkos calls MPI) and finalises it at exit. Returns MPI_COMM_WORLD. Throws
// std::runtime_error with one line when MPI cannot start.
MPI_Comm world();
int world_rank();
int world_size();

// True when this MPI reads and writes CUDA device memory itself (Open MPI built with CUDA,
// asked at run time); false for any other MPI or build.
bool mpi_is_cuda_aware();
// "Open MPI v4.1.4, ..." (MPI_Get_library_version, callable before MPI starts): its first line.
std::string mpi_library_version();

// MPI's datatype for one SegPair (two int64 values), committed once.
MPI_Datatype seg_pair_type();

// Where MPI reads and writes a View of Space: the View itself when the host can read it or the
// MPI is CUDA-aware, else a host mirror that to_mpi and from_mpi keep in step.
template <class T, class Space>
class MpiBuffer {
 public:
  using DeviceView = Kokkos::View<T*, typename Space::memory_space>;
  MpiBuffer(const Space& space, DeviceView view) : space_(space), view_(view) {
    if (staged()) mirror_ = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, view);
  }
  // The pointer MPI_Isend and MPI_Irecv take: element i of the View is data()[i].
  T* data() const { return staged() ? mirror_.data() : view_.data(); }
  // Elements [first, first + count) of the View, brought to where MPI reads them (before sends).
  void to_mpi(std::int64_t first, std::int64_t count) const { copy(first, count, true); }
  // Elements [first, first + count), received by MPI, brought to the View (after the waits).
  void from_mpi(std::int64_t first, std::int64_t count) const { copy(first, count, false); }
  // The run's note: which path the halo takes.
  static std::string path() {
    if (host_accessible) return "halo: host memory";
    return mpi_is_cuda_aware() ? "halo: device buffers to MPI (CUDA-aware)"
                               : "halo through host mirrors: this MPI is not CUDA-aware";
  }

 private:
  static constexpr bool host_accessible =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  static bool staged() { return !host_accessible && !mpi_is_cuda_aware(); }
  void copy(std::int64_t first, std::int64_t count, bool to_host) const {
    if (count <= 0) return;
    if (!staged()) {
      space_.fence();  // MPI reads and writes the View itself: the kernels must be done with it
      return;
    }
    const auto range = std::make_pair(first, first + count);
    if (to_host)
      Kokkos::deep_copy(space_, Kokkos::subview(mirror_, range), Kokkos::subview(view_, range));
    else
      Kokkos::deep_copy(space_, Kokkos::subview(view_, range), Kokkos::subview(mirror_, range));
    space_.fence();
  }
  Space space_;
  DeviceView view_;
  typename DeviceView::host_mirror_type mirror_;
};

// Gathers each rank's slice of an output on rank 0, in rank order (MPI_Gatherv); other ranks get
// an empty vector.
template <class T>
std::vector<T> gather_slices(MPI_Comm comm, const std::vector<T>& mine);
// Rank 0's verdict on every rank, so that they all exit alike.
bool share_verdict(MPI_Comm comm, bool pass);

}  // namespace kpz::distributed
