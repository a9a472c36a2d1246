#pragma once
// The step tables of the one-team scans (step_tables.cpp): a host replay, in double, of what each
// step of the Hillis-Steele and Blelloch kernels should leave in scratch (`--steps`).
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kpz::segscan {

struct HostPair {
  double v;
  int f;
};

// Rows of a step table: a label, then "v" and "f" lines aligned in columns.
struct Table {
  std::vector<std::pair<std::string, std::vector<HostPair>>> rows;
  std::vector<std::string> lines(std::size_t n) const;
};

// Step d: element i takes (v, f)[i - d] (+) (v, f)[i].
Table hillis_steele_table(const std::vector<double>& values, const std::vector<std::uint8_t>& flags);
// The up-sweep and down-sweep over the next power of two (leaves past N hold (0, 0)).
Table blelloch_table(const std::vector<double>& values, const std::vector<std::uint8_t>& flags);

}  // namespace kpz::segscan
