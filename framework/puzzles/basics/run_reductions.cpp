// basics steps 6-9 (--reduce, --custom-reducer, --scan, --histogram): inputs, validation, oracle and
// check.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "basics/basics.hpp"
#include "basics/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::basics {
namespace {

template <class Space>
RunReport reduce_on(const Space& space, const RunRequest& req) {
  const auto n = static_cast<std::size_t>(req.params.get("size"));
  std::vector<float> x = random_floats(req.seed, n, -2.0, 3.0);
  if (worked_example(req, {"size"})) x = {3.0f, -1.0f, 4.0f, -1.5f, 5.0f, -9.0f, 2.0f, 6.0f};
  auto dx = to_device(space, "x", x);
  Extremes result{poison_value<float>(), poison_value<float>(), kIntPoison};
  kernels<Space>(req.impl).reduce(space, dx, result);
  space.fence();

  const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
  // Any index of the smallest value is right: keep the kernel's when it holds the minimum.
  const bool index_holds_min = result.min_index >= 0 && static_cast<std::size_t>(result.min_index) < n &&
                               x[static_cast<std::size_t>(result.min_index)] == *lo;
  const double want_index = index_holds_min ? result.min_index : static_cast<double>(lo - x.begin());
  const std::vector<double> got = {result.max, result.min, static_cast<double>(result.min_index)};
  const std::vector<double> expected = {*hi, *lo, want_index};
  RunReport report;
  report.config.set("size", n);
  report.notes.push_back("values: result.max, result.min, result.min_index");
  const auto owner = [](std::size_t i) -> std::string {
    if (i == 0) return "result.max, from the Max reduction (TODO 11)";
    return i == 1 ? "result.min, from the MinLoc reduction (TODO 12)" : "result.min_index, from MinLoc (TODO 12)";
  };
  compare_exact(report, req, got, expected, owner, "x", x);
  return report;
}

// --custom-reducer: values asymmetric around 0 (mean about 1), so that a merge that drops a
// weight or the spread between two means is far off; the worked example is 1, 3, ..., 15, whose
// every merge is exact in floats.
template <class Space>
RunReport moments_on(const Space& space, const RunRequest& req) {
  const auto n = static_cast<std::size_t>(req.params.get("size"));
  Rng rng(req.seed);
  std::vector<float> x = random_floats(rng, n, -1.0, 3.0);
  if (worked_example(req, {"size"}))
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(2 * i + 1);
  auto dx = to_device(space, "x", x);
  Moments result{kIntPoison, poison_value<float>(), poison_value<float>()};
  kernels<Space>(req.impl).moments(space, dx, result);
  space.fence();

  // The oracle in doubles, two passes. Every backend merges in its own order, so the floats may
  // differ in their last bits: the mean within the rounding of a float sum of n terms of at most
  // max |x| (divided by n); m2 within that of n terms of m2 times its condition number
  // sqrt(1 + n mean^2 / m2) (Chan, Golub and LeVeque), twice over. A wrong weight or a lost term
  // is off by a fraction of the value itself, far outside both.
  double sum = 0, largest = 0;
  for (const float v : x) sum += v, largest = std::max(largest, std::fabs(static_cast<double>(v)));
  const double mean = sum / static_cast<double>(n);
  double m2 = 0;
  for (const float v : x) m2 += (v - mean) * (v - mean);
  const double conditioned_m2 = std::sqrt(m2 * (m2 + static_cast<double>(n) * mean * mean));
  const std::vector<double> expected = {static_cast<double>(n), mean, m2};
  const std::vector<double> bound = {0.0,  // the count is exact (n < 2^24: a float holds it)
                                     sum_error_bound(largest * static_cast<double>(n), n) / static_cast<double>(n),
                                     sum_error_bound(2.0 * conditioned_m2, n)};
  const std::vector<float> got = {static_cast<float>(result.count), result.mean, result.m2};
  RunReport report;
  report.config.set("size", n).set("split", n / 3);
  report.notes.push_back("values: result.count, result.mean, result.m2");
  compare_within(report, got, expected, bound, [](std::size_t i) -> std::string {
    const char* what[] = {"result.count", "result.mean", "result.m2"};
    return std::string(what[i]) + ": init and join (TODOs 13, 14), the reductions (TODO 15)";
  });
  keep_arrays(report, req, got, expected, "x", x);
  return report;
}

template <class Space>
RunReport scan_on(const Space& space, const RunRequest& req) {
  const auto n = static_cast<std::size_t>(req.params.get("size"));
  Rng rng(req.seed);
  std::vector<int> counts(n);
  // About a third are 0 (empty segments), the rest 1..7: asymmetric, so that an inclusive scan or
  // an off-by-one shows.
  for (auto& c : counts) c = rng.uniform() < 0.3 ? 0 : static_cast<int>(rng.integer(1, 7));
  if (worked_example(req, {"size"})) counts = {3, 0, 2, 5, 0, 0, 1, 4};
  auto dcounts = to_device(space, "counts", counts);
  View<int*, Space> offsets = poisoned_output<int>(space, "offsets", n + 1);
  space.fence();
  kernels<Space>(req.impl).scan(space, dcounts, offsets);
  space.fence();
  const std::vector<int> got = to_host(offsets);
  std::vector<int> expected(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) expected[i + 1] = expected[i] + counts[i];
  RunReport report;
  report.config.set("size", n);
  const auto owner = [n](std::size_t i) {
    return i < n ? "offsets(" + std::to_string(i) + "), the scan's final pass at i = " + std::to_string(i)
                 : "offsets(N), the total, the scan's final pass at i = N";
  };
  compare_exact(report, req, got, expected, owner, "counts", counts);
  return report;
}

template <class Space>
RunReport histogram_on(const Space& space, const RunRequest& req) {
  const auto n = static_cast<std::size_t>(req.params.get("size"));
  const auto bins = static_cast<std::size_t>(req.params.get("bins"));
  Rng rng(req.seed);
  std::vector<int> values(n);
  // Skewed towards the low bins (u^2), so that counts differ and high bins may stay empty.
  for (auto& v : values) {
    const double u = rng.uniform();
    v = static_cast<int>(std::min<double>(static_cast<double>(bins) - 1, static_cast<double>(bins) * u * u));
  }
  if (worked_example(req, {"size", "bins"})) values = {3, 1, 3, 0, 3, 3, 1, 0, 3, 1, 3, 3};
  auto dvalues = to_device(space, "values", values);
  View<int*, Space> atomic_bins = poisoned_output<int>(space, "bins_atomic", bins);
  View<int*, Space> scatter_bins = poisoned_output<int>(space, "bins_scatter", bins);
  space.fence();
  const auto k = kernels<Space>(req.impl);
  k.histogram_atomic(space, dvalues, atomic_bins);
  k.histogram_scatter(space, dvalues, scatter_bins);
  space.fence();
  std::vector<int> got = to_host(atomic_bins);
  const std::vector<int> scattered = to_host(scatter_bins);
  got.insert(got.end(), scattered.begin(), scattered.end());
  std::vector<int> expected(bins, 0);
  for (const int v : values) ++expected[static_cast<std::size_t>(v)];
  expected.insert(expected.end(), expected.begin(), expected.end());
  RunReport report;
  report.config.set("size", n).set("bins", bins);
  report.notes.push_back("values: the bins of histogram_atomic, then those of histogram_scatter");
  const auto owner = [bins](std::size_t i) {
    return i < bins ? "bin " + std::to_string(i) + " of histogram_atomic"
                    : "bin " + std::to_string(i - bins) + " of histogram_scatter";
  };
  compare_exact(report, req, got, expected, owner, "values", values);
  return report;
}

}  // namespace

const Runner run_reduce = KPZ_ON_REQUEST_SPACE(reduce_on), run_moments = KPZ_ON_REQUEST_SPACE(moments_on),
             run_scan = KPZ_ON_REQUEST_SPACE(scan_on), run_histogram = KPZ_ON_REQUEST_SPACE(histogram_on);

}  // namespace kpz::basics
