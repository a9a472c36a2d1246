// The library baseline of `kpuzzles bench segscan` in CUDA builds: CUB's
// DeviceSegmentedReduce::Sum over float values with int CSR offsets, timed with CUDA events on
// its own stream (warm-up runs first, median of the timed runs). Every CUDA and CUB return code
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

// Owns the stream, the events and CUB's temporary storage; frees them on every exit path.
struct CubResources {
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  void* temp = nullptr;
  ~CubResources() {
    if (temp) cudaFree(temp);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (stream) cudaStreamDestroy(stream);
  }
};

Timing cub_segmented_sum(const LibraryArgs& args) {
  const auto* values = static_cast<const float*>(args.in.at(0));
  const auto* offsets = static_cast<const int*>(args.in.at(1));
  auto* sums = static_cast<float*>(args.out.at(0));
  const int segments = static_cast<int>(args.sizes.at(1));
  CubResources r;
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  check(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  check(cudaEventCreate(&r.start), "cudaEventCreate");
  check(cudaEventCreate(&r.stop), "cudaEventCreate");
  std::size_t temp_bytes = 0;
  check(cub::DeviceSegmentedReduce::Sum(nullptr, temp_bytes, values, sums, segments, offsets, offsets + 1, r.stream),
        "cub::DeviceSegmentedReduce::Sum (temporary storage size)");
  check(cudaMalloc(&r.temp, temp_bytes > 0 ? temp_bytes : 1), "cudaMalloc (CUB temporary storage)");
  const auto launch = [&] {
    check(cub::DeviceSegmentedReduce::Sum(r.temp, temp_bytes, values, sums, segments, offsets, offsets + 1, r.stream),
          "cub::DeviceSegmentedReduce::Sum");
  };
  for (int i = 0; i < args.cfg.warmup; ++i) launch();
  check(cudaStreamSynchronize(r.stream), "cudaStreamSynchronize");
  std::vector<double> seconds;
  for (int i = 0; i < args.cfg.runs; ++i) {
    check(cudaEventRecord(r.start, r.stream), "cudaEventRecord");
    launch();
    check(cudaEventRecord(r.stop, r.stream), "cudaEventRecord");
    check(cudaEventSynchronize(r.stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, r.start, r.stop), "cudaEventElapsedTime");
    seconds.push_back(1e-3 * ms);
  }
  check(cudaGetLastError(), "CUB segmented reduce");
  return summarize(std::move(seconds));
}

}  // namespace

KPZ_REGISTER_LIBRARY_BASELINE(cub_segmented_sum, "cub::DeviceSegmentedReduce::Sum<float>", cub_segmented_sum);

}  // namespace kpz::segscan
#endif  // KOKKOS_ENABLE_CUDA
