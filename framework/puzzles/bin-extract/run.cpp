// bin-extract's run: one case of a variant on a space: the inputs, the launch the host checks,
// the exercise's or the reference's kernel, and the comparison with the host oracle.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bin-extract/bin-extract.hpp"
#include "bin-extract/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/transfer.hpp"

namespace kpz::bin_extract {

namespace {

// The level-0 scratch histogram() needs, for the host's check before the launch: the input and
// its bins, for one team. (The learner sizes the launch's own request; the race check compares it
// with what the kernel's views carve.)
template <class Space>
std::size_t histogram_scratch_bytes(int n) {
  return ScratchView<float*, Space>::shmem_size(n) + ScratchView<int*, Space>::shmem_size(n);
}

bool same_bits(float a, float b) {
  std::uint32_t ua, ub;
  std::memcpy(&ua, &a, sizeof ua);
  std::memcpy(&ub, &b, sizeof ub);
  return ua == ub;
}

std::string show(float v) {
  return std::isnan(v) ? "never written (nan)" : format_number(v);
}
std::string show_count(long long v) {
  return v == kIntPoison ? "never written" : std::to_string(v);
}

// Element j of a packed output must be bit for bit the input element src(j): copies, so no
// rounding, and -0 differs from +0 (which makes swaps of the two visible).
template <class Src, class Owner>
void compare_packed(RunReport& r, const std::vector<float>& got, const std::vector<float>& in, std::size_t count,
                    Src src, Owner owner) {
  r.checked += count;
  for (std::size_t j = 0; j < count; ++j) {
    const std::size_t s = src(j);
    const float have = j < got.size() ? got[j] : std::numeric_limits<float>::quiet_NaN();
    if (!same_bits(have, in[s])) add_finding(r, j, format_number(in[s]), show(have), owner(j, s));
  }
}

// --steps: predicate, exclusive and inclusive prefix of bin k over 16 elements around its first
// element, replayed on the host (what the scan should produce, not values read back from the
// kernel); with tiles, also each tile's count and its exclusive offset (the second level).
std::vector<std::string> trace_lines(const std::vector<float>& in, int num_bins, int k, int tile) {
  std::size_t start = 0;
  while (start < in.size() && bin_of(in[start], num_bins) != k) ++start;
  start = start == in.size() ? 0 : (start > 3 ? start - 3 : 0);
  const std::size_t end = std::min(in.size(), start + 16);
  int sum = 0;
  for (std::size_t i = 0; i < start; ++i) sum += bin_of(in[i], num_bins) == k;
  std::vector<std::string> lines{"bin " + std::to_string(k) + " " + bin_range(k, num_bins) + ", elements " +
                                 std::to_string(start) + ".." + std::to_string(end - 1) + ":"};
  std::string idx = "  i         ", x = "  x         ", pred = "  predicate ", excl = "  exclusive ",
              incl = "  inclusive ";
  char cell[32];
  for (std::size_t i = start; i < end; ++i) {
    const int p = bin_of(in[i], num_bins) == k;
    std::snprintf(cell, sizeof cell, "%7zu", i);
    idx += cell;
    std::snprintf(cell, sizeof cell, "%7.3g", static_cast<double>(in[i]));
    x += cell;
    std::snprintf(cell, sizeof cell, "%7d", p);
    pred += cell;
    std::snprintf(cell, sizeof cell, "%7d", sum);
    excl += cell;
    sum += p;
    std::snprintf(cell, sizeof cell, "%7d", sum);
    incl += cell;
  }
  lines.insert(lines.end(), {idx, x, pred, excl, incl});
  lines.push_back("  a selected element goes to out[exclusive]; count = exclusive + predicate of the last element");
  if (tile > 0 && static_cast<std::size_t>(tile) < in.size()) {
    std::string counts = "  tile count ", offsets = "  tile offset";
    int offset = 0;
    const std::size_t teams = (in.size() + tile - 1) / tile;
    for (std::size_t t = 0; t < teams && t < 12; ++t) {
      int c = 0;
      for (std::size_t i = t * tile; i < std::min(in.size(), (t + 1) * tile); ++i) c += bin_of(in[i], num_bins) == k;
      std::snprintf(cell, sizeof cell, "%7d", c);
      counts += cell;
      std::snprintf(cell, sizeof cell, "%7d", offset);
      offsets += cell;
      offset += c;
    }
    lines.push_back("tiles of " + std::to_string(tile) + " (one per team): count per tile, then its exclusive scan" +
                    (teams > 12 ? " (first 12 tiles)" : "") + ":");
    lines.push_back(counts);
    lines.push_back(offsets);
  }
  return lines;
}

template <class Space>
RunReport run_on(const Space& space, const RunRequest& req) {
  const Variant variant = req.variant_as<Variant>();
  const bool histogram = variant == Variant::histogram;
  const int n = static_cast<int>(req.params.get("size"));
  const int num_bins = static_cast<int>(req.params.get("num-bins"));
  const int pattern = static_cast<int>(req.params.get("pattern"));
  const bool scan_variant = variant == Variant::team_scan;
  const bool one_read = variant == Variant::one_read;
  const bool extract_variant = variant == Variant::extract || scan_variant || one_read;  // one bin, --target-bin
  const int target = extract_variant ? static_cast<int>(req.params.get("target-bin")) : -1;
  if (extract_variant && target >= num_bins)
    throw UsageError("--target-bin " + std::to_string(target) + " is not a bin: use 0.." +
                     std::to_string(num_bins - 1) + " (--num-bins " + std::to_string(num_bins) + ")");
  const std::string space_str(space_name<Space>());
  LaunchShape shape;
  if (scan_variant) {
    shape = team_scan_shape(space, ShapeRequest{req.team_size, req.vector_length}, Purpose::check);
  } else if (one_read) {
    shape = one_read_shape(space, ShapeRequest{req.team_size, req.vector_length}, Purpose::check);
  } else {
    // The default teams: as large as the backend gives, so that a missing barrier shows.
    const KernelNeeds needs{.gpu_tile = default_tile<Space>(), .host_tile = default_tile<Space>()};
    shape = launch_shape(space, needs, req);
  }
  const int team_size = shape.team_size;
  if (histogram) {
    shape.tile = 0;  // one team: the whole input
    check_scratch_option<Space>(
        "bin-extract --histogram with N=" + std::to_string(n) + " (one team holds the input and its bins)", "--size", n,
        0, [&](int x) { return histogram_scratch_bytes<Space>(x); });
  } else if (!one_read) {
    if (req.params.get("tile")) shape.tile = static_cast<int>(req.params.get("tile"));
    if (variant == Variant::partition)
      check_scratch_option<Space>("bin-extract --partition with a tile of " + std::to_string(shape.tile) +
                                      " elements and " + std::to_string(num_bins) + " bins",
                                  "--tile", shape.tile, 0,
                                  [&](int t) { return partition_scratch_bytes<Space>(t, num_bins); });
    if (scan_variant)
      check_scratch_option<Space>("bin-extract --team-scan with a tile of " + std::to_string(shape.tile) +
                                      " elements in teams of " + std::to_string(shape.team_size) +
                                      " (a team of one member needs less)",
                                  "--tile", shape.tile, 0, [&](int t) {
                                    LaunchShape s = shape;
                                    s.tile = t;
                                    return team_scan_scratch_bytes<Space>(s);
                                  });
  }
  if (one_read)
    check_scratch_option<Space>("bin-extract --one-read in teams of " + std::to_string(shape.team_size) +
                                    " members (each its own " + std::to_string(one_read_scratch_bytes<Space>()) +
                                    " bytes of masks)",
                                "--team-size", shape.team_size, 0,
                                [](int t) { return static_cast<std::size_t>(t) * one_read_scratch_bytes<Space>(); });
  const int tile = histogram ? n : shape.tile;
  // --one-read: a team per chunk of tiles, not per tile.
  const int teams = histogram  ? 1
                    : one_read ? one_read_chunks(space, n, static_cast<int>(req.params.get("chunks")))
                               : teams_for(n, tile);

  // Inputs: the seed puzzle's i mod 80 / 100 for --histogram without --size or --pattern.
  const bool worked = histogram && !req.params.given("size") && !req.params.given("pattern");
  std::vector<float> in;
  if (worked) {
    in.resize(n);
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 80) / 100.0f;
  } else {
    in = make_input(n, num_bins, extract_variant ? target : num_bins / 2, pattern, req.seed);
  }
  validate_input(in);
  const Oracle oracle = host_counting_sort(in, num_bins);

  auto d_in = to_device(space, "in", in);
  View<const float*, Space> cin = d_in;
  const auto kern = kernels<Space>(req.impl);
  const Launch launch{team_size, tile};
  // --team-scan places with contiguous member segments on every backend (not TeamThreadRange);
  // --one-read's members each walk a chunk of tiles (`teams` counts the chunks there).
  const long tiles = one_read_tiles(n);
  OwnerFn member_of = tile_owner(space_str, static_cast<std::size_t>(tile), team_size);
  if (scan_variant)
    member_of = [tile, team_size, n](std::size_t s) {
      const std::size_t t = s / tile, first = t * tile, count = std::min<std::size_t>(tile, n - first);
      const std::size_t per_member = (count + team_size - 1) / team_size;
      return "team " + std::to_string(t) + ", member " + std::to_string((s - first) / per_member);
    };
  if (one_read)
    member_of = [tiles, teams, team_size](std::size_t s) {
      const long t = static_cast<long>(s) / kOneReadTile;
      int c = 0;
      while (c + 1 < teams && chunk_begin(tiles, teams, c + 1) <= t) ++c;
      return "chunk " + std::to_string(c) + " (team " + std::to_string(c / team_size) + ", member " +
             std::to_string(c % team_size) + "; tile " + std::to_string(t) + ", run " +
             std::to_string(s % kOneReadTile / kOneReadItems) + ")";
    };
  const auto owner = [&](std::size_t, std::size_t s) {
    return "input index " + std::to_string(s) + ": " + member_of(s);
  };

  RunReport report;
  report.config.set("size", n).set("num_bins", num_bins);
  if (extract_variant) report.config.set("target_bin", target);
  const Json shape_json = shape.to_json();  // team_size, vector_length and (not --histogram) tile
  for (const char* key : {"team_size", "vector_length", "tile"})
    if (const Json* v = shape_json.find(key)) report.config.set(key, *v);
  if (!histogram) report.config.set(one_read ? "chunks" : "teams", teams);
  report.config.set("pattern", pattern);
  if (histogram) report.config.set("worked_example", worked);

  std::vector<float> got, expected;
  if (histogram) {
    View<float**, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), num_bins, n);
    View<int*, Space> counts = poisoned_output<int>(space, "counts", static_cast<std::size_t>(num_bins));
    poison(out);
    space.fence();
    kern.histogram(space, team_size, num_bins, cin, out, counts);
    space.fence();
    const auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
    const std::vector<int> got_counts = to_host(counts);
    // The packed outputs of all bins one after the other (the stable partition), each bin
    // read up to its expected count.
    Json counts_json = Json::array();
    long long total = 0;
    for (int k = 0; k < num_bins; ++k) {
      const auto want = static_cast<long long>(oracle.offsets[k + 1] - oracle.offsets[k]);
      ++report.checked;
      if (got_counts[k] != want)
        add_finding(report, static_cast<std::size_t>(k), std::to_string(want), show_count(got_counts[k]),
                    "count of bin " + std::to_string(k));
      counts_json.push(got_counts[k]);
      total += got_counts[k];
      for (long long j = 0; j < want; ++j) got.push_back(h_out(k, j));
      // The seed's printout: per bin its range, count and first extracted elements (as produced).
      std::string line =
          "bin " + std::to_string(k) + " " + bin_range(k, num_bins) + ": count " + show_count(got_counts[k]);
      const long long shown = std::min<long long>(std::max(0, std::min(got_counts[k], n)), 8);
      for (long long j = 0; j < shown; ++j) line += (j ? ", " : ": ") + show(h_out(k, j));
      if (got_counts[k] > shown && shown > 0) line += ", ...";
      report.notes.push_back(line);
    }
    compare_packed(
        report, got, in, in.size(), [&](std::size_t j) { return oracle.order[j]; }, owner);
    report.extra.set("count", total).set("counts", std::move(counts_json));
    if (req.steps) {
      const auto lines = trace_lines(in, num_bins, std::min(3, num_bins - 1), 0);
      report.notes.insert(report.notes.begin(), lines.begin(), lines.end());
    }
  } else if (extract_variant) {
    View<int*, Space> tile_offsets(Kokkos::view_alloc(space, "tile_offsets"), teams + 1);  // zeros
    View<float*, Space> out = poisoned_output<float>(space, "out", static_cast<std::size_t>(n));
    space.fence();
    if (scan_variant) {
      kern.team_scan_extract(space, shape, num_bins, target, cin, tile_offsets, out);
    } else if (one_read) {
      View<float*, Space> staging = poisoned_output<float>(space, "staging", static_cast<std::size_t>(n));
      kern.one_read_extract(space, shape, teams, num_bins, target, cin, staging, tile_offsets, out);
    } else {
      kern.extract(space, launch, num_bins, target, cin, tile_offsets, out);
    }
    space.fence();
    int got_count = 0;
    Kokkos::deep_copy(got_count, Kokkos::subview(tile_offsets, teams));
    got = to_host(out);
    const std::size_t first = oracle.offsets[target], want = oracle.offsets[target + 1] - first;
    ++report.checked;
    if (got_count != static_cast<long long>(want))
      add_finding(report, 0, std::to_string(want), show_count(got_count),
                  one_read ? "the count: chunk_offsets(chunks) after the scan"
                           : "the count: tile_offsets(teams) after the scan");
    got.resize(want);
    compare_packed(
        report, got, in, want, [&](std::size_t j) { return oracle.order[first + j]; }, owner);
    report.extra.set("count", got_count);
    report.notes.push_back("bin " + std::to_string(target) + " " + bin_range(target, num_bins) + ": " +
                           std::to_string(got_count) + " of " + std::to_string(n) + " elements selected (expected " +
                           std::to_string(want) + ")");
    if (req.steps && one_read)
      report.notes.push_back(
          "(--steps: --one-read has no step table; --extract --steps shows the same scan of counts)");
    if (req.steps && !one_read) {
      const auto lines = trace_lines(in, num_bins, target, tile);
      report.notes.insert(report.notes.begin(), lines.begin(), lines.end());
    }
  } else {  // partition
    View<int*, Space> tile_offsets(Kokkos::view_alloc(space, "tile_offsets"),
                                   static_cast<std::size_t>(num_bins) * teams + 1);
    View<float*, Space> out = poisoned_output<float>(space, "out", static_cast<std::size_t>(n));
    View<int*, Space> bin_offsets = poisoned_output<int>(space, "bin_offsets", static_cast<std::size_t>(num_bins) + 1);
    space.fence();
    kern.partition(space, launch, num_bins, cin, tile_offsets, out, bin_offsets);
    space.fence();
    got = to_host(out);
    const std::vector<int> got_offsets = to_host(bin_offsets);
    Json counts_json = Json::array(), offsets_json = Json::array();
    for (int b = 0; b <= num_bins; ++b) {
      ++report.checked;
      if (got_offsets[b] != static_cast<long long>(oracle.offsets[b]))
        add_finding(report, static_cast<std::size_t>(b), std::to_string(oracle.offsets[b]), show_count(got_offsets[b]),
                    "bin_offsets(" + std::to_string(b) + ")");
      offsets_json.push(got_offsets[b]);
      if (b < num_bins) counts_json.push(got_offsets[b + 1] - got_offsets[b]);
    }
    compare_packed(
        report, got, in, in.size(), [&](std::size_t j) { return oracle.order[j]; }, owner);
    report.extra.set("count", got_offsets[num_bins])
        .set("counts", std::move(counts_json))
        .set("bin_offsets", std::move(offsets_json));
    std::string line = "counts per bin:";
    for (int b = 0; b < num_bins && b < 16; ++b) line += " " + std::to_string(got_offsets[b + 1] - got_offsets[b]);
    report.notes.push_back(line + (num_bins > 16 ? " ..." : ""));
  }
  report.pass = report.mismatch_count == 0;

  if (req.keep_arrays) {
    report.inputs.set("input", Json::array_of(in));
    report.output = Json::array_of(got);
    if (extract_variant) {
      const std::size_t first = oracle.offsets[target], count = oracle.offsets[target + 1] - first;
      for (std::size_t j = 0; j < count; ++j) expected.push_back(in[oracle.order[first + j]]);
    } else {
      for (std::size_t s : oracle.order) expected.push_back(in[s]);
    }
    report.expected = Json::array_of(expected);
  }
  return report;
}

}  // namespace

RunReport run(const RunRequest& req) {
  return with_space(req.space, [&](const auto& space) { return run_on(space, req); });
}

}  // namespace kpz::bin_extract
