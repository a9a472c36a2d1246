// basics step 13 (--scratch-levels): launch shape, scratch validation at both levels, inputs,
// oracle, check and the trace's budget.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "basics/basics.hpp"
#include "basics/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/errors.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::basics {

std::vector<int> hot_values(std::uint64_t seed, std::size_t n, int bins, double hot_share, bool hot_first) {
  Rng rng(seed);
  const int hot = std::min(kHotBins, bins);
  std::vector<int> values(n);
  for (auto& v : values) {
    if (rng.uniform() < hot_share) {
      const int k = static_cast<int>(rng.integer(0, hot - 1));
      v = hot_first ? k : static_cast<int>((static_cast<std::int64_t>(2 * k + 1) * bins) / (2 * hot));
    } else {
      v = static_cast<int>(rng.integer(0, bins - 1));
    }
  }
  return values;
}

KernelNeeds levels_needs() {
  return KernelNeeds{.vector_loops = true, .gpu_team = 64, .gpu_vector = 4, .host_vector = 1};
}

std::vector<BudgetLimit> levels_budget(const Params& p) {
  const double n = static_cast<double>(p.get("size")), bins = static_cast<double>(p.get("bins"));
  const double tile = static_cast<double>(p.get("tile"));
  const double teams = static_cast<double>((p.get("size") + p.get("tile") - 1) / p.get("tile"));
  return {
      {"global-reads", n + teams * bins, "each value once, at most one atomic per bin per team"},
      {"global-reads-per-cell-per-team", 1, "a value once; a bin's one atomic"},
      {"global-writes-per-cell", teams, "one atomic per team into a bin"},
      {"barriers-per-team", 2, "after zeroing the table, after counting"},
      {"collectives-per-team", 0, ""},
      {"scratch-writes-per-team", bins + tile, "each counter zeroed once, one atomic per value"},
      {"scratch-reads-per-team", tile + bins, "one atomic per value, each counter read once to merge"},
  };
}

namespace {

// Refuses, before any launch, a table whose part at either level is more than Space allows: Kokkos
// would hand the views null pointers without a word.
template <class Space>
void check_levels(int bins, int fast_bins) {
  using Table = ScratchView<int*, Space>;
  check_scratch_option<Space>("basics --scratch-levels with " + std::to_string(fast_bins) + " bins in level 0",
                              "--level0-bins", fast_bins, 0, [](int x) { return Table::shmem_size(x); });
  check_scratch_option<Space>("basics --scratch-levels with " + std::to_string(bins - fast_bins) + " bins in level 1",
                              "--bins", bins, 1,
                              [fast_bins](int x) { return Table::shmem_size(std::max(0, x - fast_bins)); });
}

// --level0-bins, or by default as many of the lowest bins as level 0 holds (2 of the worked
// example's 5, so that both levels are used).
template <class Space>
int fast_bins_for(const RunRequest& req, int bins) {
  const std::int64_t asked = req.params.get("level0-bins");
  if (asked > bins)
    throw UsageError("--level0-bins " + std::to_string(asked) + " is more than the " + std::to_string(bins) + " bins");
  if (asked >= 0) return static_cast<int>(asked);
  return worked_example(req, {"size", "bins"}) ? 2 : level0_bins_max<Space>(bins);
}

template <class Space>
RunReport levels_on(const Space& space, const RunRequest& req) {
  const int n = static_cast<int>(req.params.get("size"));
  const int bins = static_cast<int>(req.params.get("bins"));
  const int tile = static_cast<int>(req.params.get("tile"));
  const int fast_bins = fast_bins_for<Space>(req, bins);
  check_levels<Space>(bins, fast_bins);
  const LaunchShape& shape = req.launch;  // for levels_needs (spec.cpp)
  const Launch launch{.team_size = shape.team_size, .tile = tile, .vector_length = shape.vector_length};

  // Half the values in a few hot bins spread over both levels, the rest uniform: counts that
  // differ, and counters that many members hit at once. The worked example is the race check's
  // configuration: two members of a team meet on a level-0 counter in teams 0 and 1 and on a
  // level-1 counter in teams 0 and 2, so a plain += on either part is a race there.
  const bool worked = worked_example(req, {"size", "bins"});
  std::vector<int> values = hot_values(req.seed, static_cast<std::size_t>(n), bins, 0.5, false);
  if (worked) values = {1, 4, 1, 4, 0, 2, 0, 3, 4, 0, 4, 1};
  auto dvalues = to_device(space, "values", values);
  const View<int*, Space> dbins = poisoned_output<int>(space, "bins", static_cast<std::size_t>(bins));
  space.fence();
  kernels<Space>(req.impl).histogram_levels(space, launch, fast_bins, dvalues, dbins);
  space.fence();
  const std::vector<int> got = to_host(dbins);
  std::vector<int> expected(static_cast<std::size_t>(bins), 0);
  for (const int v : values) ++expected[static_cast<std::size_t>(v)];

  RunReport report;
  report.config.set("size", n).set("bins", bins).set("tile", tile).set("teams", (n + tile - 1) / tile);
  report.config.set("level0_bins", fast_bins).set("level1_bins", bins - fast_bins);
  report.config.set("team_size", launch.team_size).set("vector_length", launch.vector_length);
  report.config.set("worked_example", worked);
  const auto owner = [fast_bins](std::size_t b) {
    return "bin " + std::to_string(b) + " (level " + (static_cast<int>(b) < fast_bins ? "0" : "1") +
           " of each team's table): the launch (TODO 26), the count (TODO 27) or the merge (TODO 28)";
  };
  compare_exact(report, req, got, expected, owner, "values", values);
  return report;
}

}  // namespace

const Runner run_levels = KPZ_ON_REQUEST_SPACE(levels_on);

}  // namespace kpz::basics
