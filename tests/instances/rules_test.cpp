// instances: the rules on a GPU's tool log, where instances have device ids of their own. A host
// build has no CUDA, so these logs are written out as Kokkos 5.0.2's CUDA backend reports them
// (core/src/Cuda: a partition is a new stream whose instance id counts up from 2, the default
// instance being 1; Kokkos::fence is "Kokkos::fence: Unnamed Global Fence" on instance 0; a tool
// callback is preceded by a global fence of its own). instances_test.cpp runs the same mistakes
// for real on the spaces of the build.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "instances/spec.hpp"

namespace {

using kpz::ToolEvent;
using kpz::instances::Finding;
using kpz::instances::judge;
using kpz::instances::Probe;
using Kind = ToolEvent::Kind;

constexpr std::uint32_t kCuda = 2u << 24;  // DeviceType::Cuda in the top 8 bits, device 0
constexpr std::uint32_t kDefault = 1, kMap = 2, kSum = 3;
const Probe gpu{.space = "cuda", .default_id = kCuda + kDefault, .ids_differ = true};

ToolEvent launch(Kind kind, const char* name, std::uint32_t instance) {
  return {kind, name, kCuda + instance};
}
ToolEvent fence(const char* name, std::uint32_t instance) {
  return {Kind::fence, name, kCuda + instance};
}
ToolEvent copy(const char* label) {
  return {Kind::copy, label, 0};
}
const ToolEvent tool_fence = fence("Kokkos::Tools::invoke_kokkosp_callback: Kokkos Profile Tool Fence", 0);
const char* kUnnamed = "Kokkos::Cuda::fence(): Unnamed Instance Fence";

// The reference's log, with the kernels on `map` and `sum`, and `tail` after the launches.
std::vector<ToolEvent> log_of(std::uint32_t map, std::uint32_t sum, const std::vector<ToolEvent>& tail) {
  std::vector<ToolEvent> log = {tool_fence, launch(Kind::parallel_for, "instances::axpy", map), tool_fence,
                                launch(Kind::parallel_reduce, "instances::sum_of_squares", sum)};
  log.insert(log.end(), tail.begin(), tail.end());
  return log;
}
const std::vector<ToolEvent> copies_then_fences = {copy("z_host"), copy("sum_host"), fence(kUnnamed, kMap),
                                                   fence(kUnnamed, kSum)};

std::string findings(const std::vector<ToolEvent>& log) {
  std::string s;
  for (const Finding& f : judge(log, gpu).findings) s += "expected " + f.expected + ", got " + f.got + "\n";
  return s;
}

TEST(InstanceRulesOnAGpu, TheReferencesLogPasses) {
  EXPECT_EQ(findings(log_of(kMap, kSum, copies_then_fences)), "");
  EXPECT_EQ(judge(log_of(kMap, kSum, copies_then_fences), gpu).judged.size(), 4u);
  // Each copy fenced right after it, on its own instance, is right too.
  EXPECT_EQ(
      findings(log_of(kMap, kSum, {copy("z_host"), fence(kUnnamed, kMap), copy("sum_host"), fence("my label", kSum)})),
      "");
}

TEST(InstanceRulesOnAGpu, AKernelOnTheDefaultInstanceIsNamed) {
  // The fences of the two partitions then do not wait for it either.
  EXPECT_EQ(findings(log_of(kDefault, kSum, copies_then_fences)),
            "expected 'instances::axpy' on an instance partition_space made, got the default instance\n"
            "expected a fence of the instance that ran 'instances::axpy' after copying into z_host, got no fence of "
            "that instance after the copy: the host may read z_host too early\n");
  EXPECT_EQ(findings(log_of(kMap, kDefault,
                            {copy("z_host"), copy("sum_host"), fence(kUnnamed, kMap), fence(kUnnamed, kDefault)})),
            "expected 'instances::sum_of_squares' on an instance partition_space made, got the default instance\n");
}

TEST(InstanceRulesOnAGpu, BothKernelsOnOneInstanceFail) {
  EXPECT_EQ(findings(log_of(kMap, kMap, {copy("z_host"), copy("sum_host"), fence(kUnnamed, kMap)})),
            "expected 'instances::axpy' and 'instances::sum_of_squares' on two different instances, got one "
            "instance for both, which runs them one after the other\n");
}

TEST(InstanceRulesOnAGpu, TheCopyOfEachResultNeedsAFenceOfItsOwnInstance) {
  // Two fences, both of the map's instance: the sum's copy is not waited for.
  EXPECT_EQ(
      findings(log_of(kMap, kSum, {copy("z_host"), copy("sum_host"), fence(kUnnamed, kMap), fence(kUnnamed, kMap)})),
      "expected a fence of the instance that ran 'instances::sum_of_squares' after copying into sum_host, got "
      "no fence of that instance after the copy: the host may read sum_host too early\n");
  // Fences before the copies.
  EXPECT_EQ(
      findings(log_of(kMap, kSum, {fence(kUnnamed, kMap), fence(kUnnamed, kSum), copy("z_host"), copy("sum_host")})),
      "expected a fence of the instance that ran 'instances::axpy' after copying into z_host, got no fence of "
      "that instance after the copy: the host may read z_host too early\n");
}

TEST(InstanceRulesOnAGpu, GlobalFencesAreTheLearnersOnlyWhenTheLearnerAsked) {
  // Kokkos' own global fences (tool callbacks, CUDA allocations) are not the learner's.
  EXPECT_EQ(findings(log_of(kMap, kSum,
                            {fence("Kokkos::Cuda: backend fence after async free", 0), copy("z_host"), copy("sum_host"),
                             fence(kUnnamed, kMap), fence(kUnnamed, kSum)})),
            "");
  const std::string global = findings(log_of(
      kMap, kSum,
      {copy("z_host"), copy("sum_host"), fence(kUnnamed, kMap), fence(kUnnamed, kSum), fence("wait for all", 0)}));
  EXPECT_EQ(global, "expected no global fence, got a fence of every instance of the device ('wait for all')\n");
}

TEST(InstanceRulesOnAGpu, OnAHostBackendTheInstanceRuleIsNotJudged) {
  const Probe host{.space = "openmp", .default_id = (1u << 24) + 1, .ids_differ = false};
  const auto v = judge({}, host);
  EXPECT_EQ(v.judged,
            (std::vector<std::string>{"no global fence", "every copy fenced", "no reduction waiting on the host"}));
  EXPECT_EQ(kpz::instances::rules_note(v, host).back(),
            "not judged on openmp: which instance ran each kernel (Kokkos gives every openmp instance the same tool "
            "device id; a GPU run judges it)");
}

}  // namespace
