// Bug hunts: their references are clean; the skeletons' bugs pass the ordinary checks on Serial
// by luck. BugHunt.LearnerFixed* traces the learner's exercises (label learner: fails until fixed).
#include <gtest/gtest.h>

#include "kpz/registry.hpp"
#include "kpz/spaces.hpp"
#include "kpz/trace/puzzle.hpp"

namespace {

std::vector<std::pair<const kpz::PuzzleSpec*, const kpz::VariantSpec*>> bug_hunts() {
  std::vector<std::pair<const kpz::PuzzleSpec*, const kpz::VariantSpec*>> out;
  for (const auto& spec : kpz::Registry::instance().all())
    for (const auto& v : spec.variants)
      if (v.bug_hunt) out.emplace_back(&spec, &v);
  return out;
}

TEST(BugHunt, AtLeastTwoAndAllTraceable) {
  const auto hunts = bug_hunts();
  EXPECT_GE(hunts.size(), 2u);
  for (const auto& [spec, v] : hunts) EXPECT_TRUE(v->trace.traceable) << spec->name << " --" << v->name;
}

// Traces every bug hunt's `impl`: race-free, within budget and correct.
void expect_bug_hunts_clean(kpz::Impl impl) {
  for (const auto& [spec, v] : bug_hunts()) {
    kpz::trace::TraceOptions o;
    o.impl = impl;
    const auto t = kpz::trace::trace_variant(*spec, *v, o);
    EXPECT_TRUE(t.clean()) << kpz::trace::render_report(t, {});
  }
}

TEST(BugHunt, ReferencesAreClean) {
  expect_bug_hunts_clean(kpz::Impl::reference);
}

TEST(BugHunt, LearnerFixedEveryBugHunt) {
  expect_bug_hunts_clean(kpz::Impl::exercise);
}

}  // namespace
