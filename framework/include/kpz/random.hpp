#pragma once
// Seeded input generation on the host. Kokkos::Random differs between backends, and the
// standard <random> distributions differ between standard libraries; this generator gives
// the same inputs for the same seed everywhere, so a failing case can be replayed anywhere.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kpz {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}

  std::uint64_t next() {  // splitmix64
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [lo, hi].
  std::int64_t integer(std::int64_t lo, std::int64_t hi) {
    const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<std::int64_t>(next() % span);
  }

 private:
  std::uint64_t state_;
};

// `count` floats uniform in [lo, hi) from `seed`: a puzzle's random inputs (asymmetric bounds
// around 0 make sign errors and dropped terms show).
// The same, drawn from `rng` (a case with several inputs from one seed).
inline std::vector<float> random_floats(Rng& rng, std::size_t count, double lo, double hi) {
  std::vector<float> v(count);
  for (auto& x : v) x = static_cast<float>(rng.uniform(lo, hi));
  return v;
}
inline std::vector<float> random_floats(std::uint64_t seed, std::size_t count, double lo, double hi) {
  Rng rng(seed);
  return random_floats(rng, count, lo, hi);
}

}  // namespace kpz
