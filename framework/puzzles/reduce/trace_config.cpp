// reduce's `kpuzzles trace` configurations and budgets (docs/tracing.md). Every rung runs three
// teams of four members on a small input; the budgets say what the ladder promises: each input
// element read once, one partial sum written per team, and the barriers and scratch traffic of
// the tree the rung builds. --builtin is one flat parallel_reduce (no team).
#include <cmath>
#include <string>
#include <vector>

#include "reduce/reduce.hpp"

namespace kpz::reduce {
namespace {

// The scratch path of the 32-lane XorExchange (the trace build runs on Serial, where it never
// shuffles): lane i's value staged once, then per step (masks 16 .. 1) one read and one write
// per lane, with a barrier after the staging and after each step.
constexpr double kWarpSteps = 5;

std::vector<BudgetLimit> budget(const VariantInfo& v, const Params& p) {
  const double n = static_cast<double>(p.get("size"));
  if (v.variant == Variant::builtin) {
    // One flat parallel_reduce (each iteration its own member, the launch one team): each input
    // read once; the result goes through a plain subview, which the trace does not record.
    return {{"global-reads", n, "each input once"},
            {"global-reads-per-cell-per-team", 1, "each element once"},
            {"barriers-per-team", 0, "a flat kernel has none"},
            {"collectives-per-team", 0, "Kokkos joins the iterations' values itself"},
            {"scratch-writes-per-team", 0, "no scratch"}};
  }
  if (v.variant == Variant::team_reduce) {
    // Kokkos' collectives only: each value read once, one partial sum per team, no scratch, no
    // barrier; the one team reduction of each team (the row sums are lane-level, not team-level).
    const double tile = static_cast<double>(p.get("tile"));
    return {{"global-reads", n + std::ceil(n / tile), "each input once, then each partial sum once"},
            {"global-reads-per-cell-per-team", 1, "each element once"},
            {"global-writes-per-cell", 1, "one partial sum per team"},
            {"barriers-per-team", 0, "none: the nested reductions synchronise what they need"},
            {"collectives-per-team", 1, "the TeamThreadRange parallel_reduce (the finishing launch: one too)"},
            {"scratch-writes-per-team", 0, "no scratch"}};
  }
  const double lanes = static_cast<double>(p.get("lanes"));
  const double steps = std::log2(lanes);  // tree levels from lanes slots down to one
  const bool recursive = v.variant == Variant::recursive;
  // The ladder reads the input once and the finishing launch (launch.cpp) the partial sums once;
  // --recursive reads every level once, down to one value.
  double reads = n + std::ceil(n / (lanes * v.unroll));
  if (recursive) {
    reads = 0;
    for (double level = n; level > 1; level = std::ceil(level / lanes)) reads += level;
  }
  std::vector<BudgetLimit> b = {
      {"global-reads", reads, recursive ? "each level once" : "each input once, then each partial sum once"},
      {"global-reads-per-cell-per-team", 1, "each element once"},
      {"global-writes-per-cell", 1, "one partial sum per team"},
      {"collectives-per-team", recursive ? 0.0 : 1.0,
       recursive ? "only team_barrier()" : "the finishing launch's reduction"},
  };
  switch (v.variant) {
    case Variant::neighbored:
    case Variant::neighbored_less:
    case Variant::interleaved:
    case Variant::unroll2:
    case Variant::unroll4:
    case Variant::unroll8:
    case Variant::recursive:
      // lanes - 1 additions (two reads, one write each) after lanes loads; s(0) read once more.
      b.push_back({"barriers-per-team", 1 + steps, "after the loads, then one per tree level"});
      b.push_back({"scratch-writes-per-team", 2 * lanes - 1, "each slot loaded once, one write per addition"});
      b.push_back({"scratch-reads-per-team", 2 * (lanes - 1) + 1, "two per addition, then s(0)"});
      break;
    case Variant::unroll_warps8:
    case Variant::complete_unroll:
    case Variant::template_lanes:
      // The tree stops at 64 slots; the last 64 go through the 32-lane exchange.
      b.push_back({"barriers-per-team", 1 + (steps - 6) + 1 + kWarpSteps,
                   "after the loads, one per tree level down to 64, then the exchange's"});
      b.push_back({"scratch-writes-per-team", lanes + (lanes - 64) + 32 + 32 * kWarpSteps,
                   "loads, tree additions down to 64, the exchange's lanes once per step"});
      b.push_back({"scratch-reads-per-team", 2 * (lanes - 64) + 64 + 32 * kWarpSteps + 1,
                   "two per tree addition, the last 64 once, one per exchange lane and step, the total"});
      break;
    default:
      break;
  }
  return b;
}

}  // namespace

TraceSpec trace_config(const VariantInfo& i) {
  if (i.variant == Variant::builtin)  // a flat kernel only (team size 0): 40 values, each iteration its own member
    return traceable({{"size", 40}, {"float", 0}}, 0, [i](const Params& p) { return budget(i, p); });
  if (i.variant == Variant::persistent)
    return {.not_traceable_reason =
                "it reads its input through a raw Kokkos::View of 16-byte Quads made from in.data(), and its "
                "last-team-done finish hands the partial sums between teams through raw pointers (an atomic counter, "
                "relaxed loads) and fences, which the trace's model (teams never synchronise inside a kernel) cannot "
                "express"};
  if (i.variant == Variant::team_reduce)
    // Rows are vector length (the trace build's 64) x 16 = 1024 values: tiles of four rows, one
    // per member, and two and a half tiles (three teams, the last with a short row).
    return traceable({{"size", 10240}, {"tile", 4096}, {"float", 0}}, 4, [i](const Params& p) { return budget(i, p); });
  // Tiles of lanes * unroll elements: the input covers two and a half tiles (three teams); the
  // warp rungs need 64 lanes (tiles of 512), so they get a tile and a bit (two teams), which
  // keeps their diagrams readable.
  const bool warp = warp_finish_variant(i.variant);
  const std::int64_t lanes = warp ? 64 : i.variant == Variant::recursive ? 4 : 16;
  const std::int64_t size = i.variant == Variant::recursive ? 40 : warp ? 600 : lanes * i.unroll * 5 / 2;
  return traceable({{"size", size}, {"lanes", lanes}, {"float", 0}}, 4, [i](const Params& p) { return budget(i, p); });
}

}  // namespace kpz::reduce
