// bin-extract's registration: the variants, their options and estimates, and the cases each
// variant must pass besides its defaults (`kpuzzles check`; support/variant_checks_test.cpp runs
// them on every space with three seeds), with the team sweeps the generated tests run with every
// team size. The run is run.cpp, the inputs and the oracle inputs.cpp.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "bin-extract/spec.hpp"
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

// The cases a variant must pass besides its defaults.
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
    case Variant::one_read:
      // One element; an empty bin; every element selected; one chunk of many tiles; chunks of
      // one tile; chunks that do not divide the tiles; more members than chunks; a last tile of a
      // run and a bit; lanes fewer than the runs (each lane takes several); teams of one member.
      return {CheckCase{{"size", 1}},
              CheckCase{{"size", 1000}, {"pattern", 4}},
              CheckCase{{"size", 5000}, {"target-bin", 0}, {"pattern", 2}},
              CheckCase{{"size", 10007}, {"chunks", 1}, {"pattern", 5}},
              CheckCase{{"size", 2560}, {"chunks", 10}},
              CheckCase{{"size", 9999}, {"chunks", 7}, {"pattern", 3}},
              CheckCase{{"size", 265}, {"chunks", 2}},
              CheckCase{{"size", 4099}, {"chunks", 3}}.lanes(4),
              CheckCase{{"size", 3001}, {"chunks", 5}}.team(1).lanes(32)};
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

// The cases the generated tests run with every team size: tiles of one element to 1000, at least
// six teams (at most about 200 tiles: 5003 tiles of one element added nothing but barriers, 20 s
// with 8 OpenMP threads on 2 cores); the histogram is one team's.
std::vector<CheckCase> team_sweep_of(Variant variant) {
  if (variant == Variant::histogram) return {CheckCase{{"size", 1000}}};
  if (variant == Variant::team_scan || variant == Variant::one_read) return {};
  std::vector<CheckCase> sweep;
  for (const std::int64_t tile : {1, 5, 64, 1000})
    sweep.push_back(CheckCase{{"size", std::min<std::int64_t>(5003, 200 * tile + 3)}, {"tile", tile}});
  return sweep;
}

PuzzleSpec make_spec() {
  const OptionSpec bins{"num-bins", "NUM_BINS: bins of width 1/NUM_BINS over [0, 1)", 8, 1, kMaxBins};
  const OptionSpec tile{"tile", "elements per team (0: the backend's default)", 0, 0, 1 << 16};
  const OptionSpec pattern{"pattern",
                           "inputs: 0 mixed (uniform, bin edges, -0, negatives, >= 1), 1 uniform in [0, 1), "
                           "2 all in one bin, 3 only bin edges k/NUM_BINS, 4 only < 0 or >= 1, 5 decreasing "
                           "within every bin, 6 mixed with one NaN (rejected: exit 2)",
                           0, 0, 6};
  const OptionSpec size{"size", "N (random inputs)", (1 << 20) + 3, 1, kMaxSize};
  const OptionSpec target{"target-bin", "the bin to extract", 3, 0, kMaxBins - 1};
  // Workshop estimates (docs/instructor/estimates.md): 10 minutes to read, build and run, 1.5 per
  // line to write (the TODOs' "roughly N lines"), 5 per concept new at that step; a bug hunt 20;
  // a variant that reuses an earlier one's function 5. Rounded to 5 minutes.
  return {
      .name = "bin-extract",
      .summary = "predicate, exclusive scan, scatter: pick out one bin, then partition by all bins",
      .variants =
          {{.name = "extract",
            .id = int(Variant::extract),
            .summary = "the elements of one bin, in input order, from N elements over many teams",
            .options = {size, bins, target, tile, pattern},
            .functions = {"extract", "scan_counts"},
            .checks = checks_of(Variant::extract),
            .team_sweep = team_sweep_of(Variant::extract),
            .trace = trace_config(Variant::extract),
            .minutes = 45},  // 19 lines; new: team counts scanned across teams
           {.name = "histogram",
            .id = int(Variant::histogram),
            .summary = "the seed: 128 values i mod 80 / 100, one team, every bin extracted by a team scan",
            .options = {{"size", "N (random inputs from --pattern when given)", 128, 1, 1 << 14}, bins, pattern},
            .functions = {"histogram"},
            .checks = checks_of(Variant::histogram),
            .team_sweep = team_sweep_of(Variant::histogram),
            .trace = trace_config(Variant::histogram),
            .minutes = 45},  // 16 lines; new: predicate, counts, a team scan of flags
           {.name = "partition",
            .id = int(Variant::partition),
            .summary = "all bins at once: a stable partition by bin and the bin offsets (counting sort)",
            .options = {size, bins, tile, pattern},
            .functions = {"partition", "scan_counts"},
            .checks = checks_of(Variant::partition),
            .team_sweep = team_sweep_of(Variant::partition),
            .trace = trace_config(Variant::partition),
            .minutes = 45,  // 21 lines; new: all bins at once (counting sort)
            .track = Track::stretch},
           {.name = "team-scan",
            .id = int(Variant::team_scan),
            .summary = "--extract with Kokkos' collectives: a TeamVectorRange count, bit masks (BOr), "
                       "team_scan, set bits placed",
            .options = {size, bins, target, tile, pattern},
            .functions = {"team_scan_extract", "scan_counts"},
            .checks = checks_of(Variant::team_scan),
            .team_sweep = team_sweep_of(Variant::team_scan),
            .trace = trace_config(Variant::team_scan),
            // 50 lines; new: loads in flight, staged flags, team_scan, BOr masks, set-bit walk.
            .minutes = 110,
            .track = Track::stretch},
           {.name = "one-read",
            .id = int(Variant::one_read),
            .summary = "--extract reading the input once: every member walks its own chunk, run masks in "
                       "its own scratch, a vector-level scan packs, then every chunk moves to its place",
            .options = {size,
                        bins,
                        target,
                        pattern,
                        {"chunks", "members in all, each packing a chunk of tiles (0: the backend's default)", 0, 0,
                         1 << 20}},
            .functions = {"one_read_extract", "scan_counts"},
            .checks = checks_of(Variant::one_read),
            .team_sweep = team_sweep_of(Variant::one_read),
            .trace = trace_config(Variant::one_read),
            // 31 lines; new: a chunk per member, per-member scratch, run masks, a vector scan.
            .minutes = 75,
            .track = Track::stretch}},
      .run = run,
      // `kpuzzles run`'s peak, measured: about 28 bytes per element for every variant.
      .bytes_needed = [](const VariantSpec&, const Params& p) { return 28.0 * static_cast<double>(p.get("size")); },
      .course_position = 40,
      .learning_order = {"histogram", "extract", "team-scan", "one-read", "partition"},
  };
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::bin_extract
