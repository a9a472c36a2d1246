// The library baseline of `kpuzzles bench bin-extract --extract`: CUB DeviceSelect::If on the
// same input and predicate, timed like the Kokkos rows (kpz::time_kernel: CUDA events on a held stream, kernel time only).
// Compiled only in CUDA builds (cmake/KpzPuzzles.cmake); registered by name so that the
// benchmark, which every build compiles, can find it.
#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)

#include <cuda_runtime.h>
#include <cub/cub.cuh>

#include <stdexcept>
#include <string>
#include <vector>

#include "bin-extract/bin-extract.hpp"
#include "kpz/bench.hpp"
#include "kpz/library_baselines.hpp"

namespace kpz::bin_extract {
namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string("CUB baseline: ") + what + ": " + cudaGetErrorString(err));
}

// Device buffers released on every path out (exceptions included).
struct DeviceBuffer {
  void* ptr = nullptr;
  explicit DeviceBuffer(std::size_t bytes) { check(cudaMalloc(&ptr, bytes ? bytes : 1), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

ExternalTiming cub_select_if(const std::vector<float>& in, int num_bins, int target_bin, const BenchConfig& cfg,
                             std::vector<float>& selected) {
  const int n = static_cast<int>(in.size());
  DeviceBuffer d_in(in.size() * sizeof(float)), d_out(in.size() * sizeof(float)), d_count(sizeof(int));
  const auto* src = static_cast<const float*>(d_in.ptr);
  auto* dst = static_cast<float*>(d_out.ptr);
  auto* count = static_cast<int*>(d_count.ptr);
  check(cudaMemcpy(d_in.ptr, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice), "copy input");
  const InBin pred{num_bins, target_bin};
  std::size_t temp_bytes = 0;
  check(cub::DeviceSelect::If(nullptr, temp_bytes, src, dst, count, n, pred), "DeviceSelect::If (size query)");
  DeviceBuffer temp(temp_bytes);
  const cudaStream_t stream = Kokkos::Cuda().cuda_stream();  // the stream time_kernel holds and times
  auto run = [&] {
    check(cub::DeviceSelect::If(temp.ptr, temp_bytes, src, dst, count, n, pred, stream), "DeviceSelect::If");
  };
  const Timing timing = time_kernel(Kokkos::Cuda(), cfg, run);
  check(cudaGetLastError(), "kernel launch");
  int h_count = 0;
  check(cudaMemcpy(&h_count, count, sizeof(int), cudaMemcpyDeviceToHost), "copy count");
  selected.resize(static_cast<std::size_t>(h_count));
  check(cudaMemcpy(selected.data(), dst, selected.size() * sizeof(float), cudaMemcpyDeviceToHost), "copy output");
  return {"CUB DeviceSelect::If", timing, extract_bytes(in.size(), selected.size())};
}

}  // namespace

KPZ_REGISTER_LIBRARY_BASELINE(cub_select_if, kCubSelectIf, cub_select_if);

}  // namespace kpz::bin_extract

#endif  // KOKKOS_ENABLE_CUDA
