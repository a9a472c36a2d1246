// Kernel time on CUDA: CUDA events on the Kokkos stream, with the stream held busy while the
// host enqueues the timed work (nvbench's "blocking kernel"). Without the hold, the start event
// fires at once on an idle stream and the timing includes the host's launch overhead, which is
// larger for a Kokkos launch than for a CUB one: the comparison would measure the host, not the
// kernel. Every timed row on CUDA (copy, Kokkos kernels, CUB baselines) goes through here.
#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "kpz/bench.hpp"

namespace kpz {
namespace {

// Long enough for the host to record an event and enqueue a few Kokkos launches (tens of
// microseconds), short against the kernels timed (hundreds).
constexpr unsigned long long kHoldNanoseconds = 200'000;

__global__ void hold_stream(unsigned long long nanoseconds) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("bench timer (CUDA): ") + what + " failed: " + cudaGetErrorString(status));
}

struct Events {
  cudaEvent_t start = nullptr, stop = nullptr;
  Events() {
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~Events() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
};

}  // namespace

Timing time_cuda_events(const Kokkos::Cuda& space, const BenchConfig& cfg, const std::function<void()>& launch) {
  const cudaStream_t stream = space.cuda_stream();
  Events ev;
  for (int i = 0; i < cfg.warmup; ++i) launch();
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (warm-up)");
  std::vector<double> seconds;
  seconds.reserve(static_cast<std::size_t>(cfg.runs));
  for (int i = 0; i < cfg.runs; ++i) {
    hold_stream<<<1, 1, 0, stream>>>(kHoldNanoseconds);
    check(cudaGetLastError(), "hold_stream launch");
    check(cudaEventRecord(ev.start, stream), "cudaEventRecord");
    launch();
    check(cudaEventRecord(ev.stop, stream), "cudaEventRecord");
    check(cudaEventSynchronize(ev.stop), "cudaEventSynchronize");
    check(cudaGetLastError(), "the timed launch");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, ev.start, ev.stop), "cudaEventElapsedTime");
    seconds.push_back(1e-3 * static_cast<double>(ms));
  }
  return summarize(std::move(seconds));
}

std::size_t cuda_l2_bytes() {
  int device = 0, bytes = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device), "cudaDeviceGetAttribute(L2 size)");
  return static_cast<std::size_t>(bytes);
}

}  // namespace kpz

#endif  // KOKKOS_ENABLE_CUDA
