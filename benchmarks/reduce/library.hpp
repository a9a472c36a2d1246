#pragma once
// Hooks between `kpuzzles bench reduce` (compiled in every build) and the plain-CUDA code in
// benchmarks/reduce/cuda/ (compiled only in CUDA builds): a small registry of library baselines
// (CUB DeviceReduce::Sum) and a CUDA-event timer. In a build without CUDA both stay empty and
// the benchmark times with kpz::time_kernel.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "kpz/bench.hpp"

namespace kpz::reduce {

struct LibraryResult {
  std::string name;
  Timing timing;
  double sum;  // the library's answer, checked before the row is reported
};

// A library sum over `n` values at the CUDA device pointer `values` (ints, or floats when
// is_float), timed by the library side with CUDA events: warm-up, then the median of cfg.runs.
using LibrarySum = LibraryResult (*)(const void* values, std::size_t n, bool is_float, const BenchConfig& cfg);

// Times `launch` (which only enqueues work on the default Kokkos CUDA stream) with CUDA events.
using EventTimer = Timing (*)(const std::function<void()>& launch, const BenchConfig& cfg);

struct CudaBaselines {
  std::vector<LibrarySum> sums;
  EventTimer timer = nullptr;
};

// Filled by static registrars in benchmarks/reduce/cuda/*.cpp before main() runs.
CudaBaselines& cuda_baselines();

struct CudaBaselineRegistrar {
  CudaBaselineRegistrar(LibrarySum sum, EventTimer timer) {
    if (sum) cuda_baselines().sums.push_back(sum);
    if (timer) cuda_baselines().timer = timer;
  }
};

}  // namespace kpz::reduce
