// CUB DeviceReduce::Sum, the library baseline of `kpuzzles bench reduce`, and the CUDA-event
// timer the benchmark uses for every row on CUDA (so that CUB and the Kokkos kernels are timed
// the same way). Compiled only in CUDA builds (cmake/KpzPuzzles.cmake), with nvcc.
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

// Device memory and events released on every path out (also when a check throws).
struct Resources {
  void* temp = nullptr;
  void* out = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  ~Resources() {
    if (temp) cudaFree(temp);
    if (out) cudaFree(out);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
  }
};

cudaStream_t kokkos_stream() { return Kokkos::Cuda().cuda_stream(); }

// Warm-up, then cfg.runs timed launches, each between two events on the Kokkos stream.
template <class Launch>
Timing time_events(Resources& r, const BenchConfig& cfg, const Launch& launch) {
  const cudaStream_t stream = kokkos_stream();
  check(cudaEventCreate(&r.start), "cudaEventCreate");
  check(cudaEventCreate(&r.stop), "cudaEventCreate");
  for (int i = 0; i < cfg.warmup; ++i) launch();
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (warm-up)");
  std::vector<double> seconds;
  seconds.reserve(static_cast<std::size_t>(cfg.runs));
  for (int i = 0; i < cfg.runs; ++i) {
    check(cudaEventRecord(r.start, stream), "cudaEventRecord");
    launch();
    check(cudaEventRecord(r.stop, stream), "cudaEventRecord");
    check(cudaEventSynchronize(r.stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, r.start, r.stop), "cudaEventElapsedTime");
    seconds.push_back(1e-3 * static_cast<double>(ms));
  }
  return summarize(std::move(seconds));
}

template <class T>
LibraryResult cub_sum_typed(const T* values, std::size_t n, const BenchConfig& cfg) {
  Resources r;
  const cudaStream_t stream = kokkos_stream();
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
  const Timing timing = time_events(r, cfg, launch);
  T sum{};
  check(cudaMemcpyAsync(&sum, out, sizeof(T), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (CUB result)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (CUB result)");
  return {"CUB DeviceReduce::Sum", timing, static_cast<double>(sum)};
}

LibraryResult cub_sum(const void* values, std::size_t n, bool is_float, const BenchConfig& cfg) {
  return is_float ? cub_sum_typed(static_cast<const float*>(values), n, cfg)
                  : cub_sum_typed(static_cast<const int*>(values), n, cfg);
}

Timing event_timer(const std::function<void()>& launch, const BenchConfig& cfg) {
  Resources r;
  return time_events(r, cfg, launch);
}

const CudaBaselineRegistrar registrar{&cub_sum, &event_timer};

}  // namespace
}  // namespace kpz::reduce

#endif  // KOKKOS_ENABLE_CUDA
