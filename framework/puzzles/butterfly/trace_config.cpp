// butterfly's `kpuzzles trace` configurations and budgets (docs/tracing.md).
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "butterfly/spec.hpp"

namespace kpz::butterfly {
namespace {

// Budgets for `kpuzzles trace` (docs/tracing.md): each input read once, each output written once,
// one barrier after staging and one per butterfly step (the bug hunt: two per step, post and
// combine, and none after its load, whose lanes stay with their members).
std::vector<BudgetLimit> budget(Kind kind, const Params& p, const Json& config) {
  const double group = static_cast<double>(p.get("group-size"));
  const double tile = config.find("tile") ? config.find("tile")->as_double(0) : 0;
  const double steps = kind == Kind::pair_swap ? 1 : std::log2(group);
  std::vector<BudgetLimit> b = {
      {"global-reads-per-cell-per-team", 1, "each input once"},
      {"global-writes-per-cell", 1, "each output once"},
      {"global-reads-per-output", 1, "each input once"},
      {"barriers-per-team",
       kind == Kind::vector      ? 0
       : kind == Kind::pair_swap ? 1
       : kind == Kind::in_place  ? 2 * steps
                                 : 1 + steps,
       kind == Kind::vector     ? "none: lanes reduce in registers"
       : kind == Kind::in_place ? "two per step (post, combine); the load needs none"
                                : "after staging, then one per step"},
      {"collectives-per-team", 0, ""},
  };
  switch (kind) {
    case Kind::pair_swap:
      b.push_back({"scratch-writes-per-team", tile, "each lane once"});
      b.push_back({"scratch-reads-per-team", tile, "each partner once"});
      break;
    case Kind::all_reduce:
      b.push_back({"scratch-writes-per-team", tile * (1 + steps), "each lane once per step"});
      b.push_back({"scratch-reads-per-team", tile * (1 + 2 * steps), "two per lane and step"});
      break;
    case Kind::in_place:
      b.push_back({"scratch-writes-per-team", tile * (1 + 2 * steps), "val and slot: each lane once per step"});
      b.push_back({"scratch-reads-per-team", tile * (1 + 3 * steps), "val twice and slot once per lane and step"});
      break;
    case Kind::conditional:
      b.push_back({"scratch-writes-per-team", 2 * tile * (1 + steps), "hi and lo: each lane once per step"});
      b.push_back({"scratch-reads-per-team", tile * (1 + 3 * steps), "the lower lane: 3 reads of hi and of lo"});
      break;
    case Kind::vector:
      b.push_back({"scratch-writes-per-team", 0, "no scratch"});
      b.push_back({"scratch-reads-per-team", 0, "no scratch"});
      break;
  }
  return b;
}

}  // namespace

// Two teams of four members, groups of 8 (the docs' diagrams); the pair swap in groups of 2, the
// bug hunt with its own defaults. `--vector` (rows of kVectorGroups groups): 15 groups in teams of
// 8, so that the trace has whole rows and a last row of 3: a row's group test that is off by one
// reads past the input, an out-of-bounds finding.
TraceSpec trace_config(Variant variant) {
  const Kind kind = info(variant).kind;
  std::map<std::string, std::int64_t> options = {{"size", 32}, {"group-size", 8}, {"tile", 16}};
  if (kind == Kind::pair_swap) options = {{"size", 16}, {"group-size", 2}, {"tile", 8}};
  if (kind == Kind::vector) options = {{"size", 15 * 8}, {"group-size", 8}, {"tile", 8 * 8}};
  if (kind == Kind::in_place) options = {};
  return traceable(std::move(options), 4,
                   [kind](const Params& p, const Json& config) { return budget(kind, p, config); });
}

}  // namespace kpz::butterfly
