#pragma once
// The 1D convolution two puzzles compute (conv1d on one device, distributed --halo across ranks),
// in double precision on the host: out[i] = sum of a[i + j] * b[j] over j < K with i + j < N, and
// per element the rounding a float kernel may show (sum_error_bound).
#include <cmath>
#include <cstddef>
#include <vector>

#include "kpz/check.hpp"

namespace kpz {

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
