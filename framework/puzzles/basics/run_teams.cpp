// basics steps 10, 11 and 13 (--team, --scratch, --collectives): launch shape, scratch check, inputs,
// oracle and check.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
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

// One lane per member; on a CPU, teams as large as the backend gives, so that a missing barrier shows.
KernelNeeds team_needs() {
  return KernelNeeds{.gpu_team = 256, .gpu_vector = 1, .host_vector = 1};
}

namespace {

template <class Space>
RunReport reverse_on(const Space& space, const RunRequest& req) {
  const Variant variant = req.variant_as<Variant>();
  const int n = static_cast<int>(req.params.get("size"));
  const int tile = static_cast<int>(req.params.get("tile"));
  const LaunchShape& shape = req.launch;  // for team_needs (spec.cpp)
  if (variant == Variant::scratch)
    check_scratch_option<Space>("basics --scratch with a tile of " + std::to_string(tile) + " floats", "--tile", tile,
                                0, [&](int x) { return scratch_bytes<Space>(x); });
  const Launch launch{shape.team_size, tile};

  std::vector<float> in = random_floats(req.seed, static_cast<std::size_t>(n), -2.0, 3.0);
  const bool worked = worked_example(req, {"size"});
  if (worked)
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  auto din = to_device(space, "in", in);
  View<float*, Space> out = poisoned_output<float>(space, "out", static_cast<std::size_t>(n));
  space.fence();
  const auto k = kernels<Space>(req.impl);
  if (variant == Variant::scratch)
    k.scratch_reverse(space, launch, din, out);
  else
    k.team_reverse(space, launch, din, out);
  space.fence();
  const std::vector<float> got = to_host(out);

  std::vector<float> expected(in.size());
  for (int first = 0; first < n; first += tile) {
    const int count = std::min(tile, n - first);
    for (int i = 0; i < count; ++i) expected[first + i] = in[first + count - 1 - i];
  }
  RunReport report;
  report.config.set("size", n).set("tile", tile).set("team_size", launch.team_size);
  report.config.set("teams", (n + tile - 1) / tile).set("worked_example", worked);
  compare_exact(report, req, got, expected, tile_owner<Space>(static_cast<std::size_t>(tile), launch.team_size), "in",
                in);
  return report;
}

// --collectives: segments of random lengths (0 to 2 x --length, so some are empty) over values
// asymmetric around 0; the worked example is 4 segments of lengths 3, 0, 4 and 1 over 0..7.
template <class Space>
RunReport collectives_on(const Space& space, const RunRequest& req) {
  const int segments = static_cast<int>(req.params.get("segments"));
  const std::int64_t length = req.params.get("length");
  if (segments * (2 * length + 1) > kMaxSize)
    throw UsageError("basics --collectives with --segments " + std::to_string(segments) + " --length " +
                     std::to_string(length) + " may draw more than " + std::to_string(kMaxSize) + " values");
  const LaunchShape& shape = req.launch;  // for team_needs (spec.cpp)
  const Launch launch{shape.team_size, 0};

  Rng rng(req.seed);
  const bool worked = worked_example(req, {"segments", "length"});
  std::vector<int> offsets(static_cast<std::size_t>(segments) + 1, 0);
  for (int s = 0; s < segments; ++s) offsets[s + 1] = offsets[s] + static_cast<int>(rng.integer(0, 2 * length));
  if (worked) offsets = {0, 3, 3, 7, 8};
  std::vector<float> values = random_floats(rng, static_cast<std::size_t>(offsets.back()), -1.0, 3.0);
  if (worked)
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);

  const auto doffsets = to_device(space, "offsets", offsets);
  const auto dvalues = to_device(space, "values", values);
  const View<float*, Space> sums = poisoned_output<float>(space, "sums", static_cast<std::size_t>(segments));
  const View<float*, Space> centered = poisoned_output<float>(space, "centered", values.size());
  space.fence();
  kernels<Space>(req.impl).center_segments(space, launch, doffsets, dvalues, sums, centered);
  space.fence();
  std::vector<float> got = to_host(sums);
  const std::vector<float> got_centered = to_host(centered);
  got.insert(got.end(), got_centered.begin(), got_centered.end());

  // The oracle in doubles: sums, then centered. A float mean carries the sum's rounding over n
  // and its own division; the subtraction rounds once more.
  const double eps = std::numeric_limits<float>::epsilon();
  std::vector<double> expected(got.size()), bound(got.size());
  std::vector<int> segment_of(values.size());
  for (int s = 0; s < segments; ++s) {
    const int n = offsets[s + 1] - offsets[s];
    double sum = 0, magnitude = 0;
    for (int i = offsets[s]; i < offsets[s + 1]; ++i) sum += values[i], magnitude += std::fabs(values[i]);
    expected[s] = sum;
    bound[s] = sum_error_bound(magnitude, static_cast<std::size_t>(n));
    const double mean = n > 0 ? sum / n : 0.0;
    for (int i = offsets[s]; i < offsets[s + 1]; ++i) {
      segment_of[i] = s;
      expected[segments + i] = values[i] - mean;
      bound[segments + i] = bound[s] / n + 2.0 * eps * (2.0 * std::fabs(mean) + std::fabs(values[i])) + 1e-30;
    }
  }

  RunReport report;
  report.config.set("segments", segments).set("values", values.size()).set("team_size", launch.team_size);
  report.config.set("worked_example", worked);
  report.notes.push_back("values: sums, then centered");
  compare_within(report, got, expected, bound, [=](std::size_t k) {
    if (k < static_cast<std::size_t>(segments))
      return "team " + std::to_string(k) + ": sums(" + std::to_string(k) + ") (TODO 25)";
    const int s = segment_of[k - segments];
    return "team " + std::to_string(s) + ": centered(" + std::to_string(k - segments) +
           "), the given loop (begin and end: TODO 24; total: TODO 25)";
  });
  keep_arrays(report, req, got, expected, "offsets", offsets, "values", values);
  return report;
}

}  // namespace

const Runner run_teams = KPZ_ON_REQUEST_SPACE(reverse_on), run_collectives = KPZ_ON_REQUEST_SPACE(collectives_on);

}  // namespace kpz::basics
