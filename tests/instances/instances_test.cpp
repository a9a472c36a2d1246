// instances: the worked example, usage errors, one large case, and the instance rules' own
// mutation tests. Each rule of framework/puzzles/instances/spec.hpp is proved by planting the
// mistake it names in the reference's overlap and expecting that rule's finding, on every
// enabled space: where the space gives instances tool device ids of their own (CUDA) the
// instance rule must catch its mistakes; where it does not (Serial, OpenMP, Threads) the run
// must say that the rule is not judged, and must not fail for it. The edge cases and seeds are
// the spec's checks (support/variant_checks_test.cpp).
#include <Kokkos_Core.hpp>

#include <array>
#include <string>
#include <type_traits>

#include "instances/spec.hpp"
#include "kpz/errors.hpp"
#include "kpz_test.hpp"

namespace {

using kpz::RunReport;
using kpz::instances::HostView;
template <class T, class Space>
using View = kpz::View<T, Space>;

class Instances : public kpz::test::PuzzleTest {
 protected:
  Instances() : PuzzleTest("instances") {}
};

TEST_P(Instances, WorkedExample) {
  const RunReport r = run({"overlap", {}});
  KPZ_EXPECT_PASS(r);
  EXPECT_EQ(r.output.dump(), "[1,3,5,7,9,11,13,15,55]");
}

TEST_P(Instances, TeamShapesAreUsageErrors) {
  EXPECT_THROW(run({"overlap", {}, 2}), kpz::UsageError);
  EXPECT_THROW(run({"overlap", {}, 0, 2026, 4}), kpz::UsageError);
}

TEST_P(Instances, LargeRandomCase) {
  const RunReport r = run({"overlap", {{"size", (1 << 22) + 5}, {"sum-size", (1 << 20) + 3}}, 0, 77, 0, false});
  KPZ_EXPECT_PASS(r);
}

// --- The rules' mutation tests -----------------------------------------------------------------

// The mistakes, each planted alone in the reference's overlap.
enum class Plant {
  none,
  interleaved,        // copy z, fence, copy sum, fence: right, in another order
  map_on_default,     // axpy on `space`, the default instance
  one_instance,       // both jobs on the first partition
  no_partition,       // both jobs on `space`, each copy fenced (twice the same instance)
  global_fence,       // Kokkos::fence() instead of the two instance fences
  plain_deep_copy,    // deep_copy(dst, src): no instance
  no_fence,           // the copies, and no fence
  one_fence,          // only the first instance fenced
  fence_before_copy,  // both fences, then the copies
  host_reduce,        // the sum reduced into a host double, then copied into the View
};

template <class Space, Plant P>
void planted(const Space& space, float alpha, View<const float*, Space> x, View<const float*, Space> y,
             View<float*, Space> z, View<const float*, Space> w, const View<double, Space> sum, HostView<float*> z_host,
             HostView<double> sum_host) {
  const auto k = kpz::instances::kernels<Space>(kpz::Impl::reference);
  std::array<Space, 2> parts = Kokkos::Experimental::partition_space(space, 1, 1);
  if (P == Plant::no_partition) parts = {space, space};
  const Space& a = parts[0];
  const Space& b = P == Plant::one_instance ? parts[0] : parts[1];
  k.axpy(P == Plant::map_on_default ? space : a, alpha, x, y, z);
  if constexpr (P == Plant::host_reduce) {
    double s = 0;
    Kokkos::parallel_reduce(
        kpz::instances::kSumLabel, Kokkos::RangePolicy<Space>(b, 0, w.extent(0)),
        KOKKOS_LAMBDA(int i, double& partial) {
          const double v = w(i);
          partial += v * v;
        },
        s);
    Kokkos::deep_copy(b, sum, s);
  } else {
    k.sum_of_squares(b, w, sum);
  }
  if (P == Plant::fence_before_copy) {
    a.fence();
    b.fence();
  }
  if (P == Plant::plain_deep_copy) {
    Kokkos::deep_copy(z_host, z);
    Kokkos::deep_copy(sum_host, sum);
  } else {
    Kokkos::deep_copy(a, z_host, z);
    if (P == Plant::interleaved) a.fence();
    Kokkos::deep_copy(b, sum_host, sum);
  }
  if (P == Plant::global_fence) Kokkos::fence();
  if (P == Plant::interleaved) b.fence();
  if (P == Plant::one_fence) a.fence();
  if (P == Plant::none || P == Plant::map_on_default || P == Plant::one_instance || P == Plant::no_partition ||
      P == Plant::plain_deep_copy || P == Plant::host_reduce) {
    a.fence();
    b.fence();
  }
}

struct Planted {
  RunReport report;
  bool ids_differ = false;  // the space numbers instances apart (the instance rule is judged)

  // The findings as kpuzzles prints them: "expected ..., got ...  (where)", one per line.
  std::string findings() const {
    std::string s;
    for (const auto& m : report.mismatches)
      s += "expected " + m.expected + ", got " + m.actual + "  (" + m.owner + ")\n";
    return s;
  }
};

template <Plant P>
Planted run_planted(const std::string& space_name, std::int64_t n = 8, std::int64_t m = 5) {
  const kpz::PuzzleSpec* spec = kpz::Registry::instance().find("instances");
  kpz::RunRequest req;
  req.variant = kpz::find_variant(*spec, "overlap");
  req.space = space_name;
  req.params.set("size", n, true);
  req.params.set("sum-size", m, true);
  return kpz::with_space(space_name, [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    return Planted{kpz::instances::run_case(space, req, &planted<Space, P>), kpz::instances::probe(space).ids_differ};
  });
}

class InstanceRules : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (kpz::test::impl_under_test() == kpz::Impl::exercise)
      GTEST_SKIP() << "the planted mistakes test the checker, not the exercise";
  }
};

// The text contains the finding (kpuzzles prints them so: "expected ..., got ...  (where)").
#define EXPECT_CONTAINS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

TEST_P(InstanceRules, TheReferenceAndAnotherRightOrderPass) {
  for (const Planted& p : {run_planted<Plant::none>(GetParam()), run_planted<Plant::interleaved>(GetParam()),
                           run_planted<Plant::none>(GetParam(), 0, 0), run_planted<Plant::none>(GetParam(), 100000, 1)})
    KPZ_EXPECT_PASS(p.report);
}

// The instance rule, where it is judged; elsewhere the run says it is not and passes.
TEST_P(InstanceRules, AKernelOnTheDefaultInstanceFailsByName) {
  for (const Planted& p :
       {run_planted<Plant::map_on_default>(GetParam()), run_planted<Plant::no_partition>(GetParam())}) {
    if (!p.ids_differ) {
      KPZ_EXPECT_PASS(p.report);
      EXPECT_CONTAINS(p.report.notes.back(), "not judged on " + GetParam() + ": which instance ran each kernel");
      continue;
    }
    EXPECT_FALSE(p.report.pass);
    EXPECT_CONTAINS(p.findings(),
                    "expected 'instances::axpy' on an instance partition_space made, got the default "
                    "instance");
  }
}

TEST_P(InstanceRules, BothKernelsOnOneInstanceFail) {
  const Planted p = run_planted<Plant::one_instance>(GetParam());
  if (!p.ids_differ) {
    KPZ_EXPECT_PASS(p.report);
    return;
  }
  EXPECT_FALSE(p.report.pass);
  EXPECT_CONTAINS(p.findings(), "got one instance for both, which runs them one after the other");
}

TEST_P(InstanceRules, AGlobalFenceFails) {
  const Planted p = run_planted<Plant::global_fence>(GetParam());
  EXPECT_FALSE(p.report.pass);
  EXPECT_CONTAINS(p.findings(),
                  "expected no global fence, got a fence of every instance of the device "
                  "('Kokkos::fence: Unnamed Global Fence')");
}

TEST_P(InstanceRules, ADeepCopyWithoutAnInstanceFails) {
  const Planted p = run_planted<Plant::plain_deep_copy>(GetParam());
  EXPECT_FALSE(p.report.pass);
  EXPECT_CONTAINS(p.findings(), "expected no global fence, got a deep_copy without an instance");
}

// With N = 100000 a host backend copies z in parallel, a launch of Kokkos' own whose fences (the
// Threads backend ends each launch with one) must not count as the learner's.
TEST_P(InstanceRules, ACopyWithoutAFenceAfterItFails) {
  for (const Planted& p : {run_planted<Plant::no_fence>(GetParam()), run_planted<Plant::fence_before_copy>(GetParam()),
                           run_planted<Plant::no_fence>(GetParam(), 100000, 3)}) {
    EXPECT_FALSE(p.report.pass);
    if (p.ids_differ)
      EXPECT_CONTAINS(p.findings(), "got no fence of that instance after the copy: the host may read z_host too early");
    else
      EXPECT_CONTAINS(p.findings(), "got 0 instance fences after copying into 'z_host' and 'sum_host'");
  }
}

TEST_P(InstanceRules, OneInstanceLeftUnfencedFails) {
  for (const Planted& p :
       {run_planted<Plant::one_fence>(GetParam()), run_planted<Plant::one_fence>(GetParam(), 100000, 3)}) {
    EXPECT_FALSE(p.report.pass);
    if (p.ids_differ)
      EXPECT_CONTAINS(p.findings(),
                      "expected a fence of the instance that ran 'instances::sum_of_squares' after "
                      "copying into sum_host");
    else
      EXPECT_CONTAINS(p.findings(), "got 1 instance fence after copying into 'z_host' and 'sum_host'");
  }
}

TEST_P(InstanceRules, AReductionIntoAHostValueFails) {
  const Planted p = run_planted<Plant::host_reduce>(GetParam());
  EXPECT_FALSE(p.report.pass);
  EXPECT_CONTAINS(p.findings(), "got a wait on the host for its result");
}

// A tool loaded before the run (KOKKOS_TOOLS_LIBS=libkpz_kernel_times.so) sees every launch of
// it, and has its callbacks back afterwards.
std::uint64_t tool_launches = 0;
void count_launch(const char*, std::uint32_t, std::uint64_t* id) {
  *id = ++tool_launches;
}

TEST_P(InstanceRules, ALoadedToolKeepsItsCallbacks) {
  namespace KT = Kokkos::Tools::Experimental;
  const KT::EventSet before = KT::get_callbacks();
  KT::EventSet tool = before;
  tool.begin_parallel_for = count_launch;
  tool.begin_parallel_reduce = count_launch;
  KT::set_callbacks(tool);
  tool_launches = 0;
  const Planted p = run_planted<Plant::none>(GetParam());
  const KT::EventSet after = KT::get_callbacks();
  KT::set_callbacks(before);
  KPZ_EXPECT_PASS(p.report);
  EXPECT_GE(tool_launches, 2u);  // axpy and the sum, and any launch of the run's setup
  EXPECT_EQ(after.begin_parallel_for, &count_launch);
  EXPECT_EQ(after.begin_parallel_reduce, &count_launch);
}

INSTANTIATE_TEST_SUITE_P(Spaces, Instances, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Spaces, InstanceRules, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
