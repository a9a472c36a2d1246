// CUB DeviceReduce::Sum, the library baseline of `kpuzzles bench reduce`, timed like every other
// row (kpz::time_kernel: CUDA events on the held Kokkos stream). Compiled only in CUDA builds
// (cmake/KpzPuzzles.cmake), with nvcc.
#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)

#include <cuda_runtime.h>

#include <cub/cub.cuh>
#include <stdexcept>
#include <string>
#include <vector>

#include "../library.hpp"

namespace kpz::reduce {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("reduce bench (CUDA): ") + what + " failed: " + cudaGetErrorString(status));
}

// Device memory released on every path out (also when a check throws).
struct Resources {
  void* temp = nullptr;
  void* out = nullptr;
  ~Resources() {
    if (temp) cudaFree(temp);
    if (out) cudaFree(out);
  }
};

template <class T>
LibraryResult cub_sum_typed(const T* values, std::size_t n, const BenchConfig& cfg) {
  Resources r;
  const cudaStream_t stream = Kokkos::Cuda().cuda_stream();  // the stream time_kernel holds and times
  const int items = static_cast<int>(n);
  std::size_t temp_bytes = 0;
  check(cub::DeviceReduce::Sum(nullptr, temp_bytes, values, static_cast<T*>(nullptr), items, stream),
        "cub::DeviceReduce::Sum (temp size)");
  check(cudaMalloc(&r.temp, temp_bytes), "cudaMalloc (CUB temp storage)");
  check(cudaMalloc(&r.out, sizeof(T)), "cudaMalloc (CUB result)");
  T* out = static_cast<T*>(r.out);
  const auto launch = [&] {
    check(cub::DeviceReduce::Sum(r.temp, temp_bytes, values, out, items, stream), "cub::DeviceReduce::Sum");
  };
  const Timing timing = time_kernel(Kokkos::Cuda(), cfg, launch);
  T sum{};
  check(cudaMemcpyAsync(&sum, out, sizeof(T), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (CUB result)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (CUB result)");
  return {"CUB DeviceReduce::Sum", timing, static_cast<double>(sum)};
}

LibraryResult cub_sum(const void* values, std::size_t n, bool is_float, const BenchConfig& cfg) {
  return is_float ? cub_sum_typed(static_cast<const float*>(values), n, cfg)
                  : cub_sum_typed(static_cast<const int*>(values), n, cfg);
}

const CudaBaselineRegistrar registrar{&cub_sum};

}  // namespace
}  // namespace kpz::reduce

#endif  // KOKKOS_ENABLE_CUDA
