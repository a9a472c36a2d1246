#include "kpz/bench.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <string>

namespace kpz {

Timing summarize(std::vector<double> seconds) {
  Timing t;
  t.runs = static_cast<int>(seconds.size());
  if (seconds.empty()) return t;
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  t.median_s = n % 2 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
  t.min_s = seconds.front();
  t.max_s = seconds.back();
  return t;
}

BenchRegistry& BenchRegistry::instance() {
  static BenchRegistry registry;
  return registry;
}

const BenchSpec* BenchRegistry::find(std::string_view puzzle) const {
  for (const auto& b : benches_)
    if (b.puzzle == puzzle) return &b;
  return nullptr;
}

namespace {

double gbps(const BenchRow& r) {
  return r.timing.median_s > 0 ? r.bytes / r.timing.median_s / 1e9 : 0;
}

// The copy a row is compared with: the first copy row (deep_copy) of its group, else the first.
const BenchRow* copy_row(const BenchReport& report, const std::string& group) {
  const BenchRow* first = nullptr;
  for (const auto& r : report.rows) {
    if (r.kind != "copy") continue;
    if (r.group == group) return &r;
    if (!first) first = &r;
  }
  return first;
}

// Names of the rows' extra columns, in order of first appearance.
std::vector<std::string> extra_columns(const BenchReport& report) {
  std::vector<std::string> names;
  for (const auto& r : report.rows)
    for (const auto& [name, value] : r.extra)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  return names;
}

// The row every puzzle row of a group is compared with: a library row if present, else builtin.
const BenchRow* baseline_row(const BenchReport& report, const std::string& group) {
  const BenchRow* builtin = nullptr;
  for (const auto& r : report.rows) {
    if (r.group != group) continue;
    if (r.kind == "library") return &r;
    if (r.kind == "builtin" && !builtin) builtin = &r;
  }
  return builtin;
}

// A row whose bytes the last-level cache holds may time the cache, not memory.
bool fits_in_cache(const BenchReport& report, const BenchRow& r) {
  return report.cache_bytes > 0 && r.bytes <= static_cast<double>(report.cache_bytes);
}

std::string mib(std::size_t bytes) {
  return std::to_string((bytes + (1u << 19)) >> 20) + " MiB";
}

// The largest cache Linux lists for CPU 0 (/sys/devices/system/cpu/cpu0/cache/index*/size:
// "32768K"); 0 elsewhere.
std::size_t host_last_level_cache_bytes() {
  std::size_t largest = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
    std::string text;
    if (!(in >> text) || text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) continue;
    std::size_t value = std::stoull(text);
    const char unit = text.back();
    value *= unit == 'K' ? 1024 : unit == 'M' ? 1024 * 1024 : 1;
    largest = std::max(largest, value);
  }
  return largest;
}

}  // namespace

std::size_t last_level_cache_bytes(const std::string& space) {
#if defined(KOKKOS_ENABLE_CUDA)
  if (space == "cuda") return cuda_l2_bytes();
#endif
  return space == "cuda" ? 0 : host_last_level_cache_bytes();
}

void print_bench(std::ostream& os, const BenchReport& report) {
  os << "bench " << report.puzzle << " on " << report.space << " " << report.config.dump() << '\n';
  const std::vector<std::string> extras = extra_columns(report);
  char line[256];
  std::snprintf(line, sizeof line, "%-52s %11s %9s %9s %10s", "kernel", "median ms", "GB/s", "% copy", "vs base");
  os << line;
  for (const auto& name : extras) {
    std::snprintf(line, sizeof line, " %10s", (name + " x").c_str());
    os << line;
  }
  os << '\n';
  for (const auto& r : report.rows) {
    const BenchRow* copy = copy_row(report, r.group);
    const BenchRow* base = baseline_row(report, r.group);
    char pct[32] = "", ratio[32] = "";  // blank where the row's group has no copy or no baseline
    if (copy) std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * gbps(r) / gbps(*copy));
    if (base && base != &r && r.kind == "puzzle") std::snprintf(ratio, sizeof ratio, "%.2fx", gbps(r) / gbps(*base));
    std::snprintf(line, sizeof line, "%-52s %11.4f %9.1f %9s %10s", r.name.c_str(), r.timing.median_s * 1e3, gbps(r),
                  pct, ratio);
    os << line;
    for (const auto& name : extras) {
      char cell[32] = "";
      for (const auto& [n, v] : r.extra)
        if (n == name) std::snprintf(cell, sizeof cell, "%.2fx", v);
      std::snprintf(line, sizeof line, " %10s", cell);
      os << line;
    }
    os << '\n';
  }
  for (const auto& n : report.notes) os << n << '\n';
  if (report.cache_bytes == 0) return;
  std::vector<std::string> cached;
  for (const auto& r : report.rows)
    if (fits_in_cache(report, r)) cached.push_back(r.name);
  os << "last-level cache " << mib(report.cache_bytes) << ": "
     << (cached.empty() ? std::string("every row moves more bytes than it holds (memory-bound as measured)")
                        : std::to_string(cached.size()) + " of " + std::to_string(report.rows.size()) +
                              " rows move no more bytes than it holds, so they may time the cache: " + cached.front() +
                              (cached.size() > 1 ? ", ..." : ""))
     << '\n';
}

Json bench_json(const BenchReport& report) {
  Json j = Json::object();
  j.set("puzzle", report.puzzle);
  j.set("space", report.space);
  j.set("config", report.config);
  j.set("cache_bytes", report.cache_bytes);
  Json rows = Json::array();
  for (const auto& r : report.rows) {
    const BenchRow* copy = copy_row(report, r.group);
    Json e = Json::object();
    e.set("name", r.name);
    e.set("kind", r.kind);
    e.set("group", r.group);
    e.set("bytes", r.bytes);
    e.set("median_ms", r.timing.median_s * 1e3);
    e.set("min_ms", r.timing.min_s * 1e3);
    e.set("max_ms", r.timing.max_s * 1e3);
    e.set("runs", r.timing.runs);
    e.set("gbps", gbps(r));
    e.set("fits_in_cache", fits_in_cache(report, r));
    if (copy) e.set("fraction_of_copy", gbps(r) / gbps(*copy));
    const BenchRow* base = baseline_row(report, r.group);
    if (base && base != &r) {
      e.set("baseline", base->name);
      e.set("ratio_to_baseline", gbps(r) / gbps(*base));
    }
    if (r.portable) e.set("portable", true);
    if (!r.extra.empty()) {
      Json extra = Json::object();
      for (const auto& [name, value] : r.extra) extra.set(name, value);
      e.set("extra", std::move(extra));
    }
    rows.push(std::move(e));
  }
  j.set("rows", std::move(rows));
  Json notes = Json::array();
  for (const auto& n : report.notes) notes.push(n);
  j.set("notes", std::move(notes));
  return j;
}

}  // namespace kpz
