// reduce's run: one case of a rung on a space: the inputs (1..N for the worked example, or
// seeded quarters), the oracle (per-team partial sums and the total), the launch and the check.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/tool_log.hpp"
#include "kpz/transfer.hpp"
#include "reduce/reduce.hpp"
#include "reduce/spec.hpp"

namespace kpz::reduce {

namespace {

constexpr double kExactFloat = 4194304.0;  // 2^22: quarters below it are exact floats

// Worked example when no size is given: 1, 2, ..., N. Otherwise the seeded random values of
// random_values (see oracle() for why floats are quarters).
template <class T>
std::vector<T> make_input(const RunRequest& req, std::size_t n) {
  if (req.params.given("size")) return random_values<T>(n, req.seed);
  std::vector<T> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<T>(i + 1);
  return in;
}

// Which elements each partial sum covers: [first(t), first(t + 1)).
struct Layout {
  std::vector<std::size_t> first;  // league + 1 boundaries
};

Layout layout_of(const VariantInfo& v, std::size_t n, const Launch& launch) {
  Layout l;
  if (v.variant == Variant::persistent) {
    const std::int64_t quads = static_cast<std::int64_t>(n / 4);
    for (int t = 0; t <= launch.league; ++t)
      l.first.push_back(t == launch.league ? n : static_cast<std::size_t>(4 * share_begin(quads, launch.league, t)));
    return l;
  }
  if (v.variant == Variant::team_reduce) {
    for (int t = 0; t <= launch.league; ++t)
      l.first.push_back(std::min(n, static_cast<std::size_t>(t) * static_cast<std::size_t>(launch.tile)));
    return l;
  }
  const std::size_t tile = static_cast<std::size_t>(launch.lanes) * static_cast<std::size_t>(v.unroll);
  for (int t = 0; t <= launch.league; ++t) l.first.push_back(std::min(n, static_cast<std::size_t>(t) * tile));
  return l;
}

struct Expected {
  std::vector<double> values, bound;  // per partial sum, then the total
};

// Exact sums in double (every sum of these inputs is an integer multiple of 1/4 below 2^53).
// Floats: a float sum of quarters whose magnitudes add up to less than 2^22 is exact in any order
// (every intermediate sum is a multiple of 1/4 below 2^22, which a 24-bit significand holds), so
// the bound is 0; above that, the usual bound 2 eps (terms + 1) sum|x| for any order.
template <class T>
Expected oracle(const std::vector<T>& in, const Layout& l, bool with_partials) {
  Expected e;
  double total = 0, total_abs = 0;
  const std::size_t teams = l.first.size() - 1;
  for (std::size_t t = 0; t < teams; ++t) {
    double sum = 0, abs_sum = 0;
    for (std::size_t i = l.first[t]; i < l.first[t + 1]; ++i) {
      sum += static_cast<double>(in[i]);
      abs_sum += std::fabs(static_cast<double>(in[i]));
    }
    total += sum;
    total_abs += abs_sum;
    if (with_partials) {
      e.values.push_back(sum);
      e.bound.push_back(abs_sum < kExactFloat ? 0.0 : sum_error_bound(abs_sum, l.first[t + 1] - l.first[t]));
    }
  }
  e.values.push_back(total);
  e.bound.push_back(total_abs < kExactFloat ? 0.0 : sum_error_bound(total_abs, in.size()));
  return e;
}

template <class Space, class T>
RunReport run_typed(const Space& space, const RunRequest& req) {
  const VariantInfo v = info(req.variant_as<Variant>());
  const std::size_t n = static_cast<std::size_t>(req.params.get("size"));
  const bool ladder = v.unroll > 0;
  const bool team_kernel = v.variant != Variant::builtin && v.variant != Variant::recursive;
  // Purpose::check: on a CPU, teams of as many threads as there are, so that races show.
  LaunchShape shape;
  const Launch launch = plan_launch(space, v, n, ladder ? static_cast<int>(req.params.get("lanes")) : 0,
                                    v.variant == Variant::team_reduce ? static_cast<int>(req.params.get("tile")) : 0,
                                    v.variant == Variant::persistent ? static_cast<int>(req.params.get("teams")) : 0,
                                    ShapeRequest{req.team_size, req.vector_length}, Purpose::check, &shape);
  check_scratch<Space>(
      scratch_bytes<Space, T>(v, launch), 0,
      "reduce --" + std::string(v.name) + (ladder ? " with " + std::to_string(launch.lanes) + " lanes" : ""));

  const std::vector<T> host_in = make_input<T>(req, n);
  auto in = to_device(space, "in", host_in);
  View<T*, Space> partial =
      poisoned_output<T>(space, "partial", team_kernel ? static_cast<std::size_t>(launch.league) : 0);
  View<T*, Space> work =
      poisoned_output<T>(space, "work", v.variant == Variant::recursive ? recursive_work_size(n, launch.lanes) : 0);
  View<T*, Space> result = poisoned_output<T>(space, "result", 1);
  View<unsigned*, Space> done(Kokkos::view_alloc(space, "done"), 1);  // --persistent's counter, 0
  space.fence();
  // --builtin's run is watched by Kokkos Tools (below); a log makes Kokkos fence around every
  // launch, which the other variants have no use for.
  std::vector<ToolEvent> events;
  if (v.variant == Variant::builtin) {
    const ToolLog log;
    run_variant<Space, T>(req.impl, v.variant, space, launch, in, partial, work, result, done);
    events = log.events();
  } else {
    run_variant<Space, T>(req.impl, v.variant, space, launch, in, partial, work, result, done);
  }
  space.fence();

  std::vector<T> got = team_kernel ? to_host(partial) : std::vector<T>{};
  got.push_back(to_host(result)[0]);
  const Layout layout = team_kernel ? layout_of(v, n, launch) : Layout{{0, n}};
  const Expected expected = oracle(host_in, layout, team_kernel);
  const std::size_t teams = team_kernel ? static_cast<std::size_t>(launch.league) : 0;
  const std::string final_pass = v.variant == Variant::builtin     ? "result(0), written by parallel_reduce"
                                 : v.variant == Variant::recursive ? "result(0), the last level of the recursion"
                                 : v.variant == Variant::persistent
                                     ? "result(0), the last team done adding the partial sums"
                                     : "result(0), the second launch adding the partial sums";
  const OwnerFn owner = [=](std::size_t i) {
    if (i >= teams) return final_pass;
    return "team " + std::to_string(i) + " (elements " + std::to_string(layout.first[i]) + " .. " +
           std::to_string(layout.first[i + 1] - 1) + ")";
  };

  RunReport report;
  report.config.set("size", n).set("type", std::is_integral_v<T> ? "int" : "float");
  if (ladder) report.config.set("lanes", launch.lanes).set("unroll", v.unroll);
  if (v.variant != Variant::builtin) {
    // The launch shape as the framework chose it (team_size, vector_length, tile), then the league.
    const Json chosen = shape.to_json();  // a named object: members() refers into it
    for (const auto& [key, value] : chosen.members()) report.config.set(key, value);
    report.config.set("teams", launch.league);
  }
  if (v.variant == Variant::team_reduce) report.config.set("row", row_width(launch));
  if (team_kernel)
    report.notes.push_back("values: the partial sum of each of the " + std::to_string(teams) +
                           " team(s), then the total");
  if (v.variant == Variant::recursive) {
    std::string levels = std::to_string(n);
    for (std::size_t c = n; c > 1;) {
      c = (c + launch.lanes - 1) / launch.lanes;
      levels += " -> " + std::to_string(c);
    }
    report.notes.push_back("levels (values per launch): " + levels);
  }
  if constexpr (std::is_integral_v<T>) {
    std::vector<T> want(expected.values.size());
    for (std::size_t i = 0; i < want.size(); ++i) want[i] = static_cast<T>(expected.values[i]);
    compare_exact(report, got, want, owner);
  } else {
    compare_within(report, got, expected.values, expected.bound, owner);
    report.config.set("tolerance_of_total", expected.bound.back());
  }
#if !defined(KPZ_TRACE)  // the trace build runs the reduction on its own executor, out of Kokkos Tools' sight
  if (v.variant == Variant::builtin) {
    // A scalar result makes parallel_reduce wait, on every backend: on a GPU that costs the
    // overlap, and a host value copied into result(0) afterwards is a host write to device
    // memory. The values cannot show it on a host backend; Kokkos Tools can.
    report.notes.push_back("values: result(0); after it, one check: parallel_reduce did not wait (its result a View)");
    report.checked += 1;
    if (std::any_of(events.begin(), events.end(), is_reduction_wait))
      add_finding(report, got.size(), "no wait inside builtin: result(0) written by parallel_reduce as a View",
                  "parallel_reduce waited for its result (a host value)",
                  "TODO 10: give parallel_reduce the View Kokkos::subview(result, 0) as its result, not a host "
                  "variable");
  }
#endif
  report.extra.set("sum", static_cast<double>(got.back())).set("expected_sum", expected.values.back());
  if (req.keep_arrays) report.inputs.set("in", Json::array_of(host_in));
  if (req.keep_arrays || got.size() <= 64) {
    report.output = Json::array_of(got);
    report.expected = Json::array_of(expected.values);
  }
  return report;
}

template <class Space>
RunReport run_on(const Space& space, const RunRequest& req) {
  return req.params.get("float") ? run_typed<Space, float>(space, req) : run_typed<Space, int>(space, req);
}

}  // namespace

RunReport run(const RunRequest& req) {
  return with_space(req.space, [&](const auto& space) { return run_on(space, req); });
}

}  // namespace kpz::reduce
