// distributed's MPI plumbing (mpi.hpp): MPI started once per process, lazily, by the first case
// that needs it; the verdict's gather and broadcast; what doctor says of this MPI.
#include "distributed/mpi.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

namespace kpz::distributed {
namespace {

void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

void start_mpi() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return;
  // kpuzzles loads this puzzle as a module with RTLD_LOCAL. Debian's Open MPI 4.1 starts so (its
  // plugins link libmpi's libraries themselves); an MPI whose plugins do not would need
  // dlopen("libmpi.so.40", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD) here, before MPI_Init_thread.
  int provided = 0;
  // An MPI that cannot start usually ends the process itself, with its reasons; kpuzzles then
  // names the launch in one line (rank_launch.cpp).
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw std::runtime_error("MPI could not start (MPI_Init_thread failed): " + mpi_library_version());
  std::atexit(finalize_at_exit);
}

template <class T>
MPI_Datatype mpi_type();
template <>
MPI_Datatype mpi_type<float>() {
  return MPI_FLOAT;
}
template <>
MPI_Datatype mpi_type<std::int64_t>() {
  return MPI_INT64_T;
}

}  // namespace

MPI_Comm world() {
  start_mpi();
  return MPI_COMM_WORLD;
}

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(world(), &rank);
  return rank;
}

int world_size() {
  int size = 1;
  MPI_Comm_size(world(), &size);
  return size;
}

bool mpi_is_cuda_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string line(text, static_cast<std::size_t>(length));
  line = line.substr(0, line.find('\n'));
  while (!line.empty() && (line.back() == ' ' || line.back() == '\0')) line.pop_back();
  return line;
}

MPI_Datatype seg_pair_type() {
  static const MPI_Datatype type = [] {
    MPI_Datatype t;
    MPI_Type_contiguous(2, MPI_INT64_T, &t);
    MPI_Type_commit(&t);
    return t;
  }();
  return type;
}

template <class T>
std::vector<T> gather_slices(MPI_Comm comm, const std::vector<T>& mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(rank == 0 ? size : 0), displs(rank == 0 ? size : 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<T> all;
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < size; ++r) {
      displs[r] = total;
      total += counts[r];
    }
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(mine.data(), count, mpi_type<T>(), all.data(), counts.data(), displs.data(), mpi_type<T>(), 0, comm);
  return all;
}
template std::vector<float> gather_slices(MPI_Comm, const std::vector<float>&);
template std::vector<std::int64_t> gather_slices(MPI_Comm, const std::vector<std::int64_t>&);

bool share_verdict(MPI_Comm comm, bool pass) {
  int flag = pass ? 1 : 0;
  MPI_Bcast(&flag, 1, MPI_INT, 0, comm);
  return flag != 0;
}

}  // namespace kpz::distributed
