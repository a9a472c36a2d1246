// basics step 14 (--tools): a workload of seeded-random launch counts, timed by the learner's
// Kokkos Tools callbacks; the counts judged exactly, the times by what no timing noise can break
// (each label's time positive, their sum within the workload's wall time), and no callback may be
// left registered. The Tools callbacks in place before the run (a library loaded with
// KOKKOS_TOOLS_LIBS, another puzzle's log) are set aside for it and put back after it.
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "basics/basics.hpp"
#include "basics/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/errors.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::basics {

#if defined(KPZ_TRACE)
// The trace build runs flat kernels on its own executor, which Kokkos Tools never hear of.
template <class Space>
RunReport tools_with(const Space&, const RunRequest&, const Kernels<Space>&) {
  throw UsageError("basics --tools needs Kokkos' own launches, which the trace build replaces with its own");
}
#else
namespace {

namespace KT = Kokkos::Tools::Experimental;
using Clock = std::chrono::steady_clock;

// The workload's kernels: one label each, of every kind a callback is registered for.
enum class Kind { for_, reduce, scan };
struct Kernel {
  const char* label;
  Kind kind;
};
constexpr Kernel kKernels[4] = {{"basics::tools::scale", Kind::for_},
                                {"basics::tools::shift", Kind::for_},
                                {"basics::tools::norm", Kind::reduce},
                                {"basics::tools::prefix", Kind::scan}};

// The callbacks of the kernel events, set aside while the learner's are tried and put back after
// (also when the learner's code throws).
class SetAside {
 public:
  SetAside() : saved_(KT::get_callbacks()) {
    KT::EventSet none = saved_;
    none.begin_parallel_for = nullptr, none.end_parallel_for = nullptr;
    none.begin_parallel_reduce = nullptr, none.end_parallel_reduce = nullptr;
    none.begin_parallel_scan = nullptr, none.end_parallel_scan = nullptr;
    KT::set_callbacks(none);
  }
  ~SetAside() { KT::set_callbacks(saved_); }
  SetAside(const SetAside&) = delete;
  SetAside& operator=(const SetAside&) = delete;

 private:
  KT::EventSet saved_;
};

// The kernel events whose callbacks are still set.
std::string still_registered() {
  const KT::EventSet e = KT::get_callbacks();
  const std::pair<const char*, bool> slots[] = {{"begin_parallel_for", e.begin_parallel_for != nullptr},
                                                {"end_parallel_for", e.end_parallel_for != nullptr},
                                                {"begin_parallel_reduce", e.begin_parallel_reduce != nullptr},
                                                {"end_parallel_reduce", e.end_parallel_reduce != nullptr},
                                                {"begin_parallel_scan", e.begin_parallel_scan != nullptr},
                                                {"end_parallel_scan", e.end_parallel_scan != nullptr}};
  std::string s;
  for (const auto& [name, set] : slots)
    if (set) s += (s.empty() ? "" : ", ") + std::string(name);
  return s;
}

std::string kind_of(Kind kind) {
  return kind == Kind::for_ ? "parallel_for" : kind == Kind::reduce ? "parallel_reduce" : "parallel_scan";
}

// A rule judged once: one check, failed.
void finding(RunReport& r, std::size_t index, std::string expected, std::string actual, std::string owner) {
  ++r.checked;
  add_finding(r, index, std::move(expected), std::move(actual), std::move(owner));
}

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1e3);
  return buf;
}

// Launch j of the workload: kernel kKernels[j] over x and y, on s. A named function: CUDA's
// device lambdas may not sit in a lambda of the host's.
template <class Space, class X, class Y>
void launch(const Space& s, int j, const X& x, const Y& y) {
  const Kokkos::RangePolicy<Space> range(s, 0, y.extent(0));
  if (j == 0)
    Kokkos::parallel_for(
        kKernels[0].label, range, KOKKOS_LAMBDA(int i) { y(i) = 1.5f * x(i); });
  if (j == 1)
    Kokkos::parallel_for(
        kKernels[1].label, range, KOKKOS_LAMBDA(int i) { y(i) = y(i) - 0.25f; });
  if (j == 2) {
    float norm = 0;
    Kokkos::parallel_reduce(
        kKernels[2].label, range, KOKKOS_LAMBDA(int i, float& acc) { acc += y(i) * y(i); }, norm);
  }
  if (j == 3)
    Kokkos::parallel_scan(
        kKernels[3].label, range, KOKKOS_LAMBDA(int i, float& acc, bool final) {
          const float v = y(i);
          if (final) y(i) = acc;
          acc += v;
        });
}

}  // namespace

template <class Space>
RunReport tools_with(const Space& space, const RunRequest& req, const Kernels<Space>& k) {
  const auto n = static_cast<std::size_t>(req.params.get("elements"));
  const int most = static_cast<int>(req.params.get("launches"));
  Rng rng(req.seed);
  // Each kernel launched 1 to `most` times, the launches in a shuffled order.
  std::vector<int> expected_launches(4), order;
  for (int j = 0; j < 4; ++j) {
    expected_launches[j] = static_cast<int>(rng.integer(1, most));
    order.insert(order.end(), expected_launches[j], j);
  }
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.integer(0, i - 1)]);
  const auto x = to_device(space, "x", random_floats(rng, n, -1.0, 2.0));
  const Kokkos::View<float*, typename Space::memory_space> y(Kokkos::view_alloc(space, "y"), n);
  space.fence();

  int runs = 0;
  double wall = 0;
  const Workload<Space> workload = [&](const Space& s) {
    ++runs;
    const auto t0 = Clock::now();
    for (const int j : order) launch(s, j, x, y);
    s.fence();
    wall += std::chrono::duration<double>(Clock::now() - t0).count();
  };

  KernelTimes times;
  std::string left;
  {
    const SetAside aside;
    k.time_kernels(space, workload, times);
    left = still_registered();
  }

  RunReport report;
  report.config.set("elements", n).set("launches", most).set("launched", order.size());
  std::string labels, timed;
  std::vector<int> got;
  std::vector<int> want(expected_launches);
  double sum = 0;
  for (int j = 0; j < 4; ++j) {
    const auto it = times.find(kKernels[j].label);
    const KernelStat stat = it == times.end() ? KernelStat{} : it->second;
    got.push_back(stat.launches);
    sum += stat.seconds;
    labels += (j ? ", " : "") + std::string(kKernels[j].label);
    timed += (j ? ", " : "") + ms(stat.seconds);
  }
  report.notes.push_back("values: the launches of " + labels);
  report.notes.push_back("times: " + timed + "; their sum " + ms(sum) + " of the workload's " + ms(wall));
  const auto owner = [](std::size_t j) {
    return std::string(kKernels[j].label) + ", a " + kind_of(kKernels[j].kind) +
           ": counted by begin_kernel and end_kernel (TODO 29, 30), registered for its kind (TODO 31)";
  };
  compare_exact(report, req, got, want, owner, "order", order);
  std::size_t index = 4;
  if (runs != 1)
    finding(report, index++, "the workload run once", "run " + std::to_string(runs) + " times", "time_kernels");
  for (int j = 0; j < 4; ++j)
    if (got[j] > 0 && !(times.at(kKernels[j].label).seconds > 0))
      finding(report, index++, "a time above 0", ms(times.at(kKernels[j].label).seconds),
              std::string(kKernels[j].label) + "'s seconds: end_kernel adds the time since its begin (TODO 30)");
  for (const auto& [label, stat] : times) {
    bool known = false;
    for (const Kernel& kernel : kKernels) known |= label == kernel.label;
    if (!known)
      finding(report, index++, "no such kernel in the workload", label, "a label the callbacks made up (TODO 29, 30)");
  }
  // The launches run one after another inside the workload, so their times add up to less than
  // its wall time on one clock; the slack covers another clock's reads (1 us a launch).
  const double slack = 1e-6 * static_cast<double>(order.size()) + 1e-3 * wall;
  if (!(sum <= wall + slack))
    finding(report, index++, "at most the workload's " + ms(wall), ms(sum),
            "the sum of the kernels' seconds: each launch's time from its begin to its end, in seconds (TODO 30)");
  if (!left.empty())
    finding(report, index++, "no kernel callback registered after time_kernels", "still registered: " + left,
            "time_kernels: the callbacks must be unregistered before it returns (TODO 32)");
  report.pass = report.mismatch_count == 0;
  return report;
}
#endif

#define KPZ_BASICS_TOOLS_WITH(S) template RunReport tools_with<S>(const S&, const RunRequest&, const Kernels<S>&);
KPZ_FOR_EACH_SPACE(KPZ_BASICS_TOOLS_WITH)

namespace {
template <class Space>
RunReport tools_on(const Space& space, const RunRequest& req) {
  return tools_with(space, req, kernels<Space>(req.impl));
}
}  // namespace

const Runner run_tools = KPZ_ON_REQUEST_SPACE(tools_on);

}  // namespace kpz::basics
