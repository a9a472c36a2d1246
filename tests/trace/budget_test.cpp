// Budgets: a kernel that passes the checker but reads global memory K times per element is over
// budget, and the trace says so (exit code 1 in `kpuzzles trace`).
#include <gtest/gtest.h>

#include <vector>

#include "kpz/registry.hpp"
#include "kpz/trace/puzzle.hpp"
#include "kpz/transfer.hpp"
#include "kpz/types.hpp"

namespace {

using S = Kokkos::Serial;

// A naive convolution: every output reads its K inputs and all of b from global memory (b[0]
// 12 times for N = 12), no scratch.
kpz::RunReport naive_conv(const kpz::RunRequest& req) {
  const int n = static_cast<int>(req.params.get("size")), k = 3;
  std::vector<float> a(n), b{1, 2, 3};
  for (int i = 0; i < n; ++i) a[i] = static_cast<float>(i);
  kpz::View<const float*, S> da = kpz::to_device(S{}, "a", a), db = kpz::to_device(S{}, "b", b);
  kpz::View<float*, S> out("out", n);
  Kokkos::parallel_for(
      "naive", kpz::TeamPolicy<S>(S{}, 1, req.team_size), KOKKOS_LAMBDA(const kpz::TeamMember<S>& team) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) {
          float sum = 0;
          for (int j = 0; j < k && i + j < n; ++j) sum += da(i + j) * db(j);
          out(i) = sum;
        });
      });
  const std::vector<float> got = kpz::to_host(out);
  kpz::RunReport r;
  r.pass = true;
  for (int i = 0; i < n; ++i) {
    float want = 0;
    for (int j = 0; j < k && i + j < n; ++j) want += a[i + j] * b[j];
    r.pass &= got[i] == want;
  }
  return r;
}

TEST(Budget, ACorrectKernelThatRereadsGlobalMemoryIsOverBudget) {
  kpz::PuzzleSpec spec;
  spec.name = "naive";
  spec.run = naive_conv;
  kpz::VariantSpec v{.name = "naive", .options = {{"size", "N", 12, 1, 100}}};
  v.trace = kpz::traceable({}, 4, [](const kpz::Params&, const kpz::Json&) {
    return std::vector<kpz::BudgetLimit>{{"global-reads-per-cell-per-team", 1, "each input once per team"},
                                         {"barriers-per-team", 1, ""}};
  });
  kpz::trace::TraceOptions o;
  const auto t = kpz::trace::trace_variant(spec, v, o);
  EXPECT_TRUE(t.correct());
  EXPECT_EQ(t.races(), 0u);
  EXPECT_FALSE(t.within_budget());
  EXPECT_FALSE(t.clean());
  const std::string report = kpz::trace::render_report(t, {});
  EXPECT_NE(report.find("reads of one global element by one team        12       1  OVER BUDGET"), std::string::npos)
      << report;
  EXPECT_NE(report.find("FAILED: over budget"), std::string::npos) << report;
}

TEST(Budget, NotTraceableVariantsSaySo) {
  kpz::PuzzleSpec spec;
  spec.name = "untraced";
  spec.run = naive_conv;
  const kpz::VariantSpec v{.name = "plain", .options = {{"size", "N", 12, 1, 100}}};
  const auto t = kpz::trace::trace_variant(spec, v, {});
  EXPECT_NE(t.not_traceable.find("untraced --plain is not traceable yet"), std::string::npos) << t.not_traceable;
  EXPECT_FALSE(t.clean());
}

}  // namespace
