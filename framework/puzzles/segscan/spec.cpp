// segscan's registration: variants, options, the learner-loop checks, memory and bytes. The
// runners are run_scans.cpp and run_reductions.cpp; inputs, oracle and step tables have files of
// their own.
#include <algorithm>
#include <string>
#include <vector>

#include "kpz/registry.hpp"
#include "segscan/spec.hpp"

namespace kpz::segscan {

// How `kpuzzles trace` runs a variant, and its budget (trace_config.cpp).
TraceSpec trace_config(Kind kind);

namespace {

// `checks` and the edge cases of a segmented scan or reduction, ints and floats: N = 1; empty segments
// first, last and after every other one (shape 4); one segment covering everything (shape 3);
// segments of length 1 (shape 2); for the one-team scans, sizes around a warp; for multi-team, N
// not a multiple of the tile and carries scanned in 6 levels (tiles of 4).
std::vector<CheckCase> with_edges(Kind kind, std::vector<CheckCase> checks) {
  const bool spmv = kind == Kind::spmv;
  const auto tiled = [&](CheckCase c, std::int64_t tile) {
    if (!one_team(kind)) c.options.emplace_back("tile", tile);
    return c;
  };
  for (const std::int64_t ints : {0, 1}) {
    for (const std::int64_t shape : {0, 3})
      checks.push_back(CheckCase{{"size", 1}, {"int", ints}, {"shape", shape}, {"mean-length", 1}});
    checks.push_back(tiled({{"size", spmv ? 301 : 997}, {"shape", 4}, {"mean-length", 5}, {"int", ints}}, 16));
    checks.push_back(tiled({{"size", one_team(kind) ? 1000 : 10007}, {"shape", 3}, {"int", ints}}, 16));
    checks.push_back(tiled({{"size", spmv ? 513 : 1025}, {"shape", 2}, {"int", ints}}, 64));
    if (one_team(kind))
      for (const std::int64_t n : {2, 3, 31, 32, 33, 100, 1000})
        checks.push_back(CheckCase{{"size", n}, {"mean-length", 4}, {"int", ints}});
    if (kind == Kind::multi_team)
      for (const std::int64_t shape : {0, 3})
        checks.push_back(CheckCase{{"size", 8000}, {"tile", 4}, {"mean-length", 50}, {"shape", shape}, {"int", ints}});
  }
  if (kind == Kind::multi_team)
    for (const std::int64_t tile : {2, 7, 64, 1000, 1024})
      for (const std::int64_t n : {tile - 1, tile + 1, 3 * tile + 5})
        checks.push_back(CheckCase{{"size", n}, {"tile", tile}, {"mean-length", 6}});
  return checks;
}

// With every team size (the generated TeamSweep tests): the merge-path kernel with a tile of 37
// items and its own.
std::vector<CheckCase> with_merge_path_sweep(std::vector<CheckCase> sweep) {
  for (const std::int64_t tile : {37, 0})
    sweep.push_back(CheckCase{{"size", 4001}, {"tile", tile}, {"shape", 1}, {"merge-path", 1}});
  return sweep;
}

// `kpuzzles run`'s peak, measured at 2^21 and 2^22: per value (or nonzero) and per segment (or
// row): scans 42 + 12, reductions 19 + 55, SpMV 34 per nonzero + 38 per row.
double bytes_needed(const VariantSpec& variant, const Params& p) {
  const double size = static_cast<double>(p.get("size")), mean = static_cast<double>(p.get("mean-length"));
  const std::int64_t shape = p.get("shape");
  const Kind kind = static_cast<Kind>(variant.id);
  if (kind == Kind::spmv) return 34.0 * std::min(size * mean, static_cast<double>(kMaxSize)) + 38.0 * size;
  const double segs = shape == 2 ? size : shape == 3 ? 1.0 : std::min(size, (shape == 4 ? 2.0 : 1.0) * size / mean);
  return is_scan(kind) ? 42.0 * size + 12.0 * segs : 19.0 * size + 55.0 * segs;
}

PuzzleSpec make_spec() {
  const OptionSpec mean{"mean-length", "L: random segment lengths 0..2L (shape 0)", 32, 1, kMaxSize};
  const OptionSpec ints{"int", "1: int values (exact); 0: float values (a tolerance)", 0, 0, 1};
  const OptionSpec shape{"shape",
                         "segments: 0 random lengths 0..2L, 1 heavy tail, 2 all of length 1, 3 one segment, "
                         "4 empty segments between the others",
                         0, 0, 4};
  const OptionSpec bad{"bad-input",
                       "replace the segments by a broken description to see the checks: 1 offsets not monotone, "
                       "2 an offset past N, 3 segment ids decreasing",
                       0, 0, 3};
  const OptionSpec tile{"tile", "elements per team (0: 1024), or merge items per team with --merge-path 1", 0, 0,
                        1 << 13};
  const OptionSpec vtile{"tile", "elements per team (0: the launch shape's: 16384 on a GPU, 4096 on a CPU)", 0, 0,
                         1 << 15};
  const OptionSpec row{"row",
                       "elements per row, one member's vector scan (0: 512 where segments average under 8 "
                       "elements, else 2048)",
                       0, 0, 1 << 15};
  const OptionSpec merge{"merge-path", "1: run the framework's merge-path kernel (the benchmark's) instead of yours", 0,
                         0, 1};
  auto size = [](std::int64_t fallback, std::int64_t max, const char* help) {
    return OptionSpec{"size", help, fallback, 1, max};
  };
  auto mean_of = [&](std::int64_t fallback) {
    OptionSpec o = mean;
    o.fallback = fallback;
    return o;
  };
  // The learner loop: the function each variant exercises, then `combine`, which every variant
  // uses; the cases it must pass besides its defaults; the one-team scans swept on 300 values.
  const std::vector<CheckCase> one_team = {CheckCase{{"size", 1}}, CheckCase{{"size", 100}, {"shape", 4}},
                                           CheckCase{{"size", 37}, {"shape", 3}, {"int", 1}}.team(1)};
  const std::vector<CheckCase> one_team_sweep = {CheckCase{{"size", 300}, {"mean-length", 5}}};
  const std::vector<OptionSpec> one_team_options = {size(10, 1 << 16, "N (random inputs when given)"), mean_of(3), ints,
                                                    shape, bad};
  // Workshop estimates (docs/instructor/estimates.md): 10 minutes to read, build and run, 1.5 per
  // line to write (the TODOs' "roughly N lines"), 5 per concept new at that step; a bug hunt 20;
  // a variant that reuses an earlier one's function 5. Rounded to 5 minutes.
  return {
      .name = "segscan",
      .summary = "segmented scans with head flags in team scratch, carries across teams, segmented reduce and SpMV",
      .variants =
          {{.name = "multi-team",
            .id = int(Kind::multi_team),
            .summary = "inclusive segmented scan of any N over many teams: tile scans, scan of tile carries, carry-in",
            .options = {size((1 << 20) + 3, kMaxSize, "N (random values and segments)"), mean, ints, shape, bad, tile},
            .functions = {"multi_team", "combine"},
            .checks = with_edges(Kind::multi_team,
                                 {CheckCase{{"size", 1}}, CheckCase{{"size", 5000}, {"tile", 64}, {"shape", 1}},
                                  CheckCase{{"size", 3000}, {"shape", 3}, {"int", 1}, {"tile", 128}}}),
            .team_sweep = {CheckCase{{"size", 3001}, {"tile", 64}, {"mean-length", 50}},
                           CheckCase{{"size", 3001}, {"tile", 64}, {"int", 1}, {"shape", 1}}},
            .trace = trace_config(Kind::multi_team),
            .minutes = 40},  // 17 lines; new: carries across teams
           {.name = "simple",
            .id = int(Kind::simple),
            .summary = "ids {0,0,0,1,1,2,2,2,2,3}, values 0..9, one team: Hillis-Steele steps 1, 2, 4, 8 in scratch",
            .options = one_team_options,
            .functions = {"hillis_steele", "one_team_scan", "combine"},
            .checks = with_edges(Kind::simple, one_team),
            .team_sweep = one_team_sweep,
            .trace = trace_config(Kind::simple),
            .minutes = 40},  // 13 lines; new: the segmented operator, Hillis-Steele steps
           {.name = "exclusive",
            .id = int(Kind::exclusive),
            .summary = "the worked example, exclusive: every segment restarts at 0",
            .options = one_team_options,
            .functions = {"exclusive", "combine"},
            .checks = with_edges(Kind::exclusive, one_team),
            .team_sweep = one_team_sweep,
            .trace = trace_config(Kind::exclusive),
            .minutes = 15},  // 3 lines
           {.name = "work-efficient",
            .id = int(Kind::work_efficient),
            .summary = "the worked example by a Blelloch up-sweep and down-sweep in scratch (same results)",
            .options = one_team_options,
            .functions = {"work_efficient", "combine"},
            .checks = with_edges(Kind::work_efficient, one_team),
            .team_sweep = one_team_sweep,
            .trace = trace_config(Kind::work_efficient),
            .minutes = 55,  // 26 lines; new: Blelloch up-sweep and down-sweep
            .track = Track::stretch},
           {.name = "reduce",
            .id = int(Kind::reduce),
            .summary = "segment totals from CSR offsets (empty segments give 0): a scan read at segment ends",
            .options = {size((1 << 20) + 3, kMaxSize, "N values (random values and segments)"), mean_of(8), ints, shape,
                        bad, tile, merge},
            .functions = {"reduce", "combine"},
            .checks =
                with_edges(Kind::reduce, {CheckCase{{"size", 1}}, CheckCase{{"size", 5000}, {"shape", 4}, {"tile", 64}},
                                          CheckCase{{"size", 3001}, {"shape", 2}, {"int", 1}}}),
            .team_sweep = with_merge_path_sweep({CheckCase{{"size", 3001}, {"tile", 64}, {"mean-length", 5}}}),
            .trace = trace_config(Kind::reduce),
            .minutes = 25},  // 8 lines; new: CSR offsets, a scan read at segment ends
           {.name = "spmv",
            .id = int(Kind::spmv),
            .summary = "y = A x for a random CSR matrix: the segmented reduction of the products A(j) * x(col(j))",
            .options = {size(100003, kMaxSize, "rows = columns of A"), mean_of(8), ints, shape, bad, tile, merge},
            .functions = {"spmv", "combine"},
            .checks = with_edges(Kind::spmv, {CheckCase{{"size", 1}}, CheckCase{{"size", 300}, {"tile", 64}},
                                              CheckCase{{"size", 1000}, {"shape", 4}}.team(1)}),
            .team_sweep = with_merge_path_sweep({CheckCase{{"size", 501}, {"tile", 64}, {"shape", 1}}}),
            .trace = trace_config(Kind::spmv),
            .minutes = 20},  // 4 lines; new: SpMV as a segmented reduction
           // Segments longer than a row (128), a tile and a team; empty ones; one segment of
           // everything; teams of one member; several vector lengths; at least 3 teams everywhere.
           {.name = "vector-scan",
            .id = int(Kind::vector_scan),
            .summary = "segment totals with Kokkos' vector-level parallel_scan and the segmented operator as a "
                       "reducer: rows on lanes, rows and tiles stitched by carries",
            .options = {size((1 << 20) + 3, kMaxSize, "N values (random values and segments)"), mean, ints, shape, bad,
                        vtile, row},
            .functions = {"vector_scan_tiles", "combine"},
            .checks = {CheckCase{{"size", 1}}, CheckCase{{"size", 1000}, {"tile", 300}, {"shape", 4}},
                       CheckCase{{"size", 3000}, {"shape", 3}, {"int", 1}, {"tile", 256}},
                       CheckCase{{"size", 5000}, {"tile", 512}, {"mean-length", 700}}.team(1),
                       CheckCase{{"size", 4099}, {"tile", 1024}}.lanes(4),
                       CheckCase{{"size", 2000}, {"tile", 200}, {"shape", 2}, {"int", 1}}.lanes(2),
                       CheckCase{{"size", 20000}, {"shape", 1}, {"mean-length", 300}, {"tile", 1000}}},
            .trace = trace_config(Kind::vector_scan),
            .minutes = 175,  // 100 lines; new: vector scan, lane carries
            .track = Track::stretch}},
      .run =
          [](const RunRequest& req) {
            const Kind kind = req.variant_as<Kind>();
            return is_scan(kind) ? run_scans(req, kind) : run_reductions(req, kind);
          },
      .bytes_needed = bytes_needed,
      .course_position = 50,
      .learning_order = {"simple", "exclusive", "work-efficient", "multi-team", "reduce", "vector-scan", "spmv"},
  };
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::segscan
