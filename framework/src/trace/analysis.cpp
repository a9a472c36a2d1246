// Race check, budget metrics and diagrams of a traced run.
#include "kpz/trace/analysis.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <unordered_map>

#include "kpz/trace/source.hpp"

namespace kpz::trace {

namespace {

struct MetricText {
  Metric m;
  const char* id;
  const char* title;
};
constexpr MetricText kMetrics[kMetricCount] = {
    {Metric::global_reads, "global-reads", "global reads"},
    {Metric::global_reads_per_cell_per_team, "global-reads-per-cell-per-team", "reads of one global element by one team"},
    {Metric::global_writes_per_cell, "global-writes-per-cell", "writes of one global element"},
    {Metric::global_reads_per_output, "global-reads-per-output", "global reads per output"},
    {Metric::scratch_reads_per_team, "scratch-reads-per-team", "scratch reads per team"},
    {Metric::scratch_writes_per_team, "scratch-writes-per-team", "scratch writes per team"},
    {Metric::barriers_per_team, "barriers-per-team", "team_barrier calls per team"},
    {Metric::collectives_per_team, "collectives-per-team", "other team collectives per team"},
};

bool writes(Access k) { return k != Access::read; }
bool reads(Access k) { return k != Access::write; }

bool conflict(const Actor& a, const Actor& b) {
  if (!writes(a.kind) && !writes(b.kind)) return false;
  if (a.kind == Access::atomic && b.kind == Access::atomic) return false;
  if (a.league != b.league) return true;  // teams never synchronise inside a kernel
  if (a.rank != b.rank) return a.epoch == b.epoch;
  if (a.lane >= 0 && b.lane >= 0 && a.lane != b.lane) return a.epoch == b.epoch && a.vepoch == b.vepoch;
  return false;
}

Actor actor_of(const Event& e) { return {e.league, e.rank, e.lane, e.epoch, e.vepoch, e.kind, e.loc}; }

std::string member_name(const Actor& a) {
  std::string s = "member " + std::to_string(a.rank);
  if (a.lane >= 0) s += " lane " + std::to_string(a.lane);
  return s;
}

const char* verb(Access k) {
  switch (k) {
    case Access::read: return "reads ";
    case Access::write: return "writes";
    default: return "updates (atomic)";
  }
}

// "1..4, 6, 9..10"
std::string ranges(std::vector<std::int64_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::string out;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(v[i]);
    if (j > i) out += ".." + std::to_string(v[j]);
    i = j + 1;
  }
  return out;
}

char member_char(int rank) {
  static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  return rank < 36 ? digits[rank] : '#';
}

// The cells one row of a diagram shows: per element, which members touched it.
struct Row {
  std::int32_t view;
  Access kind;
  std::map<std::int64_t, std::set<int>> cells;
  std::set<std::int64_t> raced;
};

struct Block {  // one team, one epoch
  std::int32_t epoch;
  std::vector<Row> rows;
};

struct TeamBlocks {
  const TeamInfo* team;
  std::vector<Block> epochs;
};

const char* kind_word(Access k) { return k == Access::read ? "read" : k == Access::write ? "write" : "atomic"; }

std::size_t longest_name(const Recording& rec) {
  std::size_t w = 0;
  for (const ViewInfo& v : rec.views) w = std::max(w, v.name.size());
  return w;
}

// "global  a    read ", "scratch s_a  write"
std::string row_label(const Recording& rec, const Row& r, std::size_t) {
  const ViewInfo& v = rec.views[r.view];
  std::string name = v.name;
  name.resize(std::max(name.size(), longest_name(rec)), ' ');
  return std::string(v.scratch ? "scratch " : "global  ") + name + " " + kind_word(r.kind);
}

std::int64_t view_span(const Recording& rec, std::int32_t view) {
  const ViewInfo& v = rec.views[view];
  std::int64_t span = 1;
  for (auto e : v.extents) span *= e;
  return v.extents.empty() ? 0 : span;
}

std::vector<TeamBlocks> blocks_of(const Recording& rec, const Analysis& a) {
  std::map<std::pair<std::int32_t, std::int32_t>, std::size_t> team_index;
  std::vector<TeamBlocks> teams;
  for (const TeamInfo& t : rec.teams) {
    team_index[{t.launch, t.league}] = teams.size();
    TeamBlocks tb{&t, {}};
    for (int e = 0; e < t.epochs; ++e) tb.epochs.push_back({e, {}});
    teams.push_back(std::move(tb));
  }
  std::map<std::tuple<std::int32_t, std::int32_t, std::int32_t, std::int32_t, Access>, std::size_t> row_index;
  for (const Event& e : rec.events) {
    auto it = team_index.find({e.launch, e.league});
    if (it == team_index.end()) continue;
    TeamBlocks& tb = teams[it->second];
    if (e.epoch >= static_cast<int>(tb.epochs.size())) tb.epochs.resize(e.epoch + 1, Block{e.epoch, {}});
    Block& b = tb.epochs[e.epoch];
    const Access kind = e.kind;
    auto key = std::make_tuple(e.launch, e.league, e.epoch, e.view, kind);
    auto r = row_index.find(key);
    if (r == row_index.end()) {
      r = row_index.emplace(key, b.rows.size()).first;
      b.rows.push_back({e.view, kind, {}, {}});
    }
    b.rows[r->second].cells[e.offset].insert(e.rank);
  }
  // Mark raced cells in the rows of both accesses.
  for (const Race& race : a.races) {
    for (const Actor* act : {&race.first, &race.second}) {
      auto it = team_index.find({race.launch, act->league});
      if (it == team_index.end()) continue;
      TeamBlocks& tb = teams[it->second];
      if (act->epoch >= static_cast<int>(tb.epochs.size())) continue;
      for (Row& row : tb.epochs[act->epoch].rows)
        if (row.view == race.view && row.kind == act->kind) row.raced.insert(race.offset);
    }
  }
  return teams;
}

std::string epoch_title(const Recording& rec, const TeamInfo& t, int epoch) {
  auto sync = [&](int starts) -> const SyncInfo* {
    for (const SyncInfo& s : rec.syncs)
      if (s.launch == t.launch && s.league == t.league && s.epoch == starts) return &s;
    return nullptr;
  };
  const SyncInfo* before = sync(epoch);
  const SyncInfo* after = sync(epoch + 1);
  std::string s = "epoch " + std::to_string(epoch) + ": ";
  s += before ? std::string("after ") + to_string(before->kind) + " (" + location_name(rec, before->loc) + ")"
              : std::string("start");
  s += " -> ";
  s += after ? std::string(to_string(after->kind)) + " (" + location_name(rec, after->loc) + ")" : std::string("end");
  return s;
}

std::string team_title(const Recording& rec, const TeamInfo& t) {
  const KernelInfo& k = rec.kernels[t.launch];
  std::string s = "team " + std::to_string(t.league) + " of " + std::to_string(k.league_size);
  if (!k.label.empty()) s += ", kernel \"" + k.label + "\"";
  s += ", " + std::to_string(t.team_size) + " member" + (t.team_size == 1 ? "" : "s");
  if (t.vector_length > 1) s += " x " + std::to_string(t.vector_length) + " lanes";
  s += ", TeamThreadRange ";
  s += rec.distribution == Distribution::cyclic ? "cyclic (as on CUDA)" : "blockwise (as on OpenMP and Serial)";
  return s;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

const char* metric_id(Metric m) { return kMetrics[static_cast<int>(m)].id; }
const char* metric_title(Metric m) { return kMetrics[static_cast<int>(m)].title; }
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
  for (std::size_t g = 0; g < order.size();) {
    std::size_t h = g;
    const Event& first = ev[order[g]];
    const bool scratch = rec.views[first.view].scratch;
    while (h < order.size() && ev[order[h]].launch == first.launch && ev[order[h]].addr == first.addr &&
           (!scratch || ev[order[h]].league == first.league) && rec.views[ev[order[h]].view].scratch == scratch)
      ++h;
    // Distinct accessors in event order.
    actors.clear();
    for (std::size_t k = g; k < h; ++k) {
      const Actor act = actor_of(ev[order[k]]);
      const bool seen = std::any_of(actors.begin(), actors.end(), [&](const Actor& o) {
        return o.league == act.league && o.rank == act.rank && o.lane == act.lane && o.epoch == act.epoch &&
               o.vepoch == act.vepoch && o.kind == act.kind;
      });
      if (!seen) actors.push_back(act);
    }
    bool raced = false;
    for (std::size_t j = 1; j < actors.size() && !raced; ++j)
      for (std::size_t i = 0; i < j && !raced; ++i)
        if (conflict(actors[i], actors[j])) {
          a.races.push_back({first.view, first.offset, first.launch, actors[i], actors[j]});
          raced = true;
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
    return std::tie(x.launch, x.view, x.reader.league, x.offset) < std::tie(y.launch, y.view, y.reader.league, y.offset);
  });

  // Metrics.
  double global_reads = 0;
  std::map<std::tuple<std::int32_t, std::int32_t, std::uintptr_t>, double> reads_team_cell;
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
      reads_team_cell[{e.launch, e.league, e.addr}] += 1;
    }
    if (writes(e.kind)) writes_cell[{e.launch, e.addr}] += 1;
  }
  auto& m = a.metrics;
  m[static_cast<int>(Metric::global_reads)] = global_reads;
  for (const auto& [k, v] : reads_team_cell)
    m[static_cast<int>(Metric::global_reads_per_cell_per_team)] =
        std::max(m[static_cast<int>(Metric::global_reads_per_cell_per_team)], v);
  for (const auto& [k, v] : writes_cell)
    m[static_cast<int>(Metric::global_writes_per_cell)] = std::max(m[static_cast<int>(Metric::global_writes_per_cell)], v);
  m[static_cast<int>(Metric::global_reads_per_output)] =
      writes_cell.empty() ? 0.0 : global_reads / static_cast<double>(writes_cell.size());
  for (const auto& [k, v] : scratch_team) {
    m[static_cast<int>(Metric::scratch_reads_per_team)] = std::max(m[static_cast<int>(Metric::scratch_reads_per_team)], v.first);
    m[static_cast<int>(Metric::scratch_writes_per_team)] = std::max(m[static_cast<int>(Metric::scratch_writes_per_team)], v.second);
  }
  for (const TeamInfo& t : rec.teams) {
    m[static_cast<int>(Metric::barriers_per_team)] = std::max<double>(m[static_cast<int>(Metric::barriers_per_team)], t.barriers);
    m[static_cast<int>(Metric::collectives_per_team)] =
        std::max<double>(m[static_cast<int>(Metric::collectives_per_team)], t.collectives);
  }
  return a;
}

std::string problems_text(const Recording& rec, const Analysis& a, std::size_t max_groups,
                          std::set<std::string>* seen) {
  std::string out;
  // Races grouped by what they have in common except the element and the team.
  struct Group {
    const Race* example;
    bool cross;
    std::set<int> teams;
    std::vector<std::int64_t> offsets;
    std::size_t count = 0;
  };
  std::map<std::string, Group> groups;
  std::vector<std::string> order;
  for (const Race& r : a.races) {
    const bool cross = r.first.league != r.second.league;
    const ViewInfo& v = rec.views[r.view];
    // The write first, then the other access.
    const Actor& w = writes(r.first.kind) ? r.first : r.second;
    const Actor& o = &w == &r.first ? r.second : r.first;
    const std::string k = v.name + "|" + (v.scratch ? "s" : "g") + "|" + (cross ? "x" : std::to_string(r.first.epoch)) +
                          "|" + std::to_string(static_cast<int>(w.kind)) + location_name(rec, w.loc) + "|" +
                          std::to_string(static_cast<int>(o.kind)) + location_name(rec, o.loc);
    auto it = groups.find(k);
    if (it == groups.end()) {
      it = groups.emplace(k, Group{&r, cross, {}, {}}).first;
      order.push_back(k);
    }
    it->second.teams.insert(r.first.league);
    it->second.teams.insert(r.second.league);
    it->second.offsets.push_back(r.offset);
    ++it->second.count;
  }
  std::size_t shown = 0, hidden = 0;
  for (const auto& k : order) {
    if (seen && !seen->insert(k).second) continue;
    if (shown == max_groups) {
      ++hidden;
      continue;
    }
    ++shown;
    const Group& g = groups.at(k);
    const Race& r = *g.example;
    const ViewInfo& v = rec.views[r.view];
    std::string teams;
    for (int t : g.teams) teams += (teams.empty() ? "" : ", ") + std::to_string(t);
    out += "RACE on " + std::string(v.scratch ? "scratch " : "global ") + v.name + "[" + ranges(g.offsets) + "]";
    if (g.cross) out += " between teams " + teams + "\n";
    else out += " in epoch " + std::to_string(r.first.epoch) + " of team" + (g.teams.size() > 1 ? "s " : " ") + teams +
                " (" + std::to_string(g.count) + (g.count == 1 ? " element)\n" : " elements)\n");
    const Actor& w = writes(r.first.kind) ? r.first : r.second;
    const Actor& o = &w == &r.first ? r.second : r.first;
    const std::string cell = cell_name(rec, r.view, r.offset);
    auto line = [&](const Actor& act) {
      std::string who = g.cross ? "team " + std::to_string(act.league) + " " : std::string();
      return "  " + who + member_name(act) + " " + verb(act.kind) + " " + cell + " at " + location_name(rec, act.loc) +
             "\n";
    };
    out += line(w);
    out += line(o);
    if (g.cross)
      out += "  Teams never synchronise inside a kernel: a global element one team writes must not be touched by "
             "another team.\n";
    else if (w.rank != o.rank && writes(o.kind))
      out += "  Two members write the same element in one barrier epoch: which value survives depends on timing. "
             "Give every element one owner per epoch.\n";
    else if (w.rank != o.rank)
      out += "  Different members, same barrier epoch: nothing orders the write and the read, so the read may see "
             "the old or the new value. Separate them with a team.team_barrier(), or let one member own the "
             "element in this epoch.\n";
    else
      out += "  Two lanes of one member touch the element in the same vector loop.\n";
  }
  if (hidden) out += "  ... and " + std::to_string(hidden) + " more groups of races\n";
  // Uninitialised reads, grouped by view, epoch and line.
  std::map<std::string, std::pair<const UninitializedRead*, std::vector<std::int64_t>>> un;
  std::vector<std::string> un_order;
  for (const UninitializedRead& u : a.uninitialized) {
    const std::string k = "u|" + rec.views[u.view].name + "|" + std::to_string(u.reader.epoch) + "|" +
                          location_name(rec, u.reader.loc);
    if (!un.count(k)) {
      un_order.push_back(k);
      un[k].first = &u;
    }
    un[k].second.push_back(u.offset);
  }
  for (const auto& k : un_order) {
    if (seen && !seen->insert(k).second) continue;
    const auto& [u, offs] = un[k];
    out += "UNINITIALIZED scratch read of " + rec.views[u->view].name + "[" + ranges(offs) + "] in epoch " +
           std::to_string(u->reader.epoch) + " at " + location_name(rec, u->reader.loc) +
           ": no member wrote these elements before (scratch holds garbage until written).\n";
  }
  return out;
}

std::string text_diagram(const Recording& rec, const Analysis& a, const DiagramOptions& o) {
  std::string out;
  const auto teams = blocks_of(rec, a);
  int drawn = 0;
  for (const TeamBlocks& tb : teams) {
    if (drawn == o.max_teams) {
      out += "(" + std::to_string(teams.size() - static_cast<std::size_t>(drawn)) +
             " more teams not drawn; the race check and the budget cover every team)\n";
      break;
    }
    ++drawn;
    out += team_title(rec, *tb.team) + "\n";
    for (const Block& b : tb.epochs) {
      out += "  " + epoch_title(rec, *tb.team, b.epoch) + "\n";
      if (b.rows.empty()) {
        out += "    (no accesses)\n";
        continue;
      }
      std::size_t name_w = 0;
      std::int64_t length = 0;
      for (const Row& r : b.rows) {
        name_w = std::max(name_w, row_label(rec, r, 0).size());
        length = std::max(length, std::max(view_span(rec, r.view), r.cells.rbegin()->first + 1));
      }
      name_w += 2;
      for (std::int64_t from = 0; from < length; from += o.width) {
        const std::int64_t to = std::min(length, from + o.width);
        std::string tens(name_w + 4, ' '), units(name_w + 4, ' ');
        for (std::int64_t i = from; i < to; ++i) {
          tens += (i % 10 == 0) ? static_cast<char>('0' + (i / 10) % 10) : ' ';
          units += static_cast<char>('0' + i % 10);
        }
        if (length > 10) out += tens + "\n";
        out += units + "\n";
        for (const Row& r : b.rows) {
          const std::string label = row_label(rec, r, 0);
          std::string line = "    " + label + std::string(name_w - label.size(), ' ');
          const std::int64_t span = std::max(view_span(rec, r.view), r.cells.rbegin()->first + 1);
          std::string marks;
          bool any_mark = false;
          for (std::int64_t i = from; i < std::min(to, span); ++i) {
            auto it = r.cells.find(i);
            char c = '.';
            if (it != r.cells.end()) c = it->second.size() == 1 ? member_char(*it->second.begin()) : '*';
            const bool raced = r.raced.count(i) != 0;
            if (o.color && raced) line += "\x1b[1;31m" + std::string(1, c) + "\x1b[0m";
            else line += c;
            marks += raced ? '^' : ' ';
            any_mark |= raced;
          }
          out += line + "\n";
          if (any_mark) out += std::string(name_w + 4, ' ') + marks + "  race\n";
        }
      }
    }
  }
  return out;
}

std::string svg_diagram(const Recording& rec, const Analysis& a, const std::string& title, const DiagramOptions& o) {
  static const char* palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#edc948",
                                  "#76b7b2", "#ff9da7", "#9c755f", "#e15759", "#bab0ac"};
  const auto teams = blocks_of(rec, a);
  const int cell = 16, gap = 2, pad = 12, line_h = 18;
  std::string body;
  int y = pad + 16;
  int max_w = 560;
  auto text = [&](int x, int yy, const std::string& s, const char* extra = "") {
    body += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(yy) + "\"" + extra + ">" + xml_escape(s) +
            "</text>\n";
    // Monospace: about 0.6 em per character (14 px titles, 12 px text).
    const bool title_class = std::string(extra).find("title") != std::string::npos;
    max_w = std::max(max_w, x + static_cast<int>(s.size()) * (title_class ? 9 : 8) + pad);
  };
  text(pad, y, title, " class=\"title\"");
  y += line_h + 4;
  // Legend: member colours of the first team.
  const int members = teams.empty() ? 0 : teams.front().team->team_size;
  int lx = pad;
  text(lx, y + 12, "member:", " class=\"small\"");
  lx += 56;
  for (int r = 0; r < std::min(members, 36); ++r) {
    body += "<rect x=\"" + std::to_string(lx) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(cell) +
            "\" height=\"" + std::to_string(cell) + "\" fill=\"" + palette[r % 10] + "\"/>\n";
    text(lx + cell / 2, y + 12, std::string(1, member_char(r)), " class=\"cell\"");
    lx += cell + gap;
  }
  body += "<rect x=\"" + std::to_string(lx + 8) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(cell) +
          "\" height=\"" + std::to_string(cell) + "\" fill=\"#d0d0d0\"/>\n";
  text(lx + 8 + cell / 2, y + 12, "*", " class=\"cell many\"");
  text(lx + 8 + cell + 6, y + 12, "several members", " class=\"small\"");
  lx += 8 + cell + 6 + 110;
  body += "<rect x=\"" + std::to_string(lx) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(cell) +
          "\" height=\"" + std::to_string(cell) + "\" fill=\"#ffffff\" stroke=\"#d62728\" stroke-width=\"2.5\"/>\n";
  text(lx + cell + 6, y + 12, "race", " class=\"small\"");
  y += cell + 14;
  int drawn = 0;
  for (const TeamBlocks& tb : teams) {
    if (drawn == o.max_teams) {
      text(pad, y + 12,
           "(" + std::to_string(teams.size() - static_cast<std::size_t>(drawn)) + " more teams not drawn)",
           " class=\"small\"");
      y += line_h;
      break;
    }
    ++drawn;
    text(pad, y + 12, team_title(rec, *tb.team), " class=\"team\"");
    y += line_h + 4;
    for (const Block& b : tb.epochs) {
      text(pad + 8, y + 12, epoch_title(rec, *tb.team, b.epoch), " class=\"epoch\"");
      y += line_h;
      if (b.rows.empty()) {
        text(pad + 16, y + 12, "(no accesses)", " class=\"small\"");
        y += line_h;
        continue;
      }
      std::int64_t length = 0;
      std::size_t name_w = 0;
      for (const Row& r : b.rows) {
        length = std::max(length, std::max(view_span(rec, r.view), r.cells.rbegin()->first + 1));
        name_w = std::max(name_w, row_label(rec, r, 0).size());
      }
      const int x0 = pad + 16 + static_cast<int>(name_w) * 8 + 8;
      for (std::int64_t from = 0; from < length; from += o.width) {
        const std::int64_t to = std::min(length, from + o.width);
        for (std::int64_t i = from; i < to; ++i)
          if (i % 4 == 0 || i == to - 1 || i == from)
            text(x0 + static_cast<int>(i - from) * (cell + gap) + cell / 2, y + 10, std::to_string(i),
                 " class=\"index\"");
        y += 14;
        for (const Row& r : b.rows) {
          const ViewInfo& v = rec.views[r.view];
          text(pad + 16, y + 12, row_label(rec, r, 0), v.scratch ? " class=\"label scratch\"" : " class=\"label\"");
          const std::int64_t span = std::max(view_span(rec, r.view), r.cells.rbegin()->first + 1);
          for (std::int64_t i = from; i < std::min(to, span); ++i) {
            const int x = x0 + static_cast<int>(i - from) * (cell + gap);
            auto it = r.cells.find(i);
            const bool raced = r.raced.count(i) != 0;
            std::string fill = "#f4f4f4", label, who;
            if (it != r.cells.end()) {
              for (int m : it->second) who += (who.empty() ? "" : ", ") + std::to_string(m);
              if (it->second.size() == 1) {
                fill = palette[*it->second.begin() % 10];
                label = std::string(1, member_char(*it->second.begin()));
              } else {
                fill = "#d0d0d0";
                label = "*";
              }
            }
            body += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
                    std::to_string(cell) + "\" height=\"" + std::to_string(cell) + "\" fill=\"" + fill + "\"" +
                    (raced ? " stroke=\"#d62728\" stroke-width=\"2.5\"" : "") + ">";
            body += "<title>" + xml_escape(cell_name(rec, r.view, i) + " " + kind_word(r.kind) +
                                           (who.empty() ? std::string(": untouched") : " by member" +
                                            std::string(it->second.size() > 1 ? "s " : " ") + who) +
                                           (raced ? " (race)" : "")) +
                    "</title></rect>\n";
            if (!label.empty()) text(x + cell / 2, y + 12, label, label == "*" ? " class=\"cell many\"" : " class=\"cell\"");
            max_w = std::max(max_w, x + cell + pad);
          }
          y += cell + gap;
        }
        y += 4;
      }
      y += 4;
    }
    y += 6;
  }
  const std::string problems = problems_text(rec, a, 4, nullptr);
  if (!problems.empty()) {
    std::size_t start = 0;
    while (start < problems.size()) {
      const std::size_t end = problems.find('\n', start);
      text(pad, y + 12, problems.substr(start, end - start), " class=\"problem\"");
      y += line_h;
      start = end == std::string::npos ? problems.size() : end + 1;
    }
  }
  const int height = y + pad;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(max_w) + "\" height=\"" +
                    std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(max_w) + " " +
                    std::to_string(height) + "\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n";
  svg += "<style>text{font-size:12px;fill:#222}.title{font-size:14px;font-weight:bold}"
         ".team{font-weight:bold}.epoch{fill:#555}.small{font-size:11px;fill:#555}"
         ".index{font-size:9px;fill:#888;text-anchor:middle}.cell{font-size:11px;fill:#fff;text-anchor:middle}"
         ".many{fill:#333}"
         ".label{fill:#222}.scratch{fill:#6a3d9a}.problem{fill:#d62728;font-size:11px}</style>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  svg += body;
  svg += "</svg>\n";
  return svg;
}

}  // namespace kpz::trace
