// basics steps 1 and 3-5 (--views, --axpy, --mdrange, --subviews): inputs, validation, oracle and check.
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "basics/basics.hpp"
#include "basics/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/errors.hpp"
#include "kpz/random.hpp"
#include "kpz/tool_log.hpp"
#include "kpz/transfer.hpp"

namespace kpz::basics {
namespace {

// What one float multiply-add a * b + c may round to, away from the exact value.
double madd_bound(double ab, double c) {
  return 2.0 * std::numeric_limits<float>::epsilon() * (std::fabs(ab) + std::fabs(c)) + 1e-30;
}

// Copies land late in the check (kpz::LateCopies), on a GPU too, whose copy may or may not have
// landed when a host loop reads it: a loop that reads h before waiting for the copy reads NaN on
// every run. Not in the trace build, whose launches Kokkos Tools do not see (a copy would land
// after the kernel that reads it).
LateCopies late_copies() {
#if defined(KPZ_TRACE)
  return LateCopies::real;
#else
  return LateCopies::emulated;
#endif
}

}  // namespace

template <class Space>
RunReport views_with(const Space& space, const RunRequest& req, const Kernels<Space>& k) {
  const auto n = static_cast<std::size_t>(req.params.get("size"));
  Rng rng(req.seed);
  std::vector<float> in = random_floats(rng, n, -2.0, 3.0);
  if (worked_example(req, {"size"}))
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  std::vector<float> out(n, poison_value<float>());
  std::vector<ToolEvent> events;
  {
    const ToolLog log(late_copies());
    k.views(space, HostView<const float*>(in.data(), n), HostView<float*>(out.data(), n));
    events = log.events();
  }
  space.fence();

  std::vector<double> expected(n), bound(n);
  for (std::size_t i = 0; i < n; ++i) {
    expected[i] = 2.0 * in[i] + 1.0;
    bound[i] = madd_bound(2.0 * in[i], 1.0);
  }
  RunReport report;
  report.config.set("size", n);
  if (!last_copy_is_fenced(events))
    add_finding(report, n, "a fence after the copy into h", "none before views returned",
                "TODO 2: wait for the copy into h (space.fence()) before reading h; on a GPU it is still running");
  compare_within(report, out, expected, bound, [&](std::size_t i) {
    if (is_late_copy_poison(out[i]))
      return "element " + std::to_string(i) + ": out read from h before the copy into h landed (TODO 2: " +
             "space.fence() between deep_copy(space, h, d) and the loop that reads h)";
    return "element " + std::to_string(i) + ": d (TODO 1), the given kernel, h and out (TODO 2)";
  });
  // On a GPU `deep_copy(space, h, d)` may return before the copy is done, and out read from h
  // then holds what h held before; a host backend finishes every copy first. The check makes
  // every copy land late (late_copies): h reads NaN until a fence or a launch. A fence placed after
  // the host loop shows in the values; a missing one in Kokkos Tools' events too: some fence
  // (space.fence(), Kokkos::fence(), or the one inside a deep_copy without an execution space)
  // must follow the last copy.
  report.notes.push_back("values: out(0) .. out(N-1); before them, one check: a fence after the copy back into h");
  report.checked += 1;
  keep_arrays(report, req, out, expected, "in", in);
  return report;
}

#define KPZ_BASICS_VIEWS_WITH(S) template RunReport views_with<S>(const S&, const RunRequest&, const Kernels<S>&);
KPZ_FOR_EACH_SPACE(KPZ_BASICS_VIEWS_WITH)

namespace {

template <class Space>
RunReport views_on(const Space& space, const RunRequest& req) {
  return views_with(space, req, kernels<Space>(req.impl));
}

template <class Space>
RunReport axpy_on(const Space& space, const RunRequest& req) {
  const int n = static_cast<int>(req.params.get("size"));
  const int padded = padded_range(n);
  Rng rng(req.seed);
  float alpha = static_cast<float>(rng.uniform(0.5, 2.5));
  std::vector<float> x = random_floats(rng, n, -2.0, 3.0), y = random_floats(rng, n, -1.0, 2.0);
  if (worked_example(req, {"size"})) {
    alpha = 2.0f;
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i), y[i] = 1.0f;
  }
  // The arrays live in allocations of whole blocks: an index the guard lets through reads and
  // writes memory of its own array (no crash), and z's poisoned tail shows the writes.
  std::vector<float> x_mem(x), y_mem(y);
  x_mem.resize(padded, 0.0f);
  y_mem.resize(padded, 0.0f);
  auto dx = to_device(space, "x", x_mem);
  auto dy = to_device(space, "y", y_mem);
  View<float*, Space> z_mem = poisoned_output<float>(space, "z", static_cast<std::size_t>(padded));
  space.fence();
  // The first n elements, as subviews: they keep the labels x, y and z (for the trace's reports).
  const auto first_n = std::make_pair(0, n);
  kernels<Space>(req.impl).axpy(space, alpha, View<const float*, Space>(Kokkos::subview(dx, first_n)),
                                View<const float*, Space>(Kokkos::subview(dy, first_n)),
                                View<float*, Space>(Kokkos::subview(z_mem, first_n)));
  space.fence();
  const std::vector<float> all = to_host(z_mem);
  const std::vector<float> got(all.begin(), all.begin() + n);

  std::vector<double> expected(n), bound(n);
  for (int i = 0; i < n; ++i) {
    expected[i] = static_cast<double>(alpha) * x[i] + y[i];
    bound[i] = madd_bound(static_cast<double>(alpha) * x[i], y[i]);
  }
  RunReport report;
  report.config.set("size", n).set("alpha", alpha).set("launched", padded);
  compare_within(report, got, expected, bound,
                 [](std::size_t i) { return "iteration i = " + std::to_string(i) + " of the RangePolicy"; });
  report.checked += static_cast<std::size_t>(padded - n);  // z's tail: it must stay poisoned
  for (int i = n; i < padded; ++i)
    if (!std::isnan(all[i]))
      add_finding(report, static_cast<std::size_t>(i), "untouched (past N = " + std::to_string(n) + ")",
                  format_number(all[i]), "iteration i = " + std::to_string(i) + ": the guard i < N");
  keep_arrays(report, req, got, expected, "x", x, "y", y);
  return report;
}

template <class Space>
RunReport mdrange_on(const Space& space, const RunRequest& req) {
  const int rows = static_cast<int>(req.params.get("rows"));
  const int cols = static_cast<int>(req.params.get("cols"));
  if (static_cast<std::int64_t>(rows) * cols > kMaxCells)
    throw UsageError("basics --mdrange with --rows " + std::to_string(rows) + " --cols " + std::to_string(cols) +
                     " has " + std::to_string(static_cast<std::int64_t>(rows) * cols) + " elements; at most " +
                     std::to_string(kMaxCells) + " are allowed");
  const bool worked = worked_example(req, {"rows", "cols"});
  Rng rng(req.seed);
  std::vector<float> u = random_floats(rng, rows, -1.0, 2.0), v = random_floats(rng, cols, 0.5, 1.5);
  std::vector<float> a = random_floats(rng, static_cast<std::size_t>(rows) * cols, -2.0, 3.0);  // a[i * cols + j]
  if (worked) {
    for (int i = 0; i < rows; ++i) u[i] = static_cast<float>(i + 1);
    for (int j = 0; j < cols; ++j) v[j] = static_cast<float>(j);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) a[i * cols + j] = static_cast<float>(10 * i + j);
  }
  View<float**, Space> in(Kokkos::view_alloc(space, "in"), rows, cols);
  View<float**, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), rows, cols);
  {
    auto h = Kokkos::create_mirror_view(in);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) h(i, j) = a[static_cast<std::size_t>(i) * cols + j];
    Kokkos::deep_copy(space, in, h);
  }
  auto du = to_device(space, "u", u);
  auto dv = to_device(space, "v", v);
  poison(out);
  space.fence();
  kernels<Space>(req.impl).mdrange(space, in, du, dv, out);
  space.fence();
  auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::vector<float> got(a.size());
  std::vector<double> expected(a.size()), bound(a.size());
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const std::size_t k = static_cast<std::size_t>(i) * cols + j;
      got[k] = h_out(i, j);
      expected[k] = a[k] + static_cast<double>(u[i]) * v[j];
      bound[k] = madd_bound(static_cast<double>(u[i]) * v[j], a[k]);
    }
  RunReport report;
  report.config.set("rows", rows).set("cols", cols);
  report.notes.push_back("values: out row by row, out(i, j) at index i * cols + j");
  compare_within(report, got, expected, bound, [cols](std::size_t k) {
    return "MDRange iteration (i, j) = (" + std::to_string(k / cols) + ", " + std::to_string(k % cols) + ")";
  });
  keep_arrays(report, req, got, expected, "in", a, "u", u, "v", v);
  return report;
}

// --subviews: a random rows x cols matrix (asymmetric around 0) and a random block inside it; the
// worked example is mdrange's 3 x 4 matrix, 10 i + j, and its 2 x 3 block from (1, 1), which
// reaches the last row and the last column.
template <class Space>
RunReport subviews_on(const Space& space, const RunRequest& req) {
  const int rows = static_cast<int>(req.params.get("rows"));
  const int cols = static_cast<int>(req.params.get("cols"));
  const bool worked = worked_example(req, {"rows", "cols"});
  Rng rng(req.seed);
  std::vector<float> a = random_floats(rng, static_cast<std::size_t>(rows) * cols, -1.0, 2.0);  // a[i * cols + j]
  int h = static_cast<int>(rng.integer(1, rows)), w = static_cast<int>(rng.integer(1, cols));
  Corner corner{static_cast<int>(rng.integer(0, rows - h)), static_cast<int>(rng.integer(0, cols - w))};
  if (worked) {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) a[static_cast<std::size_t>(i) * cols + j] = static_cast<float>(10 * i + j);
    h = 2, w = 3, corner = Corner{1, 1};
  }
  RowMajor<float, Space> da(Kokkos::view_alloc(space, "a"), rows, cols);
  {
    auto host = Kokkos::create_mirror_view(da);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) host(i, j) = a[static_cast<std::size_t>(i) * cols + j];
    Kokkos::deep_copy(space, da, host);
  }
  const View<float*, Space> row_sums = poisoned_output<float>(space, "row_sums", static_cast<std::size_t>(rows));
  const View<float*, Space> col_sums = poisoned_output<float>(space, "col_sums", static_cast<std::size_t>(cols));
  RowMajor<float, Space> block(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "block"), h, w);
  poison(block);
  space.fence();
  kernels<Space>(req.impl).subviews(space, da, corner, row_sums, col_sums, block);
  space.fence();
  std::vector<float> got = to_host(row_sums);
  const std::vector<float> got_cols = to_host(col_sums);
  got.insert(got.end(), got_cols.begin(), got_cols.end());
  const auto h_block = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), block);
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) got.push_back(h_block(i, j));

  // The oracle in doubles: the sums within the rounding of a float sum of their terms, the
  // block's copies exactly.
  std::vector<double> expected(got.size(), 0.0), bound(got.size(), 0.0), magnitude(rows + cols, 0.0);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const double v = a[static_cast<std::size_t>(i) * cols + j];
      expected[i] += v, expected[rows + j] += v;
      magnitude[i] += std::fabs(v), magnitude[rows + j] += std::fabs(v);
    }
  for (int i = 0; i < rows; ++i) bound[i] = sum_error_bound(magnitude[i], static_cast<std::size_t>(cols));
  for (int j = 0; j < cols; ++j) bound[rows + j] = sum_error_bound(magnitude[rows + j], static_cast<std::size_t>(rows));
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j)
      expected[rows + cols + i * w + j] = a[static_cast<std::size_t>(corner.row + i) * cols + corner.col + j];

  RunReport report;
  report.config.set("rows", rows).set("cols", cols).set("block_rows", h).set("block_cols", w);
  report.config.set("corner_row", corner.row).set("corner_col", corner.col);
  report.notes.push_back("values: row_sums, col_sums, then block row by row");
  compare_within(report, got, expected, bound, [rows, cols, w, corner](std::size_t k) {
    const int i = static_cast<int>(k);
    if (i < rows) return "row_sums(" + std::to_string(i) + "): sum_1d on row " + std::to_string(i) + " of a (TODO 9)";
    if (i < rows + cols)
      return "col_sums(" + std::to_string(i - rows) + "): sum_1d on column " + std::to_string(i - rows) +
             " of a (TODO 9)";
    const int e = i - rows - cols;
    return "block(" + std::to_string(e / w) + ", " + std::to_string(e % w) + "), a(" +
           std::to_string(corner.row + e / w) + ", " + std::to_string(corner.col + e % w) + ") (TODO 10)";
  });
  keep_arrays(report, req, got, expected, "a", a);
  return report;
}

}  // namespace

const Runner run_views = KPZ_ON_REQUEST_SPACE(views_on), run_axpy = KPZ_ON_REQUEST_SPACE(axpy_on),
             run_mdrange = KPZ_ON_REQUEST_SPACE(mdrange_on), run_subviews = KPZ_ON_REQUEST_SPACE(subviews_on);

}  // namespace kpz::basics
