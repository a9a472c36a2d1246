#include "kpz/bench.hpp"

#include <cstdio>
#include <ostream>

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

LibraryBaselines& LibraryBaselines::instance() {
  static LibraryBaselines baselines;
  return baselines;
}

const LibraryBaselines::Entry* LibraryBaselines::find(std::string_view name) const {
  for (const auto& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

namespace {

double gbps(const BenchRow& r) { return r.timing.median_s > 0 ? r.bytes / r.timing.median_s / 1e9 : 0; }

const BenchRow* copy_row(const BenchReport& report) {
  for (const auto& r : report.rows)
    if (r.kind == "copy") return &r;  // the first copy row is deep_copy
  return nullptr;
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

}  // namespace

void print_bench(std::ostream& os, const BenchReport& report) {
  os << "bench " << report.puzzle << " on " << report.space << " " << report.config.dump() << '\n';
  const BenchRow* copy = copy_row(report);
  char line[256];
  std::snprintf(line, sizeof line, "%-52s %11s %9s %9s %10s\n", "kernel", "median ms", "GB/s",
                "% copy", "vs base");
  os << line;
  for (const auto& r : report.rows) {
    const BenchRow* base = baseline_row(report, r.group);
    const double pct = copy ? 100.0 * gbps(r) / gbps(*copy) : 0;
    char ratio[32] = "";
    if (base && base != &r && r.kind == "puzzle")
      std::snprintf(ratio, sizeof ratio, "%.2fx", gbps(r) / gbps(*base));
    std::snprintf(line, sizeof line, "%-52s %11.4f %9.1f %8.1f%% %10s\n", r.name.c_str(),
                  r.timing.median_s * 1e3, gbps(r), pct, ratio);
    os << line;
  }
  for (const auto& n : report.notes) os << n << '\n';
}

Json bench_json(const BenchReport& report) {
  Json j = Json::object();
  j.set("puzzle", report.puzzle);
  j.set("space", report.space);
  j.set("config", report.config);
  const BenchRow* copy = copy_row(report);
  Json rows = Json::array();
  for (const auto& r : report.rows) {
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
    if (copy) e.set("fraction_of_copy", gbps(r) / gbps(*copy));
    const BenchRow* base = baseline_row(report, r.group);
    if (base && base != &r) {
      e.set("baseline", base->name);
      e.set("ratio_to_baseline", gbps(r) / gbps(*base));
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
