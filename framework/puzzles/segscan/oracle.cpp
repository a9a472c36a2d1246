// segscan's oracle: segmented sums in double with the rounding bound of each, and the step
// tables of the one-team scans replayed on the host.
#include "segscan/spec.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kpz/check.hpp"
#include "kpz/errors.hpp"
#include "segscan/segscan.hpp"

// segscan's oracle: segmented sums in double with the rounding bound of each.
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

// The step tables of the one-team scans, replayed on the host.
namespace kpz::segscan {

namespace {

HostPair join(const HostPair& a, const HostPair& b) {
  return {b.f ? b.v : a.v + b.v, a.f | b.f};
}

std::string cell(const std::string& s, std::size_t w) {
  return std::string(w > s.size() ? w - s.size() : 0, ' ') + s;
}

std::vector<HostPair> host_pairs(const std::vector<double>& values, const std::vector<std::uint8_t>& flags) {
  std::vector<HostPair> p(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) p[i] = {values[i], flags[i]};
  return p;
}

}  // namespace

std::vector<std::string> Table::lines(std::size_t n) const {
  std::size_t w = std::to_string(n).size() + 1, label = 8;
  for (const auto& [name, row] : rows) {
    label = std::max(label, name.size() + 1);
    for (const auto& p : row) w = std::max(w, format_number(p.v).size() + 1);
  }
  std::vector<std::string> out;
  std::string head = cell("i", label + 2) + " ";
  for (std::size_t i = 0; i < n; ++i) head += cell(std::to_string(i), w);
  out.push_back(head);
  for (const auto& [name, row] : rows) {
    std::string v = name + std::string(label - name.size(), ' ') + " v ", f = std::string(label, ' ') + " f ";
    for (std::size_t i = 0; i < row.size(); ++i) {
      v += cell(format_number(row[i].v), w);
      f += cell(std::to_string(row[i].f), w);
    }
    out.push_back(v);
    out.push_back(f);
  }
  return out;
}

Table hillis_steele_table(const std::vector<double>& values, const std::vector<std::uint8_t>& flags) {
  Table t;
  std::vector<HostPair> cur = host_pairs(values, flags);
  t.rows.push_back({"input", cur});
  for (std::size_t d = 1; d < cur.size(); d *= 2) {
    std::vector<HostPair> next = cur;
    for (std::size_t i = d; i < cur.size(); ++i) next[i] = join(cur[i - d], cur[i]);
    cur = next;
    t.rows.push_back({"d = " + std::to_string(d), cur});
  }
  return t;
}

Table blelloch_table(const std::vector<double>& values, const std::vector<std::uint8_t>& flags) {
  const std::size_t p = static_cast<std::size_t>(next_pow2(static_cast<int>(values.size())));
  std::vector<HostPair> a = host_pairs(values, flags);
  a.resize(p, HostPair{0, 0});
  Table t;
  t.rows.push_back({"leaves", a});
  for (std::size_t d = 1; d < p; d *= 2) {
    for (std::size_t right = 2 * d - 1; right < p; right += 2 * d) a[right] = join(a[right - d], a[right]);
    t.rows.push_back({"up d = " + std::to_string(d), a});
  }
  a[p - 1] = {0, 0};
  t.rows.push_back({"root := 0", a});
  for (std::size_t d = p / 2; d >= 1; d /= 2) {
    for (std::size_t right = 2 * d - 1; right < p; right += 2 * d) {
      const HostPair left = a[right - d];
      a[right - d] = a[right];
      a[right] = join(a[right], left);
    }
    t.rows.push_back({"down d = " + std::to_string(d), a});
  }
  return t;
}

}  // namespace kpz::segscan
