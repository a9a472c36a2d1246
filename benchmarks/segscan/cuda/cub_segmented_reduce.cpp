// The library baseline of `kpuzzles bench segscan` in CUDA builds: CUB's
// DeviceSegmentedReduce::Sum over float values with int CSR offsets, timed like the Kokkos rows
// (kpz::time_kernel: CUDA events on the held Kokkos stream, warm-up, median). Every CUDA and CUB return code
// is checked; a failure throws std::runtime_error (kpuzzles exits 3).
// Registered in kpz::LibraryBaselines as "cub::DeviceSegmentedReduce::Sum<float>":
//   in = {values (const float*, N), offsets (const int*, S + 1)}, out = {sums (float*, S)},
//   sizes = {N, S}.
#include "kpz/bench.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>

#include <cub/cub.cuh>
#include <stdexcept>
#include <string>
#include <vector>

namespace kpz::segscan {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + " failed: " + cudaGetErrorString(status));
}

// Owns CUB's temporary storage; frees it on every exit path.
struct CubTemp {
  void* ptr = nullptr;
  ~CubTemp() {
    if (ptr) cudaFree(ptr);
  }
};

Timing cub_segmented_sum(const LibraryArgs& args) {
  const auto* values = static_cast<const float*>(args.in.at(0));
  const auto* offsets = static_cast<const int*>(args.in.at(1));
  auto* sums = static_cast<float*>(args.out.at(0));
  const int segments = static_cast<int>(args.sizes.at(1));
  const cudaStream_t stream = Kokkos::Cuda().cuda_stream();  // the stream time_kernel holds and times
  CubTemp temp;
  std::size_t temp_bytes = 0;
  check(cub::DeviceSegmentedReduce::Sum(nullptr, temp_bytes, values, sums, segments, offsets, offsets + 1, stream),
        "cub::DeviceSegmentedReduce::Sum (temporary storage size)");
  check(cudaMalloc(&temp.ptr, temp_bytes > 0 ? temp_bytes : 1), "cudaMalloc (CUB temporary storage)");
  const auto launch = [&] {
    check(cub::DeviceSegmentedReduce::Sum(temp.ptr, temp_bytes, values, sums, segments, offsets, offsets + 1, stream),
          "cub::DeviceSegmentedReduce::Sum");
  };
  return time_kernel(Kokkos::Cuda(), args.cfg, launch);
}

}  // namespace

KPZ_REGISTER_LIBRARY_BASELINE(cub_segmented_sum, "cub::DeviceSegmentedReduce::Sum<float>", cub_segmented_sum);

}  // namespace kpz::segscan
#endif  // KOKKOS_ENABLE_CUDA
