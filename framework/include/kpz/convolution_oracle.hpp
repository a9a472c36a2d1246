#pragma once
// The 1D convolution two puzzles compute (conv1d on one device, distributed --halo across ranks):
// its inputs, and its oracle in double precision on the host: out[i] = sum of a[i + j] * b[j] over
// j < K with i + j < N, and per element the rounding a float kernel may show (sum_error_bound).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/random.hpp"

namespace kpz {

struct ConvolutionInputs {
  std::vector<float> a, b;
};

// N values of a and K of b: the docs' worked example (a = 0..N-1, b = 0..K-1, exact in floats),
// or seeded values, asymmetric around 0 so that sign errors and dropped terms show.
inline ConvolutionInputs convolution_inputs(std::size_t n, std::size_t k, std::uint64_t seed, bool worked_example) {
  ConvolutionInputs in{.a = std::vector<float>(n), .b = std::vector<float>(k)};
  if (worked_example) {
    std::iota(in.a.begin(), in.a.end(), 0.0f);
    std::iota(in.b.begin(), in.b.end(), 0.0f);
    return in;
  }
  Rng rng(seed);
  in.a = random_floats(rng, n, -2.0, 3.0);
  in.b = random_floats(rng, k, -1.0, 1.5);
  return in;
}

inline void convolution_oracle(const std::vector<float>& a, const std::vector<float>& b, std::vector<double>& expected,
                               std::vector<double>& bound) {
  const std::size_t n = a.size(), k = b.size();
  expected.assign(n, 0.0);
  bound.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 0, abs_sum = 0;
    std::size_t terms = 0;
    for (std::size_t j = 0; j < k && i + j < n; ++j, ++terms) {
      const double p = static_cast<double>(a[i + j]) * b[j];
      sum += p;
      abs_sum += std::fabs(p);
    }
    expected[i] = sum;
    bound[i] = sum_error_bound(abs_sum, terms);
  }
}

}  // namespace kpz
