#pragma once
// What the CUB library baselines (benchmarks/<puzzle>/cuda/*.cpp, compiled only in CUDA builds)
// share: CUDA errors as exceptions, device buffers freed on every way out (a check that throws
// included), and a CUB device algorithm timed like every Kokkos row (kpz::time_kernel: CUDA
// events on the held Kokkos stream, kernel time only).
#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "kpz/bench.hpp"

namespace kpz::cub_baseline {

inline void check(cudaError_t status, const std::string& what) {
  if (status != cudaSuccess) throw std::runtime_error("CUB baseline: " + what + ": " + cudaGetErrorString(status));
}

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) { check(cudaMalloc(&ptr_, bytes > 0 ? bytes : 1), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return ptr_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }

 private:
  void* ptr_ = nullptr;
};

// Times `call(temp, temp_bytes, stream)`, a CUB device algorithm returning its cudaError_t. CUB's
// protocol: a first call without storage (temp == nullptr) only sets temp_bytes; the timed calls
// then run on the stream that time_kernel holds. `what` names the algorithm in errors.
template <class Call>
Timing time_cub(const BenchConfig& cfg, const std::string& what, const Call& call) {
  const cudaStream_t stream = Kokkos::Cuda().cuda_stream();
  std::size_t temp_bytes = 0;
  check(call(nullptr, temp_bytes, stream), what + " (temporary storage size)");
  DeviceBuffer temp(temp_bytes);
  const Timing timing = time_kernel(Kokkos::Cuda(), cfg, [&] { check(call(temp.get(), temp_bytes, stream), what); });
  check(cudaGetLastError(), what + " (launch)");
  return timing;
}

}  // namespace kpz::cub_baseline

#endif  // KOKKOS_ENABLE_CUDA
