// The text report of a traced run: races and uninitialised reads, and the access diagram.
#include <algorithm>
#include <map>
#include <set>

#include "diagram_rows.hpp"
#include "kpz/lookup.hpp"
#include "kpz/trace/analysis.hpp"

namespace kpz::trace {

namespace {

using namespace rows;

// A flat kernel's member is an iteration, named by its indices.
const FlatShape* flat_shape(const Recording& rec, std::int32_t launch) {
  if (launch < 0 || launch >= static_cast<std::int32_t>(rec.kernels.size())) return nullptr;
  const FlatShape& f = rec.kernels[launch].flat;
  return f.flat() ? &f : nullptr;
}

std::string member_name(const Actor& a, const FlatShape* flat) {
  if (flat) return flat->iteration(a.rank);
  std::string s = "member " + std::to_string(a.rank);
  if (a.lane >= 0) s += " lane " + std::to_string(a.lane);
  return s;
}

const char* verb(Access k) {
  return by_enum<Access::atomic>({"reads ", "writes", "updates (atomic)"}, k);
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

}  // namespace

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
                          std::to_string(static_cast<int>(o.kind)) + location_name(rec, o.loc) +
                          (flat_shape(rec, r.launch) ? "|" + rec.kernels[r.launch].label : std::string());
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
    const FlatShape* flat = flat_shape(rec, r.launch);
    out += "RACE on " + std::string(v.scratch ? "scratch " : "global ") + v.name + "[" + ranges(g.offsets) + "]";
    if (flat)
      out += (rec.kernels[r.launch].label.empty() ? " in a flat kernel"
                                                  : " in the flat kernel \"" + rec.kernels[r.launch].label + "\"") +
             " (" + std::to_string(g.count) + (g.count == 1 ? " element)\n" : " elements)\n");
    else if (g.cross)
      out += " between teams " + teams + "\n";
    else
      out += " in epoch " + std::to_string(r.first.epoch) + " of team" + (g.teams.size() > 1 ? "s " : " ") + teams +
             " (" + std::to_string(g.count) + (g.count == 1 ? " element)\n" : " elements)\n");
    const Actor& w = writes(r.first.kind) ? r.first : r.second;
    const Actor& o = &w == &r.first ? r.second : r.first;
    const std::string cell = cell_name(rec, r.view, r.offset);
    auto line = [&](const Actor& act) {
      std::string who = g.cross ? "team " + std::to_string(act.league) + " " : std::string();
      return "  " + who + member_name(act, flat) + " " + verb(act.kind) + " " + cell + " at " +
             location_name(rec, act.loc) + "\n";
    };
    out += line(w);
    out += line(o);
    if (flat)
      out +=
          "  Nothing orders two iterations of a flat kernel (they run in any order, at the same time on a GPU): a "
          "read may see the old or the new value, and two `+=` may lose an update. Update the element with an "
          "atomic (Kokkos::atomic_add(&v(i), x)), a reducer or a ScatterView, or let one iteration own it.\n";
    else if (g.cross)
      out +=
          "  Teams never synchronise inside a kernel: a global element one team writes must not be touched by "
          "another team.\n";
    else if (w.rank != o.rank && writes(o.kind))
      out +=
          "  Two members write the same element in one barrier epoch: which value survives depends on timing. "
          "Give every element one owner per epoch.\n";
    else if (w.rank != o.rank)
      out +=
          "  Different members, same barrier epoch: nothing orders the write and the read, so the read may see "
          "the old or the new value. Separate them with a team.team_barrier(), or let one member own the "
          "element in this epoch.\n";
    else if (w.every_lane)
      out +=
          "  Every vector lane of this member makes the write: it is outside the member's vector loops "
          "(ThreadVectorRange, TeamVectorRange) and outside Kokkos::single, so each lane runs it, even with the "
          "same value. Give it to one lane with Kokkos::single(Kokkos::PerThread(team), ...), or share the work "
          "among the lanes with a vector loop.\n";
    else
      out += "  Two lanes of one member touch the element in the same vector loop.\n";
  }
  if (hidden) out += "  ... and " + std::to_string(hidden) + " more groups of races\n";
  // Uninitialised reads, grouped by view, epoch and line.
  std::map<std::string, std::pair<const UninitializedRead*, std::vector<std::int64_t>>> un;
  std::vector<std::string> un_order;
  for (const UninitializedRead& u : a.uninitialized) {
    const std::string k =
        "u|" + rec.views[u.view].name + "|" + std::to_string(u.reader.epoch) + "|" + location_name(rec, u.reader.loc);
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
      out += not_drawn(rec, teams, static_cast<std::size_t>(drawn)) +
             "; the race check and the budget cover every team)\n";
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
        name_w = std::max(name_w, row_label(rec, r).size());
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
          const std::string label = row_label(rec, r);
          std::string line = "    " + label + std::string(name_w - label.size(), ' ');
          const std::int64_t span = std::max(view_span(rec, r.view), r.cells.rbegin()->first + 1);
          std::string marks;
          bool any_mark = false;
          for (std::int64_t i = from; i < std::min(to, span); ++i) {
            auto it = r.cells.find(i);
            char c = '.';
            if (it != r.cells.end()) c = it->second.size() == 1 ? member_char(*it->second.begin()) : '*';
            const bool raced = r.raced.count(i) != 0;
            if (o.color && raced)
              line += "\x1b[1;31m" + std::string(1, c) + "\x1b[0m";
            else
              line += c;
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

}  // namespace kpz::trace
