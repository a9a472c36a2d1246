// bin-extract's inputs and host oracle: values drawn into chosen bins, the host boundary (bins of
// NaN and of infinities are not defined), a stable counting sort, and the bins' ranges as text.
#include <cstdio>
#include <string>
#include <vector>

#include "bin-extract/bin-extract.hpp"
#include "bin-extract/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"

namespace kpz::bin_extract {

namespace {

// A random value whose bin is b (drawn uniformly inside the bin; float rounding at the upper
// edge is caught by checking bin_of, the definition).
float value_in_bin(Rng& rng, int b, int num_bins) {
  for (int tries = 0; tries < 64; ++tries) {
    const float x = static_cast<float>((b + rng.uniform()) / num_bins);
    if (bin_of(x, num_bins) == b) return x;
  }
  return static_cast<float>((b + 0.5) / num_bins);
}

}  // namespace

std::vector<float> make_input(std::size_t n, int num_bins, int bin, int pattern, std::uint64_t seed) {
  std::vector<float> in(n);
  Rng rng(seed);
  const auto edge = [&](std::int64_t k) { return static_cast<float>(k) / static_cast<float>(num_bins); };
  for (std::size_t i = 0; i < n; ++i) {
    float& x = in[i];
    switch (pattern) {
      case kUniform:
        x = static_cast<float>(rng.uniform());
        break;
      case kOneBin:
        x = value_in_bin(rng, bin, num_bins);
        break;
      case kEdges: {
        const std::int64_t k = rng.integer(0, num_bins + 3);
        x = k <= num_bins ? edge(k) : k == num_bins + 1 ? 0.25f : k == num_bins + 2 ? 0.5f : -0.0f;
        break;
      }
      case kOutside: {
        const double r = rng.uniform();
        x = r < 0.45  ? static_cast<float>(rng.uniform(-5.0, 0.0))
            : r < 0.9 ? static_cast<float>(rng.uniform(1.0, 5.0))
                      : 1.0f;
        break;
      }
      case kDescending: {
        // Random bins; inside every bin the values decrease along the input, so that an
        // output sorted by value differs from the stable one.
        const int b = static_cast<int>(rng.integer(0, num_bins - 1));
        const double frac = 0.999 * (1.0 - (static_cast<double>(i) + 0.5) / static_cast<double>(n));
        x = static_cast<float>((b + frac) / num_bins);
        if (bin_of(x, num_bins) != b) x = value_in_bin(rng, b, num_bins);
        break;
      }
      default: {  // kMixed (and kWithNan, which then plants a NaN)
        const double r = rng.uniform();
        if (r < 0.08)
          x = edge(rng.integer(0, num_bins));
        else if (r < 0.10)
          x = (rng.next() & 1) ? -0.0f : 0.0f;
        else if (r < 0.16)
          x = static_cast<float>(rng.uniform(-2.0, 0.0));
        else if (r < 0.22)
          x = static_cast<float>(rng.uniform(1.0, 3.0));
        else
          x = static_cast<float>(rng.uniform());
      }
    }
  }
  if (pattern == kWithNan && n > 0) in[n / 2] = std::numeric_limits<float>::quiet_NaN();
  return in;
}

Oracle host_counting_sort(const std::vector<float>& in, int num_bins) {
  Oracle o;
  o.bins.resize(in.size());
  o.offsets.assign(static_cast<std::size_t>(num_bins) + 1, 0);
  for (std::size_t i = 0; i < in.size(); ++i) {
    o.bins[i] = bin_of(in[i], num_bins);
    ++o.offsets[static_cast<std::size_t>(o.bins[i]) + 1];
  }
  for (int b = 0; b < num_bins; ++b) o.offsets[b + 1] += o.offsets[b];
  o.order.resize(in.size());
  std::vector<std::size_t> next(o.offsets.begin(), o.offsets.end() - 1);
  for (std::size_t i = 0; i < in.size(); ++i) o.order[next[o.bins[i]]++] = i;
  return o;
}

std::string bin_range(int b, int num_bins) {
  char lo[32], hi[32];
  std::snprintf(lo, sizeof lo, "%.6g", static_cast<double>(b) / num_bins);
  std::snprintf(hi, sizeof hi, "%.6g", static_cast<double>(b + 1) / num_bins);
  return std::string("[") + (b == 0 ? "-inf" : lo) + ", " + (b == num_bins - 1 ? "+inf" : hi) + ")";
}

void validate_input(const std::vector<float>& values) {
  require_finite(values, "bin-extract input");
}

}  // namespace kpz::bin_extract
