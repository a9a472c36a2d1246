// segscan's oracle: segmented sums in double with the rounding bound of each.
#include "segscan/oracle.hpp"

#include <cmath>
#include <limits>

#include "kpz/errors.hpp"

namespace kpz::segscan {

void require_int_range(double abs_sum, const std::string& where) {
  if (abs_sum > static_cast<double>(std::numeric_limits<int>::max()))
    throw UsageError("integer sums of " + where + " could overflow int: use --int 0 or shorter segments");
}

Expected scan_oracle(const std::vector<double>& values, const segments::Offsets& offsets, bool exclusive, bool ints) {
  Expected e;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    double sum = 0, abs_sum = 0;
    std::size_t terms = 0;
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      const double v = values[static_cast<std::size_t>(i)];
      if (exclusive) e.add(sum, abs_sum, terms);
      sum += v;
      abs_sum += std::fabs(v);
      ++terms;
      if (!exclusive) e.add(sum, abs_sum, terms);
    }
    if (ints) require_int_range(abs_sum, "segment " + std::to_string(s));
  }
  return e;
}

Expected reduce_oracle(const std::vector<double>& products, const segments::Offsets& offsets, bool ints) {
  Expected e;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    double sum = 0, abs_sum = 0;
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      sum += products[static_cast<std::size_t>(i)];
      abs_sum += std::fabs(products[static_cast<std::size_t>(i)]);
    }
    if (ints) require_int_range(abs_sum, "segment " + std::to_string(s));
    e.add(sum, abs_sum, static_cast<std::size_t>(offsets[s + 1] - offsets[s]));
  }
  return e;
}

std::string segment_owner(const segments::Offsets& offsets, std::size_t s, const char* what) {
  return std::string(what) + " " + std::to_string(s) + " = [" + std::to_string(offsets[s]) + ", " +
         std::to_string(offsets[s + 1]) + ")";
}

OwnerFn merge_path_owner(const segments::Offsets& offsets, int tile_items, const char* what) {
  return [=](std::size_t s) {
    const std::int64_t item = static_cast<std::int64_t>(s) + offsets[s + 1];
    return segment_owner(offsets, s, what) + ", merge-path team " + std::to_string(item / tile_items);
  };
}

}  // namespace kpz::segscan
