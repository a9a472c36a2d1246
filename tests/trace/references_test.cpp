// Every traceable variant of every registered puzzle: the reference is race-free, reads no
// scratch it did not write, stays within its budget and is correct, under both TeamThreadRange
// distributions (CUDA's cyclic one and the host's blockwise one) and several team sizes; variants
// of flat kernels only (RangePolicy, MDRangePolicy) once, without a team size.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "kpz/trace/puzzle.hpp"
#include "kpz/transfer.hpp"

namespace {

struct Case {
  const kpz::PuzzleSpec* spec;
  const kpz::VariantSpec* variant;
};

std::vector<Case> traceable_variants() {
  std::vector<Case> out;
  for (const auto& spec : kpz::Registry::instance().all())
    for (const auto& v : spec.variants)
      if (v.trace.traceable) out.push_back({&spec, &v});
  return out;
}

TEST(References, EveryTraceableReferenceIsCleanForEveryTeamSize) {
  const auto cases = traceable_variants();
  ASSERT_GE(cases.size(), 45u);  // every variant of every puzzle but reduce --persistent
  for (const auto& c : cases) {
    for (int team : {0, 1, 3, 8}) {                                // 0: the variant's trace team size
      if (team != 0 && c.variant->trace.team_size == 0) continue;  // flat kernels only: no team size
      kpz::trace::TraceOptions o;
      o.impl = kpz::Impl::reference;
      o.team_size = team;
      const auto t = kpz::trace::trace_variant(*c.spec, *c.variant, o);
      EXPECT_TRUE(t.clean()) << kpz::trace::render_report(t, {});
    }
  }
}

// Every variant of every puzzle is traceable, or declares why it cannot be (and the trace says
// so instead of running it). Only reduce's persistent (a raw Kokkos::View of Quads), basics'
// subviews and dualview (plain Kokkos::Views: a subview, a DualView's two sides) and basics' tools
// (Kokkos Tools hear nothing of the trace's own executor) cannot be traced.
TEST(References, EveryVariantIsTraceableOrSaysWhyNot) {
  std::vector<std::string> untraceable;
  for (const auto& spec : kpz::Registry::instance().all()) {
    for (const auto& v : spec.variants) {
      if (v.trace.traceable) continue;
      EXPECT_FALSE(v.trace.not_traceable_reason.empty())
          << spec.name << " --" << v.name << " has no trace configuration";
      kpz::trace::TraceOptions o;
      o.impl = kpz::Impl::reference;
      const auto t = kpz::trace::trace_variant(spec, v, o);
      EXPECT_NE(t.not_traceable.find("cannot be traced: " + v.trace.not_traceable_reason), std::string::npos)
          << t.not_traceable;
      EXPECT_TRUE(t.runs.empty());
      untraceable.push_back(spec.name + " --" + v.name);
    }
  }
  std::sort(untraceable.begin(), untraceable.end());
  EXPECT_EQ(untraceable, (std::vector<std::string>{"basics --dualview", "basics --subviews", "basics --tools",
                                                   "reduce --persistent"}));
}

// basics' flat steps and reduce --builtin are traced: one run of flat kernels whose accesses are
// recorded (none left untraced), clean; a team size does not apply to them.
TEST(References, FlatVariantsAreTracedAndClean) {
  const std::vector<std::pair<std::string, std::string>> flat = {
      {"basics", "views"},          {"basics", "axpy"}, {"basics", "mdrange"},   {"basics", "reduce"},
      {"basics", "custom-reducer"}, {"basics", "scan"}, {"basics", "histogram"}, {"reduce", "builtin"}};
  for (const auto& [puzzle, variant] : flat) {
    const auto* spec = kpz::Registry::instance().find(puzzle);
    ASSERT_NE(spec, nullptr);
    const auto* v = kpz::find_variant(*spec, variant);
    ASSERT_NE(v, nullptr);
    kpz::trace::TraceOptions o;
    o.impl = kpz::Impl::reference;
    const auto t = kpz::trace::trace_variant(*spec, *v, o);
    EXPECT_TRUE(t.clean()) << kpz::trace::render_report(t, {});
    EXPECT_TRUE(t.flat) << puzzle << " --" << variant;
    ASSERT_EQ(t.runs.size(), 1u) << puzzle << " --" << variant;
    const auto& rec = t.runs.front().recording;
    EXPECT_FALSE(rec.teams.empty()) << puzzle << " --" << variant;
    for (const auto& team : rec.teams) EXPECT_TRUE(rec.kernels[team.launch].flat.flat());
    EXPECT_GT(rec.events.size(), 0u) << puzzle << " --" << variant;
    o.team_size = 4;
    EXPECT_THROW(kpz::trace::trace_variant(*spec, *v, o), kpz::UsageError) << puzzle << " --" << variant;
  }
}

// Every budget row of every traced reference has a limit for the counts the puzzle promises.
TEST(References, EveryTracedVariantDeclaresABudget) {
  for (const auto& c : traceable_variants()) {
    kpz::trace::TraceOptions o;
    o.impl = kpz::Impl::reference;
    const auto t = kpz::trace::trace_variant(*c.spec, *c.variant, o);
    int limited = 0;
    for (const auto& row : t.budget) limited += row.max.has_value();
    EXPECT_GE(limited, 4) << c.spec->name << " --" << c.variant->name;
  }
}

TEST(References, BudgetsAreDeclaredAndTight) {
  // conv1d --simple: each input once, one barrier; the measured values are the budget.
  const auto* spec = kpz::Registry::instance().find("conv1d");
  kpz::trace::TraceOptions o;
  o.impl = kpz::Impl::reference;
  const auto t = kpz::trace::trace_variant(*spec, *kpz::find_variant(*spec, "simple"), o);
  for (const auto& row : t.budget) {
    if (row.metric == kpz::trace::Metric::global_reads) {
      EXPECT_EQ(row.measured, 9);
      EXPECT_EQ(*row.max, 9);
    }
    if (row.metric == kpz::trace::Metric::barriers_per_team) EXPECT_EQ(row.measured, 1);
  }
}

// The framework's XorExchange (the benchmark's kernel, not an exercise) is race-free too.
TEST(References, XorExchangeIsRaceFree) {
  using S = Kokkos::Serial;
  for (auto d : {kpz::trace::Distribution::cyclic, kpz::trace::Distribution::blockwise}) {
    std::vector<float> host(48);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>((i * 7) % 13);
    kpz::View<const float*, S> in = kpz::to_device(S{}, "in", host);
    kpz::View<float*, S> out("out", host.size());
    kpz::trace::Session s(d);
    kpz::butterfly::conditional_exchange(S{}, kpz::butterfly::Launch{4, 16, 8}, in, out, kpz::team::XorPath::best);
    const auto rec = s.take();
    const auto a = kpz::trace::analyze(rec);
    EXPECT_TRUE(a.races.empty()) << kpz::trace::problems_text(rec, a);
    EXPECT_TRUE(a.uninitialized.empty()) << kpz::trace::problems_text(rec, a);
    EXPECT_EQ(rec.kernels.size(), 1u);
  }
}

}  // namespace
