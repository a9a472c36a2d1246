// conv1d's budgets for `kpuzzles trace` (docs/tracing.md) and the small configurations it runs.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "conv1d/conv1d.hpp"
#include "conv1d/spec.hpp"

namespace kpz::conv1d {

namespace {

// Budgets for `kpuzzles trace` (docs/tracing.md): every kernel reads each input element at most
// once per team (the halo is read by two teams), writes each output once, and needs one barrier.
std::vector<BudgetLimit> budget(Variant variant, const Params& p, const Json& config) {
  const double n = static_cast<double>(p.get("size"));
  const double taps =
      effective_taps(static_cast<std::size_t>(p.get("size")), static_cast<std::size_t>(p.get("kernel-size")));
  const double tile = config.find("tile") ? config.find("tile")->as_double(n) : n;
  const double teams = config.find("teams") ? config.find("teams")->as_double(1) : 1;
  std::vector<BudgetLimit> b = {
      {"global-reads-per-cell-per-team", 1, "each input element once per team"},
      {"global-writes-per-cell", 1, "each output once"},
      {"barriers-per-team", 1, "one, between staging and computing"},
      {"collectives-per-team", 0, ""},
  };
  if (variant == Variant::simple) {
    double terms = 0;
    for (double i = 0; i < n; ++i) terms += std::min(taps, n - i);
    b.push_back({"global-reads", n + taps, "a and b once"});
    b.push_back({"scratch-writes-per-team", n + taps, "a and b staged once"});
    b.push_back({"scratch-reads-per-team", 2 * terms, "two per term"});
  } else if (variant == Variant::general) {
    const double tap_quads = std::ceil(taps / 4);
    b.push_back({"global-reads", n + teams * (4 * tap_quads + 3) + teams * taps,
                 "a once plus a halo of ceil(K/4) Quads per team, b once per team"});
    b.push_back({"scratch-writes-per-team", std::ceil(tile / 4) + 2 * tap_quads, "one store per Quad"});
    b.push_back(
        {"scratch-reads-per-team", std::ceil(tile / 4) * (1 + 2 * tap_quads), "per 4 outputs: 1 + 2 per tap Quad"});
  } else if (variant == Variant::vector) {
    // The trace build's packs hold one element (kpz/simd_pack.hpp), so a row is lanes x U outputs.
    const double lanes = config.find("vector_length") ? config.find("vector_length")->as_double(1) : 1;
    const double row = lanes * kPacksPerLane;
    const double rows = std::ceil(tile / row);
    const double staged = rows * row + taps - 1;
    b.push_back({"global-reads", n + teams * (staged - tile) + teams * taps,
                 "a once plus the last row's reach and the halo per team, b once per team"});
    b.push_back({"scratch-writes-per-team", staged + taps, "the staged inputs and b once"});
    b.push_back({"scratch-reads-per-team", rows * lanes * taps * (kPacksPerLane + 1),
                 "per lane and tap: its U inputs and the weight"});
  } else if (variant == Variant::bug_missing_barrier) {
    // Only b in scratch: a is read from global memory once per term.
    double terms = 0;
    for (double i = 0; i < n; ++i) terms += std::min(taps, n - i);
    b.front() = {"global-reads-per-cell-per-team", taps, "each input element once per term"};
    b.push_back({"global-reads", terms + teams * taps, "a once per term, b once per team"});
    b.push_back({"scratch-writes-per-team", taps, "b staged once"});
    b.push_back({"scratch-reads-per-team", tile * taps, "one per term"});
  } else {
    b.push_back(
        {"global-reads", n + teams * (taps - 1) + teams * taps, "a once plus a halo of K-1 per team, b once per team"});
    b.push_back({"scratch-writes-per-team", tile + 2 * taps - 1, "the tile, its halo and b staged once"});
    b.push_back({"scratch-reads-per-team", 2 * tile * taps, "two per term"});
  }
  return b;
}

}  // namespace

// `kpuzzles trace`: small configurations with three teams or fewer, four members per team.
TraceSpec trace_config(Variant variant) {
  std::map<std::string, std::int64_t> options;
  if (variant == Variant::general || variant == Variant::vector)
    options = {{"size", 37}, {"kernel-size", 5}, {"tile", 16}};
  return traceable(std::move(options), 4,
                   [variant](const Params& p, const Json& config) { return budget(variant, p, config); });
}

}  // namespace kpz::conv1d
