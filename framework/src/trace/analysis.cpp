// The race check and the budget metrics of a traced run.
#include "kpz/trace/analysis.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "diagram_rows.hpp"
#include "kpz/trace/source.hpp"

namespace kpz::trace {

namespace {

using rows::reads;
using rows::writes;

struct MetricText {
  Metric m;
  const char* id;
  const char* title;
};
constexpr MetricText kMetrics[kMetricCount] = {
    {Metric::global_reads, "global-reads", "global reads"},
    {Metric::global_reads_per_cell_per_team, "global-reads-per-cell-per-team",
     "reads of one global element by one team"},
    {Metric::global_writes_per_cell, "global-writes-per-cell", "writes of one global element"},
    {Metric::global_reads_per_output, "global-reads-per-output", "global reads per output"},
    {Metric::scratch_reads_per_team, "scratch-reads-per-team", "scratch reads per team"},
    {Metric::scratch_writes_per_team, "scratch-writes-per-team", "scratch writes per team"},
    {Metric::barriers_per_team, "barriers-per-team", "team_barrier calls per team"},
    {Metric::collectives_per_team, "collectives-per-team", "other team collectives per team"},
};

bool conflict(const Actor& a, const Actor& b) {
  if (!writes(a.kind) && !writes(b.kind)) return false;
  if (a.kind == Access::atomic && b.kind == Access::atomic) return false;
  if (a.league != b.league) return true;  // teams never synchronise inside a kernel
  if (a.rank != b.rank) return a.epoch == b.epoch;
  if (a.lane >= 0 && b.lane >= 0 && a.lane != b.lane) return a.epoch == b.epoch && a.vepoch == b.vepoch;
  return false;
}

Actor actor_of(const Event& e) {
  return {e.league, e.rank, e.lane, e.epoch, e.vepoch, e.kind, e.loc, e.every_lane};
}

}  // namespace

const char* metric_title(Metric m) {
  return kMetrics[static_cast<int>(m)].title;
}
std::optional<Metric> metric_from_id(const std::string& id) {
  for (const auto& t : kMetrics)
    if (id == t.id) return t.m;
  return std::nullopt;
}

std::string location_name(const Recording& rec, std::int32_t loc) {
  if (loc < 0 || loc >= static_cast<std::int32_t>(rec.locations.size())) return "?";
  const SourceLoc& l = rec.locations[loc];
  return display_path(l.file) + ":" + std::to_string(l.line);
}

std::string cell_name(const Recording& rec, std::int32_t view, std::int64_t offset) {
  const ViewInfo& v = rec.views[view];
  if (v.extents.size() <= 1) return v.name + "[" + std::to_string(offset) + "]";
  std::vector<std::size_t> dims(v.extents.size());
  std::iota(dims.begin(), dims.end(), 0);
  std::stable_sort(dims.begin(), dims.end(), [&](std::size_t x, std::size_t y) { return v.strides[x] > v.strides[y]; });
  std::vector<std::int64_t> idx(v.extents.size());
  std::int64_t rem = offset;
  for (std::size_t d : dims) {
    const std::int64_t st = std::max<std::int64_t>(1, v.strides[d]);
    idx[d] = rem / st;
    rem %= st;
  }
  std::string s = v.name + "(";
  for (std::size_t d = 0; d < idx.size(); ++d) s += (d ? "," : "") + std::to_string(idx[d]);
  return s + ")";
}

Analysis analyze(const Recording& rec) {
  Analysis a;
  const auto& ev = rec.events;
  // Cells: (launch, league for scratch or -1, address).
  std::vector<std::uint32_t> order(ev.size());
  std::iota(order.begin(), order.end(), 0u);
  auto key = [&](std::uint32_t i) {
    const Event& e = ev[i];
    const bool scratch = rec.views[e.view].scratch;
    return std::make_tuple(e.launch, scratch ? e.league : -1, e.addr, i);
  };
  std::sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) { return key(x) < key(y); });

  std::vector<Actor> actors;
  std::set<std::tuple<std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t, Access>> seen;
  for (std::size_t g = 0; g < order.size();) {
    std::size_t h = g;
    const Event& first = ev[order[g]];
    const bool scratch = rec.views[first.view].scratch;
    while (h < order.size() && ev[order[h]].launch == first.launch && ev[order[h]].addr == first.addr &&
           (!scratch || ev[order[h]].league == first.league) && rec.views[ev[order[h]].view].scratch == scratch)
      ++h;
    // Distinct accessors in event order (a flat kernel may have thousands of iterations on one
    // element: a set, not a scan of the list).
    actors.clear();
    seen.clear();
    for (std::size_t k = g; k < h; ++k) {
      const Actor act = actor_of(ev[order[k]]);
      if (seen.insert(std::make_tuple(act.league, act.rank, act.lane, act.epoch, act.vepoch, act.kind)).second)
        actors.push_back(act);
    }
    // The first conflicting pair (j, then i < j). Only pairs that can conflict are tried: a plain
    // read against earlier writers, an atomic against earlier plain accesses, a plain write
    // against everything before it.
    bool raced = false;
    std::vector<std::size_t> writers, plain;
    for (std::size_t j = 0; j < actors.size() && !raced; ++j) {
      const Access k = actors[j].kind;
      auto try_pair = [&](std::size_t i) {
        if (raced || !conflict(actors[i], actors[j])) return;
        a.races.push_back({first.view, first.offset, first.launch, actors[i], actors[j]});
        raced = true;
      };
      if (k == Access::write)
        for (std::size_t i = 0; i < j; ++i) try_pair(i);
      else
        for (std::size_t i : k == Access::read ? writers : plain) try_pair(i);
      if (writes(k)) writers.push_back(j);
      if (k != Access::atomic) plain.push_back(j);
    }
    if (scratch && !raced) {
      for (std::size_t k = g; k < h; ++k) {
        const Event& r = ev[order[k]];
        if (!reads(r.kind) || r.kind == Access::atomic) continue;
        bool init = false;
        for (std::size_t w = g; w < k && !init; ++w) {
          const Event& x = ev[order[w]];
          init = writes(x.kind) && (x.epoch < r.epoch || x.rank == r.rank);
        }
        if (!init) {
          a.uninitialized.push_back({r.view, r.offset, r.launch, actor_of(r)});
          break;
        }
      }
    }
    g = h;
  }

  // Report order: by view (first-access order), team and element, not by address.
  std::sort(a.races.begin(), a.races.end(), [](const Race& x, const Race& y) {
    return std::tie(x.launch, x.view, x.first.league, x.offset) < std::tie(y.launch, y.view, y.first.league, y.offset);
  });
  std::sort(a.uninitialized.begin(), a.uninitialized.end(), [](const UninitializedRead& x, const UninitializedRead& y) {
    return std::tie(x.launch, x.view, x.reader.league, x.offset) <
           std::tie(y.launch, y.view, y.reader.league, y.offset);
  });

  // Metrics.
  double global_reads = 0;
  // Per team and element; in a flat kernel every iteration is a team of its own (it shares
  // nothing with the others: no scratch, no barrier).
  std::vector<bool> flat(rec.kernels.size());
  for (std::size_t k = 0; k < rec.kernels.size(); ++k) flat[k] = rec.kernels[k].flat.flat();
  std::map<std::tuple<std::int32_t, std::int32_t, std::int32_t, std::uintptr_t>, double> reads_team_cell;
  std::map<std::pair<std::int32_t, std::uintptr_t>, double> writes_cell;
  std::map<std::pair<std::int32_t, std::int32_t>, std::pair<double, double>> scratch_team;
  for (const Event& e : ev) {
    const bool scratch = rec.views[e.view].scratch;
    if (scratch) {
      auto& s = scratch_team[{e.launch, e.league}];
      if (reads(e.kind)) s.first += 1;
      if (writes(e.kind)) s.second += 1;
      continue;
    }
    if (reads(e.kind)) {
      global_reads += 1;
      const bool by_iteration = e.launch >= 0 && e.launch < static_cast<std::int32_t>(flat.size()) && flat[e.launch];
      reads_team_cell[{e.launch, e.league, by_iteration ? e.rank : -1, e.addr}] += 1;
    }
    if (writes(e.kind)) writes_cell[{e.launch, e.addr}] += 1;
  }
  auto& m = a.metrics;
  m[static_cast<int>(Metric::global_reads)] = global_reads;
  for (const auto& [k, v] : reads_team_cell)
    m[static_cast<int>(Metric::global_reads_per_cell_per_team)] =
        std::max(m[static_cast<int>(Metric::global_reads_per_cell_per_team)], v);
  for (const auto& [k, v] : writes_cell)
    m[static_cast<int>(Metric::global_writes_per_cell)] =
        std::max(m[static_cast<int>(Metric::global_writes_per_cell)], v);
  m[static_cast<int>(Metric::global_reads_per_output)] =
      writes_cell.empty() ? 0.0 : global_reads / static_cast<double>(writes_cell.size());
  for (const auto& [k, v] : scratch_team) {
    m[static_cast<int>(Metric::scratch_reads_per_team)] =
        std::max(m[static_cast<int>(Metric::scratch_reads_per_team)], v.first);
    m[static_cast<int>(Metric::scratch_writes_per_team)] =
        std::max(m[static_cast<int>(Metric::scratch_writes_per_team)], v.second);
  }
  for (const TeamInfo& t : rec.teams) {
    m[static_cast<int>(Metric::barriers_per_team)] =
        std::max<double>(m[static_cast<int>(Metric::barriers_per_team)], t.barriers);
    m[static_cast<int>(Metric::collectives_per_team)] =
        std::max<double>(m[static_cast<int>(Metric::collectives_per_team)], t.collectives);
  }
  return a;
}

}  // namespace kpz::trace
