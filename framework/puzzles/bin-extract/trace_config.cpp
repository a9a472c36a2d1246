// bin-extract's `kpuzzles trace` configurations and budgets (docs/tracing.md): a few dozen
// elements in tiles of 16 (three teams of four members), four bins (the histogram: 12 values, 3 bins). The flat RangePolicy
// kernels between the team kernels (the scan of the tile counts) are traced too, every iteration its own member.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "bin-extract/bin-extract.hpp"
#include "bin-extract/spec.hpp"
#include "kpz/registry.hpp"

namespace kpz::bin_extract {
namespace {

// A nested parallel_scan runs as Kokkos runs it (docs/tracing.md): two passes over the
// elements, and on CUDA's cyclic distribution a team scan and a broadcast per chunk of
// team-size elements. Counts are per team and launch (the largest over the launches).
std::vector<BudgetLimit> budget(Variant variant, const Params& p, const Json& config) {
  const double n = static_cast<double>(p.get("size"));
  const double bins = static_cast<double>(p.get("num-bins"));
  const double tile = config.find("tile") ? config.find("tile")->as_double(n) : n;
  const double team = config.find("team_size") ? config.find("team_size")->as_double(1) : 1;
  const double teams = std::ceil(n / tile);
  const double scan_syncs = 2 * std::ceil(tile / team);  // one scan over a tile, cyclic
  std::vector<BudgetLimit> b = {{"global-writes-per-cell", 1, "each output (and each tile count) once"}};
  if (variant == Variant::histogram) {
    b.push_back({"global-reads", n, "each input once, into scratch"});
    b.push_back({"global-reads-per-cell-per-team", 1, "each input once"});
    b.push_back({"barriers-per-team", 1, "after staging"});
    b.push_back({"collectives-per-team", bins * scan_syncs, "one team scan per bin"});
    b.push_back({"scratch-writes-per-team", 2 * n, "each value and its bin staged once"});
    b.push_back({"scratch-reads-per-team", n + 2 * bins * n + n,
                 "each bin computed once; per bin both scan passes read every bin; each value once"});
  } else if (variant == Variant::extract) {
    b.push_back({"global-reads", 3 * n + team * teams + 2 * teams,
                 "count once, scan twice (two passes), every member the tile offset; the flat scan of the tile "
                 "counts, two passes"});
    b.push_back(
        {"global-reads-per-cell-per-team", std::max(2.0, team), "two scan passes; every member reads the offset"});
    b.push_back({"barriers-per-team", 0, "none: the reduction and the scan synchronise"});
    b.push_back({"collectives-per-team", std::max(1.0, scan_syncs), "the count's reduction, the scatter's scan"});
    b.push_back({"scratch-writes-per-team", 0, "no scratch"});
  } else if (variant == Variant::team_scan) {
    const double words = words_in(static_cast<int>(tile));  // one mask per word of the tile
    b.push_back({"global-reads", 3 * n + team * teams + teams + 1,
                 "count once, stage or mask once, each selected value again (at most N), every member the team "
                 "offset, the scan of the counts"});
    b.push_back({"global-reads-per-cell-per-team", std::max(3.0, team),
                 "count, stage or mask, and (if selected) place; every member reads the offset"});
    // Teams of several members stage the flags: one slot per element, written and read once.
    const double staged = team > 1 ? tile : 0;
    b.push_back({"barriers-per-team", team > 1 ? 1.0 : 0.0,
                 "after staging the flags (teams of several members); the reductions and team_scan "
                 "synchronise themselves"});
    b.push_back({"collectives-per-team", 2, "the count's team reduction, the place's team_scan"});
    b.push_back({"scratch-writes-per-team", words + staged, "each staged flag once, one bit mask per word"});
    b.push_back({"scratch-reads-per-team", words + staged,
                 "each staged flag and each word's mask once, by the member that owns the word"});
  } else if (variant == Variant::one_read) {
    const double chunks = config.find("chunks") ? config.find("chunks")->as_double(1) : 1;
    const double per_chunk = std::ceil(std::ceil(n / kOneReadTile) / chunks);  // tiles of the largest chunk
    const double members = std::min(team, chunks);                             // of a team, with a chunk each
    b.push_back({"global-reads", 2 * n + 2 * (chunks + 1) + 2 * chunks,
                 "each input once for the masks, each selected one again (at most N) and once more from "
                 "staging; the flat scan of the chunk counts, two passes; each chunk's two offsets"});
    b.push_back({"global-reads-per-cell-per-team", 2,
                 "mask, then (if selected) pack; staging and each offset once per team (single broadcasts)"});
    b.push_back({"barriers-per-team", 0, "none: a vector loop's end synchronises the member's lanes"});
    b.push_back({"collectives-per-team", 2,
                 "the place launch's two broadcasts of the chunk's offsets (the vector scans are a member's)"});
    b.push_back({"scratch-writes-per-team", members * per_chunk * kOneReadRuns, "one mask per run"});
    b.push_back(
        {"scratch-reads-per-team", 2 * members * per_chunk * kOneReadRuns, "each mask in both passes of the scan"});
  } else {
    b.push_back({"global-reads", 2 * n + bins * teams * team + 2 * bins * teams + bins + 1,
                 "count and stage each input once; every member the offsets; the flat scan of the tile counts (two "
                 "passes), then each bin's offset"});
    b.push_back({"global-reads-per-cell-per-team", std::max(2.0, team),
                 "each input once per pass; every member the offsets; the flat scan each count in both passes"});
    b.push_back({"barriers-per-team", 2, "count: after zeroing, after counting; scatter: after staging"});
    b.push_back({"collectives-per-team", bins * scan_syncs, "one scan per bin"});
    b.push_back(
        {"scratch-writes-per-team", tile + bins, "zero the counters, one atomic per element (or stage the tile)"});
    b.push_back({"scratch-reads-per-team", 2 * bins * tile, "per bin, both scan passes read the staged tile"});
  }
  return b;
}

}  // namespace

TraceSpec trace_config(Variant id) {
  std::map<std::string, std::int64_t> options{{"size", 40}, {"num-bins", 4}, {"pattern", 0}};
  // The histogram's scans synchronise the team 2 * ceil(N / 4) times per bin: fewer values and
  // bins keep its diagram short.
  if (id == Variant::histogram)
    options["size"] = 12, options["num-bins"] = 3;
  else if (id != Variant::one_read)
    options["tile"] = 16;
  if (id == Variant::extract || id == Variant::team_scan || id == Variant::one_read) options["target-bin"] = 1;
  // --one-read: two chunks of three tiles of 256 (the last tile partial) for one team of four
  // members, two of them without a chunk: a member packs several tiles, members share nothing, and
  // a spare member that works anyway writes past chunk_offsets.
  if (id == Variant::one_read) options["size"] = 5 * kOneReadTile + 40, options["chunks"] = 2;
  // --team-scan stages a tile whose count is a multiple of kPlaceLoads with wide loads and any
  // other tile element by element: tiles of 16, 16 and 10 run both.
  if (id == Variant::team_scan) options["size"] = 42;
  return traceable(options, 4, [id](const Params& p, const Json& config) { return budget(id, p, config); });
}

}  // namespace kpz::bin_extract
