// The rows of the access diagrams: a Recording per team, barrier epoch, view and kind of access.
#include <algorithm>
#include <tuple>
#include <utility>

#include "diagram_rows.hpp"

namespace kpz::trace::rows {

namespace {

std::size_t longest_name(const Recording& rec) {
  std::size_t w = 0;
  for (const ViewInfo& v : rec.views) w = std::max(w, v.name.size());
  return w;
}

}  // namespace

char member_char(int rank) {
  static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  return rank < 36 ? digits[rank] : '#';
}

const char* kind_word(Access k) {
  return k == Access::read ? "read" : k == Access::write ? "write" : "atomic";
}

std::string row_label(const Recording& rec, const Row& r) {
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
  if (rec.kernels[t.launch].flat.flat()) return "every iteration (a flat kernel has no barriers)";
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
  if (k.flat.flat()) {
    const std::int64_t n = k.flat.iterations();
    return (k.label.empty() ? std::string("flat kernel") : "flat kernel \"" + k.label + "\"") + ", " +
           k.flat.describe() + ": " + std::to_string(n) + " iteration" + (n == 1 ? "" : "s") +
           " (a cell: the iteration's rank)";
  }
  std::string s = "team " + std::to_string(t.league) + " of " + std::to_string(k.league_size);
  if (!k.label.empty()) s += ", kernel \"" + k.label + "\"";
  s += ", " + std::to_string(t.team_size) + " member" + (t.team_size == 1 ? "" : "s");
  if (t.vector_length > 1) s += " x " + std::to_string(t.vector_length) + " lanes";
  s += ", TeamThreadRange ";
  s += rec.distribution == Distribution::cyclic ? "cyclic (as on CUDA)" : "blockwise (as on OpenMP and Serial)";
  return s;
}

bool is_flat(const Recording& rec, const TeamInfo& t) {
  return rec.kernels[t.launch].flat.flat();
}

std::string not_drawn(const Recording& rec, const std::vector<TeamBlocks>& blocks, std::size_t from) {
  std::size_t teams = 0, flat = 0;
  for (std::size_t b = from; b < blocks.size(); ++b) ++(is_flat(rec, *blocks[b].team) ? flat : teams);
  std::string s = "(";
  if (teams) s += std::to_string(teams) + " more teams";
  if (teams && flat) s += " and ";
  if (flat) s += std::to_string(flat) + (teams ? "" : " more") + " flat kernel" + (flat == 1 ? "" : "s");
  return s + " not drawn";
}

}  // namespace kpz::trace::rows
