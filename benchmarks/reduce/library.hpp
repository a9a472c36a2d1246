#pragma once
// Hooks between `kpuzzles bench reduce` (compiled in every build) and the plain-CUDA code in
// benchmarks/reduce/cuda/ (compiled only in CUDA builds): a small registry of library baselines
// (CUB DeviceReduce::Sum). In a build without CUDA it stays empty.
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

struct CudaBaselines {
  std::vector<LibrarySum> sums;
};

// Filled by static registrars in benchmarks/reduce/cuda/*.cpp before main() runs.
CudaBaselines& cuda_baselines();

struct CudaBaselineRegistrar {
  explicit CudaBaselineRegistrar(LibrarySum sum) { cuda_baselines().sums.push_back(sum); }
};

}  // namespace kpz::reduce
