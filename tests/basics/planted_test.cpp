// Planted mistakes in basics --views, --dualview and --tools: the reference's kernel table with one step
// replaced by the same code less one call must fail, on every backend, with the message that
// names the call. On a host backend the DualView's two sides are one array, so the values come
// out right whatever is missing: only the DualView's flags can fail these.
#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "basics/basics.hpp"
#include "basics/spec.hpp"
#include "kpz_test.hpp"

namespace {

using namespace kpz::basics;
namespace KT = Kokkos::Tools::Experimental;

kpz::RunRequest request(const std::string& space, const char* variant,
                        std::map<std::string, std::int64_t> options = {}) {
  const kpz::PuzzleSpec* spec = kpz::Registry::instance().find("basics");
  kpz::RunRequest req;
  req.variant = kpz::find_variant(*spec, variant);
  req.impl = kpz::Impl::reference;
  req.space = space;
  for (const auto& o : req.variant->options) {
    const auto it = options.find(o.name);
    req.params.set(o.name, it == options.end() ? o.fallback : it->second, it != options.end());
  }
  return req;
}

// The owner of the first finding, where the message names what is wrong.
std::string first_owner(const kpz::RunReport& r) {
  return r.mismatches.empty() ? std::string("(no finding)") : r.mismatches.front().owner;
}

// --- --views: the copy back not waited for --------------------------------------------------------

// The reference's views less its space.fence() (Copy::on_space): on a GPU out would hold h's old
// values. Copy::waiting: the two-argument deep_copy instead, which waits for everything itself:
// right. Copy::fence_after_read: the fence there, but after the host loop that reads h.
enum class Copy { on_space, waiting, fence_after_read };

template <class Space, Copy copy_back>
void views_without_fence(const Space& space, HostView<const float*> in, HostView<float*> out) {
  const int n = static_cast<int>(in.extent(0));
  kpz::View<float*, Space> d(Kokkos::view_alloc(space, "d"), n);
  auto h = Kokkos::create_mirror_view(d);
  for (int i = 0; i < n; ++i) h(i) = in(i);
  Kokkos::deep_copy(space, d, h);
  Kokkos::parallel_for(
      "basics::views", Kokkos::RangePolicy<Space>(space, 0, n), KOKKOS_LAMBDA(int i) { d(i) = 2.0f * d(i) + 1.0f; });
  if constexpr (copy_back == Copy::waiting)
    Kokkos::deep_copy(h, d);
  else
    Kokkos::deep_copy(space, h, d);
  for (int i = 0; i < n; ++i) out(i) = h(i);
  if constexpr (copy_back == Copy::fence_after_read) space.fence();
}

// Whether some finding of r has an owner that starts with `owner`.
bool has_finding(const kpz::RunReport& r, const std::string& owner) {
  for (const auto& m : r.mismatches)
    if (m.owner.rfind(owner, 0) == 0) return true;
  return false;
}

template <class Space>
void check_views_plants(const Space& space, const std::string& name) {
  const auto req = request(name, "views", {{"size", 37}});
  Kernels<Space> k = kernels<Space>(kpz::Impl::reference);
  EXPECT_TRUE(views_with(space, req, k).pass);
  k.views = &views_without_fence<Space, Copy::waiting>;
  EXPECT_TRUE(views_with(space, req, k).pass) << "deep_copy(h, d) waits itself";
  k.views = &views_without_fence<Space, Copy::on_space>;
  const kpz::RunReport r = views_with(space, req, k);
  EXPECT_FALSE(r.pass) << "no fence after deep_copy(space, h, d)";
  EXPECT_EQ(first_owner(r).rfind("TODO 2: wait for the copy into h", 0), 0u) << kpz::test::describe(r);
  EXPECT_TRUE(has_finding(r, "element 0: out read from h before the copy into h landed")) << kpz::test::describe(r);
  // The fence is there, after the loop that read h: Kokkos Tools see a fence after the copy, the
  // values do not (the copy lands at the fence, after the reads).
  k.views = &views_without_fence<Space, Copy::fence_after_read>;
  const kpz::RunReport late = views_with(space, req, k);
  EXPECT_FALSE(late.pass) << "h read before space.fence()";
  EXPECT_EQ(first_owner(late).rfind("element 0: out read from h before the copy into h landed", 0), 0u)
      << kpz::test::describe(late);
}

// --- --dualview: each step less its one call ----------------------------------------------------

template <class Space>
void fill_unmarked(HostView<const float*> in, DualView<float*, Space> dv) {
  const auto h = dv.view_host();
  for (std::size_t i = 0; i < in.extent(0); ++i) h(i) = in(i);
}

template <class Space>
void fill_marks_device(HostView<const float*> in, DualView<float*, Space> dv) {
  fill_unmarked(in, dv);
  dv.modify_device();
}

template <class Space>
void no_sync(const Space&, DualView<float*, Space>) {}

template <class Space>
void forget_instead_of_sync(const Space&, DualView<float*, Space> dv) {
  dv.clear_sync_state();
}

template <class Space>
void compute_unmarked(const Space& space, DualView<float*, Space> dv) {
  const auto d = dv.view_device();
  Kokkos::parallel_for(
      "basics::dualview", Kokkos::RangePolicy<Space>(space, 0, d.extent(0)),
      KOKKOS_LAMBDA(int i) { d(i) = 2.0f * d(i) + 1.0f; });
}

// One index too many: the write lands in the guard after dv's end.
template <class Space>
void compute_past_end(const Space& space, DualView<float*, Space> dv) {
  const auto d = dv.view_device();
  const auto past =
      Kokkos::View<float*, typename Space::memory_space, Kokkos::MemoryUnmanaged>(d.data(), d.extent(0) + 1);
  Kokkos::parallel_for(
      "basics::dualview", Kokkos::RangePolicy<Space>(space, 0, past.extent(0)),
      KOKKOS_LAMBDA(int i) { past(i) = 2.0f * past(i) + 1.0f; });
  dv.modify_device();
}

template <class Space>
void check_dualview_plants(const Space& space, const std::string& name) {
  const auto req = request(name, "dualview", {{"size", 37}});
  const Kernels<Space> reference = kernels<Space>(kpz::Impl::reference);
  EXPECT_TRUE(dualview_with(space, req, reference).pass);

  struct Plant {
    const char* what;
    Kernels<Space> k;
    const char* message;
  };
  std::vector<Plant> plants(6, Plant{"", reference, ""});
  plants[0] = {"no modify_host", reference, "dualview_fill (TODO 3): missing modify_host"};
  plants[0].k.dualview_fill = &fill_unmarked<Space>;
  plants[1] = {"modify_device in fill", reference,
               "dualview_fill (TODO 3): missing modify_host (its calls: modify_device)"};
  plants[1].k.dualview_fill = &fill_marks_device<Space>;
  plants[2] = {"no sync_device", reference, "dualview_to_device (TODO 4): missing sync_device"};
  plants[2].k.dualview_to_device = &no_sync<Space>;
  plants[3] = {"clear_sync_state", reference,
               "dualview_to_device (TODO 4): missing sync_device (its calls: clear_sync_state)"};
  plants[3].k.dualview_to_device = &forget_instead_of_sync<Space>;
  plants[4] = {"no modify_device", reference, "dualview_compute (TODO 5): missing modify_device"};
  plants[4].k.dualview_compute = &compute_unmarked<Space>;
  plants[5] = {"no sync_host", reference, "dualview_to_host (TODO 6): missing sync_host"};
  plants[5].k.dualview_to_host = &no_sync<Space>;
  Kernels<Space> past_end = reference;
  past_end.dualview_compute = &compute_past_end<Space>;
  const kpz::RunReport r = dualview_with(space, req, past_end);
  EXPECT_FALSE(r.pass);
  bool named = false;
  for (const auto& m : r.mismatches)
    named |= m.owner.find("(37) after dualview_compute: an index past dv's end") != std::string::npos;
  EXPECT_TRUE(named) << kpz::test::describe(r);
  for (const Plant& p : plants) {
    const kpz::RunReport r = dualview_with(space, req, p.k);
    EXPECT_FALSE(r.pass) << p.what;
    EXPECT_EQ(first_owner(r).rfind(p.message, 0), 0u) << p.what << ": " << kpz::test::describe(r);
  }
}

// --- --tools: callbacks of the test's own -------------------------------------------------------

std::atomic<int> begun{0}, ended{0}, outer_calls{0};
void count_begin(const char*, std::uint32_t, std::uint64_t* id) {
  *id = static_cast<std::uint64_t>(begun++);
}
void count_end(std::uint64_t) {
  ++ended;
}
// Counts the workload's kernels (the run's own setup, a View's initialisation, may reach it).
void outer_begin(const char* label, std::uint32_t, std::uint64_t*) {
  if (std::string(label).rfind("basics::tools::", 0) == 0) ++outer_calls;
}

// Registers for every kind of kernel and returns with the callbacks still registered.
template <class Space>
void left_registered(const Space& space, const Workload<Space>& workload, KernelTimes&) {
  KT::set_begin_parallel_for_callback(count_begin);
  KT::set_end_parallel_for_callback(count_end);
  KT::set_begin_parallel_reduce_callback(count_begin);
  KT::set_end_parallel_reduce_callback(count_end);
  workload(space);
}

template <class Space>
void check_tools_plants(const Space& space, const std::string& name) {
  const auto req = request(name, "tools", {{"elements", 20000}, {"launches", 6}});
  Kernels<Space> k = kernels<Space>(kpz::Impl::reference);
  EXPECT_TRUE(tools_with(space, req, k).pass);

  k.time_kernels = &left_registered<Space>;
  const kpz::RunReport r = tools_with(space, req, k);
  EXPECT_FALSE(r.pass);
  bool named = false;
  for (const auto& m : r.mismatches)
    named |= m.actual ==
                 "still registered: begin_parallel_for, end_parallel_for, begin_parallel_reduce, "
                 "end_parallel_reduce" &&
             m.owner.rfind("time_kernels: the callbacks must be unregistered", 0) == 0;
  EXPECT_TRUE(named) << kpz::test::describe(r);
  // The framework put the callbacks of before the run back: none.
  EXPECT_EQ(KT::get_callbacks().begin_parallel_for, nullptr);
  EXPECT_EQ(KT::get_callbacks().end_parallel_reduce, nullptr);

  // A tool registered before the run (a KOKKOS_TOOLS_LIBS library) is set aside for the workload
  // and back after it, untouched by the learner's registering and unregistering.
  KT::set_begin_parallel_for_callback(outer_begin);
  outer_calls = 0;
  EXPECT_TRUE(tools_with(space, req, kernels<Space>(kpz::Impl::reference)).pass);
  EXPECT_EQ(outer_calls.load(), 0);
  EXPECT_EQ(KT::get_callbacks().begin_parallel_for, &outer_begin);
  KT::set_begin_parallel_for_callback(nullptr);
}

class Planted : public ::testing::TestWithParam<std::string> {};

TEST_P(Planted, ViewsCopyBackNotWaitedForFails) {
  kpz::with_space(GetParam(), [&](const auto& space) { check_views_plants(space, GetParam()); });
}

TEST_P(Planted, DualViewEachMissingCallIsNamed) {
  kpz::with_space(GetParam(), [&](const auto& space) { check_dualview_plants(space, GetParam()); });
}

TEST_P(Planted, ToolsCallbacksLeftRegisteredFailAndAreRemoved) {
  kpz::with_space(GetParam(), [&](const auto& space) { check_tools_plants(space, GetParam()); });
}

INSTANTIATE_TEST_SUITE_P(Spaces, Planted, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
