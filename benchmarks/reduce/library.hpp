#pragma once
// The library baseline of `kpuzzles bench reduce` written in plain CUDA (benchmarks/reduce/cuda/,
// compiled only in CUDA builds): its function type and the name it is registered under.
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
using LibrarySumFn = LibraryResult(const void* values, std::size_t n, bool is_float, const BenchConfig& cfg);

// Registered in kpz::LibraryBaselines (kpz/library_baselines.hpp) under this name by
// benchmarks/reduce/cuda/cub_sum.cpp, in CUDA builds only.
inline constexpr const char* kCubSum = "reduce: CUB DeviceReduce::Sum";

}  // namespace kpz::reduce
