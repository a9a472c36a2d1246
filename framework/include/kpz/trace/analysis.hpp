#pragma once
// What a Recording says: races, reads of scratch nobody wrote, and the budget metrics; and how
// it is shown (text diagrams for the terminal, SVG for the docs). Compiled only with KPZ_TRACE.
#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kpz/trace/runtime.hpp"

namespace kpz::trace {

enum class Metric {
  global_reads,                    // reads (and atomics) of global views, whole run
  global_reads_per_cell_per_team,  // most reads of one global element by one team (flat kernels: one iteration)
  global_writes_per_cell,          // most writes of one global element (all teams)
  global_reads_per_output,         // global reads / distinct global elements written
  scratch_reads_per_team,          // most scratch reads by one team
  scratch_writes_per_team,         // most scratch writes by one team
  barriers_per_team,               // most team_barrier() calls by one team
  collectives_per_team,            // most other synchronisations (team reductions, scans, broadcasts)
};
inline constexpr std::size_t kMetricCount = 8;
const char* metric_title(Metric m);  // "global reads", ... (what the table prints)
// From "global-reads", ... (what puzzles declare budgets with).
std::optional<Metric> metric_from_id(const std::string& id);

// One access as the race check sees it.
struct Actor {
  std::int32_t league, rank, lane, epoch, vepoch;
  Access kind;
  std::int32_t loc;
  bool every_lane = false;  // Event::every_lane
};

// Two accesses to one element, at least one a plain write, that nothing orders: different teams
// (global memory), or different members of a team in the same barrier epoch, or different lanes
// of a member in the same vector loop.
struct Race {
  std::int32_t view;
  std::int64_t offset;
  std::int32_t launch;
  Actor first, second;
};

// A read of a scratch element that no member wrote before it (in an earlier epoch, or earlier
// in the same member) and that is not a race either: the value is whatever scratch held.
struct UninitializedRead {
  std::int32_t view;
  std::int64_t offset;
  std::int32_t launch;
  Actor reader;
};

struct Analysis {
  std::vector<Race> races;                       // one per element, the first conflicting pair
  std::vector<UninitializedRead> uninitialized;  // one per element
  std::array<double, kMetricCount> metrics{};
};

Analysis analyze(const Recording& rec);

// "s_a[3]", "m(1,2)".
std::string cell_name(const Recording& rec, std::int32_t view, std::int64_t offset);
// "exercises/conv1d/conv1d.cpp:22".
std::string location_name(const Recording& rec, std::int32_t loc);

struct DiagramOptions {
  int max_teams = 3;  // teams drawn (the race check and budgets always cover all of them)
  int width = 64;     // cells per line before wrapping
  // Lines of cells an SVG draws per barrier epoch of a team; the rest is one line saying what was
  // left out (the race check and the budgets cover every element). Keeps a committed diagram small
  // enough to review (docs/tracing.md, "Diagrams in the book").
  int max_lines = 8;
  bool color = false;  // ANSI colours in the terminal
};

// Per team, per barrier epoch: which member read / wrote which cell of every view.
std::string text_diagram(const Recording& rec, const Analysis& a, const DiagramOptions& o);
// The races and uninitialised reads, grouped by view, epoch and source lines. Groups whose key is
// in `seen` are skipped (and new keys added), so several runs can share one report.
std::string problems_text(const Recording& rec, const Analysis& a, std::size_t max_groups = 6,
                          std::set<std::string>* seen = nullptr);
// The same diagram as an SVG document.
std::string svg_diagram(const Recording& rec, const Analysis& a, const std::string& title, const DiagramOptions& o);

}  // namespace kpz::trace
