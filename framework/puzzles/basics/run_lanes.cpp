// basics step 12 (--vector): the launch shape with vector lanes, inputs, oracle and check.
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

// GPU: 8 members of a warp's 32 lanes each, a row's products on the lanes of one warp (each
// load of a row is one contiguous, coalesced read). CPU: the lanes are a loop Kokkos runs in
// order; 4 of them are enough for the race check to see two lanes of a member write one element.
KernelNeeds lane_needs() {
  return KernelNeeds{.vector_loops = true, .gpu_team = 8, .gpu_vector = 32, .host_vector = 4};
}

namespace {

template <class Space>
RunReport row_dots_on(const Space& space, const RunRequest& req) {
  const int rows = static_cast<int>(req.params.get("rows"));
  const int cols = static_cast<int>(req.params.get("cols"));
  const int tile = static_cast<int>(req.params.get("tile"));
  const std::int64_t cells = static_cast<std::int64_t>(rows) * cols;
  if (cells > kMaxCells)
    throw UsageError("basics --vector with --rows " + std::to_string(rows) + " --cols " + std::to_string(cols) +
                     " has " + std::to_string(cells) + " elements; at most " + std::to_string(kMaxCells) +
                     " are allowed");
  const LaunchShape& shape = req.launch;  // for lane_needs (spec.cpp)
  const Launch launch{shape.team_size, tile, shape.vector_length};

  // Asymmetric around 0, so that a sign error, a dropped product or a swapped index shows.
  Rng rng(req.seed);
  std::vector<float> a = random_floats(rng, static_cast<std::size_t>(cells), -1.0, 2.0);  // a[r * cols + j]
  std::vector<float> x = random_floats(rng, static_cast<std::size_t>(cols), -0.5, 1.5);
  const bool worked = worked_example(req, {"rows", "cols"});
  if (worked) {  // a = 0, 1, 2, ... row by row; x = 1, 2, 3, ...
    for (std::size_t k = 0; k < a.size(); ++k) a[k] = static_cast<float>(k);
    for (int j = 0; j < cols; ++j) x[j] = static_cast<float>(j + 1);
  }
  const auto da = to_device(space, "a", a);
  const auto dx = to_device(space, "x", x);
  const View<float*, Space> y = poisoned_output<float>(space, "y", static_cast<std::size_t>(rows));
  const View<float*, Space> out = poisoned_output<float>(space, "out", static_cast<std::size_t>(cells));
  space.fence();
  kernels<Space>(req.impl).row_dots(space, launch, da, dx, y, out);
  space.fence();
  std::vector<float> got = to_host(y);
  const std::vector<float> got_out = to_host(out);
  got.insert(got.end(), got_out.begin(), got_out.end());

  // The oracle in doubles: y, then out row by row. out's bound carries the rounding of y, which
  // the kernel multiplies by a(r, j).
  const double eps = std::numeric_limits<float>::epsilon();
  std::vector<double> expected(got.size()), bound(got.size());
  for (int r = 0; r < rows; ++r) {
    double dot = 0, magnitude = 0;
    for (int j = 0; j < cols; ++j) {
      const double p = static_cast<double>(a[static_cast<std::size_t>(r) * cols + j]) * x[j];
      dot += p;
      magnitude += std::fabs(p);
    }
    expected[r] = dot;
    bound[r] = sum_error_bound(magnitude, static_cast<std::size_t>(cols));
    for (int j = 0; j < cols; ++j) {
      const std::size_t k = static_cast<std::size_t>(r) * cols + j;
      const double arj = a[k];
      expected[rows + k] = dot * arj;
      bound[rows + k] = std::fabs(arj) * bound[r] + 2.0 * eps * std::fabs(dot * arj) + 1e-30;
    }
  }

  RunReport report;
  report.config.set("rows", rows).set("cols", cols).set("tile", tile);
  report.config.set("team_size", launch.team_size).set("vector_length", launch.vector_length);
  report.config.set("teams", (rows + tile - 1) / tile).set("worked_example", worked);
  report.notes.push_back("values: y, then out row by row (out(r, j) at index rows + r * cols + j)");
  const OwnerFn by_row = tile_owner<Space>(static_cast<std::size_t>(tile), launch.team_size);
  compare_within(report, got, expected, bound, [=](std::size_t k) {
    if (k < static_cast<std::size_t>(rows)) return by_row(k) + ": y(" + std::to_string(k) + ") (TODO 22)";
    const std::size_t e = k - rows, r = e / cols;
    return "team " + std::to_string(r / tile) + ": out(" + std::to_string(r) + ", " + std::to_string(e % cols) +
           ") (TODO 23)";
  });
  keep_arrays(report, req, got, expected, "a", a, "x", x);
  return report;
}

}  // namespace

const Runner run_vector = KPZ_ON_REQUEST_SPACE(row_dots_on);

}  // namespace kpz::basics
