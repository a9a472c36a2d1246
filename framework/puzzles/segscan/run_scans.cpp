// segscan's one-team and multi-team scans: inputs, launch, step tables, check.
#include <string>
#include <type_traits>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/lookup.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"
#include "segscan/segscan.hpp"
#include "segscan/spec.hpp"

namespace kpz::segscan {

namespace {

template <class Space, class T>
RunReport run_scan(const Space& space, const RunRequest& req, Kind kind, T /*values of this type*/) {
  const bool ints = std::is_same_v<T, int>;
  const std::int64_t shape = req.params.get("shape");
  const std::int64_t mean = req.params.get("mean-length");
  const bool worked =
      one_team(kind) && !req.params.given("size") && !req.params.given("mean-length") && !req.params.given("shape");
  const std::int64_t n = worked ? static_cast<std::int64_t>(kWorkedIds.size()) : req.params.get("size");

  // Host-side validation and launch configuration first.
  const LaunchShape lshape = segscan_shape(space, req, kind);
  const int team_size = lshape.team_size;
  Launch launch{team_size, static_cast<int>(n)};
  const std::string pairs = " (value, flag) pairs";
  if (kind == Kind::simple || kind == Kind::exclusive) {
    check_scratch_option<Space>("segscan --" + req.variant_name() + " with N=" + std::to_string(n) +
                                    " (one team holds two buffers of N" + pairs + ")",
                                "--size", static_cast<int>(n), 0,
                                [&](int x) { return hillis_steele_scratch_bytes<Space, T>(x); });
  } else if (kind == Kind::work_efficient) {
    check_scratch_option<Space>("segscan --work-efficient with N=" + std::to_string(n) + " (one team holds " +
                                    std::to_string(next_pow2(static_cast<int>(n))) + pairs + ")",
                                "--size", static_cast<int>(n), 0,
                                [&](int x) { return blelloch_scratch_bytes<Space, T>(x); });
  } else {
    launch.tile = lshape.tile;
    if (launch.tile < 2) throw UsageError("--tile must be at least 2 (the scan of the tiles' carries must shrink)");
    check_scratch_option<Space>("segscan --multi-team with a tile of " + std::to_string(launch.tile) + " elements",
                                "--tile", launch.tile, 0,
                                [&](int x) { return hillis_steele_scratch_bytes<Space, T>(x); });
  }

  // The segment description: given as ids (the worked example) or generated as offsets; the
  // framework converts and validates, and the kernels get head flags.
  Rng seg_rng(req.seed), val_rng(req.seed ^ 0x5E65CA17ull);
  segments::Offsets offsets =
      worked ? segments::offsets_from_ids(kWorkedIds) : generate_offsets(shape, seg_rng, n, mean);
  if (const std::int64_t bad = req.params.get("bad-input")) apply_bad_input(bad, offsets, n, "segment offsets", "N");
  const std::vector<std::uint8_t> flags = segments::flags_from_offsets(offsets, n);

  std::vector<T> values(static_cast<std::size_t>(n));
  if (worked) {
    for (std::int64_t i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = static_cast<T>(i);
  } else {
    values = random_values<T>(val_rng, static_cast<std::size_t>(n), -2.0, 3.0, -3, 7);
  }
  const std::vector<double> dvalues = as_double(values);
  const Expected expected = scan_oracle(dvalues, offsets, kind == Kind::exclusive, ints);

  auto d_values = to_device(space, "values", values);
  auto d_flags = to_device(space, "flags", flags);
  View<T*, Space> out = poisoned_output<T>(space, "out", static_cast<std::size_t>(n));
  space.fence();
  View<const T*, Space> cv = d_values;
  View<const Flag*, Space> cf = d_flags;
  const auto kern = kernels<Space, T>(req.impl);
  using K = Kernels<Space, T>;
  if (kind == Kind::multi_team) {
    kern.multi_team(space, launch, cv, cf, out);
  } else {  // one team
    const auto kernel = by_enum<Kind::work_efficient>({&K::inclusive_simple, &K::exclusive, &K::work_efficient}, kind);
    (kern.*kernel)(space, team_size, cv, cf, out);
  }
  space.fence();
  const std::vector<T> got = to_host(out);

  RunReport report;
  const int teams = one_team(kind) ? 1 : static_cast<int>((n + launch.tile - 1) / launch.tile);
  report.config.set("size", n).set("segments", segments::count(offsets)).set("longest", segments::longest(offsets));
  if (!worked) report.config.set("mean_length", mean).set("shape", shape_name(shape));
  report.config.set("values", ints ? "int" : "float").set("team_size", team_size).set("vector_length", 1);
  if (!one_team(kind)) report.config.set("tile", launch.tile);
  report.config.set("teams", teams).set("worked_example", worked);

  // Step tables (host replay of the kernel's steps).
  const bool small = n <= 32;
  if (small && (kind == Kind::simple || (req.steps && kind == Kind::exclusive))) {
    report.notes.push_back(
        "Hillis-Steele steps (replayed on the host; step d: element i takes (v, f)[i - d] (+) (v, f)[i]):");
    for (auto& l : hillis_steele_table(dvalues, flags).lines(static_cast<std::size_t>(n))) report.notes.push_back(l);
  }
  if (small && req.steps && kind == Kind::work_efficient) {
    report.notes.push_back("Blelloch steps (replayed on the host; leaves past N hold the identity (0, 0)):");
    for (auto& l : blelloch_table(dvalues, flags).lines(static_cast<std::size_t>(next_pow2(static_cast<int>(n)))))
      report.notes.push_back(l);
  }
  if (req.steps && !small) report.notes.push_back("(--steps prints step tables for N <= 32)");
  if (kind != Kind::exclusive && segments::count(offsets) <= 64) {
    const std::vector<T> totals = totals_from_scan(got, offsets);
    report.notes.push_back("segment totals: " + Json::array_of(totals).dump());
    report.extra.set("segment_totals", Json::array_of(totals));
  }

  check_output(report, got, expected, tile_owner<Space>(static_cast<std::size_t>(launch.tile), team_size));
  keep_arrays(report, req, got, expected.value, "values", values, "flags", flags, "offsets", offsets);
  if (req.keep_arrays && worked) report.inputs.set("ids", Json::array_of(kWorkedIds));
  return report;
}

}  // namespace

RunReport run_scans(const RunRequest& req, Kind kind) {
  return with_space_and_values(req, [&](const auto& space, auto value) { return run_scan(space, req, kind, value); });
}

}  // namespace kpz::segscan
