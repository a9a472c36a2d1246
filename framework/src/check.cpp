#include "kpz/check.hpp"

#include <cstdio>
#include <string>
#include <utility>

#include "kpz/errors.hpp"
#include "kpz/spaces.hpp"

namespace kpz {

std::string format_number(double v) {
  if (std::isnan(v)) return "nan";
  char buf[32];
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.7g", v);
  return buf;
}

OwnerFn tile_owner(std::string_view space, std::size_t tile, int team_size) {
  const bool cyclic = team_range_is_cyclic(space);
  return [=](std::size_t index) {
    const std::size_t team = index / tile;
    const std::size_t local = index % tile;
    const std::size_t ts = static_cast<std::size_t>(team_size);
    const std::size_t chunk = (tile + ts - 1) / ts;
    const std::size_t member = cyclic ? local % ts : local / chunk;
    return "team " + std::to_string(team) + ", member " + std::to_string(member);
  };
}

void require_finite(const std::vector<float>& values, const std::string& what) {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i]))
      throw UsageError(what + " has " + format_number(values[i]) + " at index " + std::to_string(i) +
                       ": only finite values are allowed");
}

void compare_within(RunReport& report, const std::vector<float>& actual, const std::vector<double>& expected,
                    const std::vector<double>& bound, const OwnerFn& owner) {
  report.checked += expected.size();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double a = i < actual.size() ? static_cast<double>(actual[i]) : std::nan("");
    const bool ok = std::fabs(a - expected[i]) <= bound[i];  // false for NaN
    if (ok) continue;
    if (report.mismatches.size() < kMaxReportedMismatches) {
      report.mismatches.push_back({i, format_number(expected[i]),
                                   i >= actual.size() ? "missing"
                                   : std::isnan(a)    ? "never written (nan)"
                                                      : format_number(a),
                                   owner ? owner(i) : ""});
    }
    ++report.mismatch_count;
  }
  report.pass = report.mismatch_count == 0 && actual.size() == expected.size();
}

void add_finding(RunReport& report, std::size_t index, std::string expected, std::string actual, std::string owner) {
  if (report.mismatches.size() < kMaxReportedMismatches)
    report.mismatches.push_back({index, std::move(expected), std::move(actual), std::move(owner)});
  ++report.mismatch_count;
  report.pass = false;
}

}  // namespace kpz
