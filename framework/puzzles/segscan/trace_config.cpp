// segscan's `kpuzzles trace` configurations and budgets (docs/tracing.md). The one-team scans
// run the worked example (ten elements); the multi-team kernels run a few dozen elements in tiles
// of 8 (the scan of the tiles' carries is a second, smaller multi-team launch). Flat RangePolicy
// kernels (head flags, gathers, products) are traced too, every iteration its own member: a
// flat kernel's reads of one element count per iteration, not per launch.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "kpz/registry.hpp"
#include "segscan/spec.hpp"

namespace kpz::segscan {
namespace {

// Hillis-Steele over m elements in ceil(log2 m) steps: m staged, then per step m writes and two
// reads per element past the offset d, one below it; afterwards one read per output.
double hillis_steele_reads(double m, double steps) {
  return 2 * m * steps - (std::pow(2, steps) - 1) + m;
}

std::vector<BudgetLimit> budget(Kind kind, const Params& p, const Json& config) {
  const double n = static_cast<double>(p.get("size"));
  const double team = config.find("team_size") ? config.find("team_size")->as_double(1) : 1;
  const double tile = config.find("tile") ? config.find("tile")->as_double(n) : n;
  const double m = one_team(kind) ? n : tile;
  const double steps = std::ceil(std::log2(std::max(2.0, m)));
  const double leaves = std::pow(2, steps);  // Blelloch's tree: leaves past n hold the identity
  std::vector<BudgetLimit> b = {{"global-writes-per-cell", 1, "each output once"},
                                {"collectives-per-team", 0, "only team_barrier()"}};
  if (kind == Kind::simple) {
    b.push_back({"global-reads", 2 * n, "each value and flag once, into scratch"});
    b.push_back({"global-reads-per-cell-per-team", 1, "each value and flag once"});
    b.push_back({"barriers-per-team", 1 + steps, "after staging, then one per step"});
    b.push_back({"scratch-writes-per-team", n * (1 + steps), "staged once, then once per step"});
    b.push_back({"scratch-reads-per-team", hillis_steele_reads(n, steps), "two per combine, one per copy and output"});
  } else if (kind == Kind::exclusive) {
    b.push_back({"global-reads", 3 * n - 1, "values and flags staged once; flags once more for the segment starts"});
    b.push_back({"global-reads-per-cell-per-team", 2, "each flag twice: staging and the segment start"});
    b.push_back({"barriers-per-team", 1 + steps, "after staging, then one per step"});
    b.push_back({"scratch-writes-per-team", n * (1 + steps), "staged once, then once per step"});
    b.push_back({"scratch-reads-per-team", hillis_steele_reads(n, steps), "two per combine, one per copy and output"});
  } else if (kind == Kind::work_efficient) {
    b[1] = {"collectives-per-team", 1, "at most the single that clears the root"};
    b.push_back({"global-reads", 4 * n, "each value and flag twice: staging and the last combine"});
    b.push_back({"global-reads-per-cell-per-team", 2, "each value and flag twice"});
    b.push_back({"barriers-per-team", 2 + 2 * steps, "after staging and the root, one per level up and down"});
    b.push_back({"scratch-writes-per-team", 4 * leaves - 2,
                 "leaves staged, one per up-sweep node, the root, two per down-sweep node"});
    b.push_back({"scratch-reads-per-team", 5 * (leaves - 1) + n,
                 "two per up-sweep node, three per down-sweep node, one per output"});
  } else if (kind == Kind::vector_scan) {
    // Two launches (tiles, then the carries' parallel_scan); a segment that began before its tile
    // is written by the tile and completed by the carries.
    b[0] = {"global-writes-per-cell", 2, "each total once; an open segment's once more by the carries launch"};
    b[1] = {"collectives-per-team", 3 * n, "vector walks and scans of lanes, row totals and tile totals, singles"};
    b.push_back({"barriers-per-team", 3, "after the lanes' walks, the lanes' scans and the rows' carries"});
    // The row the launch chose for this run's data (run config's "row": 512 or 2048 elements).
    const double row = config.find("row") ? config.find("row")->as_double(kShortSegmentRow) : kShortSegmentRow;
    const double rows = std::ceil(tile / row);
    const double lanes = config.find("vector_length") ? config.find("vector_length")->as_double(1) : 1;
    b.push_back({"scratch-writes-per-team", 4 * rows * lanes + 6 * rows,
                 "four per lane (total, lead, pending, carry) and a few per row (open segment, total, carry), "
                 "nothing per element"});
  } else {
    // multi-team, reduce, spmv: per tile a Hillis-Steele scan, the aggregates, then the carry-in.
    // reduce and spmv: their flat kernels (one iteration per segment) read an offset twice, as a
    // bound and as an index.
    b.push_back({"global-reads-per-cell-per-team", std::max(kind == Kind::multi_team ? 1.0 : 2.0, team),
                 "each value and flag once; every member reads its tile's carry and first head"});
    b.push_back({"barriers-per-team", 1 + steps, "after staging, then one per step of the tile's scan"});
    b.push_back({"scratch-writes-per-team", tile * (1 + steps), "staged once, then once per step"});
    b.push_back({"scratch-reads-per-team", hillis_steele_reads(tile, steps) + 3 * tile,
                 "the tile's scan, then at most three flag or value reads per element for the aggregates"});
  }
  return b;
}

}  // namespace

// Called by make_spec() (spec.cpp).
TraceSpec trace_config(Kind kind) {
  std::map<std::string, std::int64_t> options{{"int", 1}};
  if (!one_team(kind)) {
    options["size"] = kind == Kind::spmv ? 6 : 40;
    options["tile"] = 8;
    options["mean-length"] = kind == Kind::spmv ? 2 : 5;
    if (kind != Kind::vector_scan) options["merge-path"] = 0;  // the learner's kernels, not the merge path
    // --vector-scan: 3 tiles (16, 16, 8 elements) of rows of 4, one row per member: the rows'
    // carries cross members, so a missing barrier between the rows' steps shows.
    if (kind == Kind::vector_scan) options["tile"] = 16, options["row"] = 4;
  }
  return traceable(options, 4, [kind](const Params& p, const Json& config) { return budget(kind, p, config); });
}

}  // namespace kpz::segscan
