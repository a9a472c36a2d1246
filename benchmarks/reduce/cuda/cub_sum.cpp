// CUB DeviceReduce::Sum, the library baseline of `kpuzzles bench reduce`, timed like every other
// row (kpz::time_kernel: CUDA events on the held Kokkos stream). Compiled only in CUDA builds
// (cmake/KpzPuzzles.cmake), with nvcc.
#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)

#include <cub/cub.cuh>

#include "../../cuda_support/cub_baseline.hpp"
#include "../library.hpp"
#include "kpz/library_baselines.hpp"

namespace kpz::reduce {
namespace {

template <class T>
LibraryResult cub_sum_typed(const T* values, std::size_t n, const BenchConfig& cfg) {
  using cub_baseline::check;
  const cub_baseline::DeviceBuffer out(sizeof(T));
  const int items = static_cast<int>(n);
  const Timing timing = cub_baseline::time_cub(
      cfg, "cub::DeviceReduce::Sum", [&](void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
        return cub::DeviceReduce::Sum(temp, temp_bytes, values, out.as<T>(), items, stream);
      });
  const cudaStream_t stream = Kokkos::Cuda().cuda_stream();
  T sum{};
  check(cudaMemcpyAsync(&sum, out.get(), sizeof(T), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (CUB result)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (CUB result)");
  return {"CUB DeviceReduce::Sum", timing, static_cast<double>(sum)};
}

LibraryResult cub_sum(const void* values, std::size_t n, bool is_float, const BenchConfig& cfg) {
  return is_float ? cub_sum_typed(static_cast<const float*>(values), n, cfg)
                  : cub_sum_typed(static_cast<const int*>(values), n, cfg);
}

}  // namespace

KPZ_REGISTER_LIBRARY_BASELINE(cub_sum, kCubSum, cub_sum);
}  // namespace kpz::reduce

#endif  // KOKKOS_ENABLE_CUDA
