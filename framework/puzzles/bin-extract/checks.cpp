// bin-extract's learner-loop checks: the cases each variant must pass besides its defaults (`kpuzzles check`; support/variant_checks_test.cpp runs them on every
// space with three seeds), and the team sweeps the generated tests run with every team size.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "bin-extract/host.hpp"
#include "bin-extract/variants.hpp"
#include "kpz/registry.hpp"

namespace kpz::bin_extract {

namespace {

// The corners of the input (host.hpp's patterns): N = 1 selected or not; an empty bin; negatives
// and values >= 1 clamped into the first and the last bin; every element selected; values on
// bin edges (0.25 = 2/8 is in bin 2, 1.0 in the last); NUM_BINS not a power of two; one bin;
// tiles of one element (70 teams); exactly one tile.
std::vector<CheckCase> extract_corners() {
  const auto extract = [](std::int64_t n, std::int64_t bins, std::int64_t target, std::int64_t tile,
                          std::int64_t pattern) {
    return CheckCase{{"size", n}, {"num-bins", bins}, {"target-bin", target}, {"tile", tile}, {"pattern", pattern}};
  };
  return {extract(1, 8, 3, 0, kOneBin),      extract(1, 8, 3, 0, kOutside),     extract(1000, 8, 3, 64, kOutside),
          extract(1000, 8, 0, 64, kOutside), extract(1000, 8, 7, 64, kOutside), extract(1000, 8, 5, 64, kOneBin),
          extract(999, 8, 2, 64, kEdges),    extract(999, 8, 4, 64, kEdges),    extract(999, 4, 3, 7, kEdges),
          extract(5003, 10, 3, 100, kMixed), extract(5003, 1, 0, 100, kMixed),  extract(70, 8, 3, 1, kMixed),
          extract(64, 8, 3, 64, kMixed)};
}

// The same corners for the whole partition, 256 bins, and a tile of 4096 over a descending input.
std::vector<CheckCase> partition_corners() {
  const auto partition = [](std::int64_t n, std::int64_t bins, std::int64_t tile, std::int64_t pattern) {
    return CheckCase{{"size", n}, {"num-bins", bins}, {"tile", tile}, {"pattern", pattern}};
  };
  return {partition(1, 8, 0, kMixed),           partition(2, 8, 1, kMixed),      partition(1000, 8, 64, kOneBin),
          partition(1000, 8, 64, kOutside),     partition(999, 8, 64, kEdges),   partition(999, 4, 7, kEdges),
          partition(5003, 10, 100, kMixed),     partition(5003, 1, 100, kMixed), partition(300, 256, 32, kMixed),
          partition(4099, 8, 4096, kDescending)};
}

std::vector<CheckCase> operator+(std::vector<CheckCase> a, const std::vector<CheckCase>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

std::vector<CheckCase> checks_of(Variant variant) {
  switch (variant) {
    case Variant::extract:
      return std::vector<CheckCase>{CheckCase{{"size", 1}},
                                    CheckCase{{"size", 5000}, {"target-bin", 0}, {"pattern", 2}},
                                    CheckCase{{"size", 10007}, {"tile", 64}, {"pattern", 4}}} +
             extract_corners();
    case Variant::partition:
      return std::vector<CheckCase>{CheckCase{{"size", 1}},
                                    CheckCase{{"size", 10007}, {"num-bins", 3}, {"tile", 100}, {"pattern", 5}},
                                    CheckCase{{"size", 999}}.team(1)} +
             partition_corners();
    case Variant::team_scan:
      // One element, an empty bin, every element selected, many teams of a tile that does not
      // divide N, teams of one member, and vector lanes (on a GPU they get teams of one member:
      // team_scan_shape).
      return {CheckCase{{"size", 1}},
              CheckCase{{"size", 1000}, {"pattern", 4}},
              CheckCase{{"size", 5000}, {"target-bin", 0}, {"pattern", 2}},
              CheckCase{{"size", 10007}, {"tile", 100}, {"pattern", 5}},
              CheckCase{{"size", 999}, {"tile", 37}}.team(1),
              CheckCase{{"size", 4099}, {"tile", 1000}}.lanes(4),
              CheckCase{{"size", 3001}, {"tile", 250}}.team(1).lanes(32)};
    case Variant::histogram: {
      // One team's histogram: small and odd sizes, one to 16 bins, every kind of input.
      std::vector<CheckCase> checks = {CheckCase{{"size", 1}}, CheckCase{{"size", 1000}, {"pattern", 3}},
                                       CheckCase{{"num-bins", 1}, {"size", 77}}.team(1)};
      for (const std::int64_t n : {1, 2, 7, 100, 1000})
        for (const std::int64_t bins : {1, 3, 8, 16})
          for (const std::int64_t pattern : {kMixed, kEdges, kOutside, kDescending})
            checks.push_back(CheckCase{{"size", n}, {"num-bins", bins}, {"pattern", pattern}});
      return checks;
    }
  }
  return {};
}

// Tiles of one element to 1000, at least six teams (at most about 200 tiles: 5003 tiles of one
// element added nothing but barriers, 20 s with 8 OpenMP threads on 2 cores); the histogram is
// one team's.
std::vector<CheckCase> team_sweep_of(Variant variant) {
  if (variant == Variant::histogram) return {CheckCase{{"size", 1000}}};
  if (variant == Variant::team_scan) return {};
  std::vector<CheckCase> sweep;
  for (const std::int64_t tile : {1, 5, 64, 1000})
    sweep.push_back(CheckCase{{"size", std::min<std::int64_t>(5003, 200 * tile + 3)}, {"tile", tile}});
  return sweep;
}

}  // namespace kpz::bin_extract
