#pragma once
// segscan's inputs (inputs.cpp): the worked example, seeded segments and rows for --shape, seeded
// values, and --bad-input's broken descriptions.
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "kpz/random.hpp"
#include "segscan/segments.hpp"

namespace kpz::segscan {

// The worked example of the issue and the docs: segments {0,1,2} {3,4} {5,6,7,8} {9}.
extern const std::vector<std::int64_t> kWorkedIds;

// --shape's name: "random lengths 0..2L", "heavy tail", ...
const char* shape_name(std::int64_t shape);

// Segments of n elements in the given shape, mean length `mean` (--mean-length) where it
// applies; UsageError "--mean-length must be at least 1" below that.
segments::Offsets generate_offsets(std::int64_t shape, Rng& rng, std::int64_t n, std::int64_t mean);

// SpMV rows: lengths per row for the same shapes (shape 3: one row holds every nonzero).
segments::Offsets generate_rows(std::int64_t shape, Rng& rng, std::int64_t rows, std::int64_t mean);

// --bad-input K replaces a valid description by a broken one, to show (and test) the checks
// that guard descriptions supplied from outside: the framework's conversion throws UsageError.
[[noreturn]] void apply_bad_input(std::int64_t bad, segments::Offsets offsets, std::int64_t n, const std::string& what,
                                  const std::string& n_name);

template <class T>
std::vector<T> random_values(Rng& rng, std::size_t n, double lo, double hi, std::int64_t ilo, std::int64_t ihi) {
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>)
      x = static_cast<T>(rng.uniform(lo, hi));
    else
      x = static_cast<T>(rng.integer(ilo, ihi));
  }
  return v;
}

}  // namespace kpz::segscan
