#pragma once
// The trace build's team kernels (KPZ_TRACE; what kpz/types.hpp includes): kpz::TeamPolicy and
// kpz::TeamMember become trace::TeamPolicy and trace::Member (team_member.hpp), the nested team
// API a kernel calls on them (TeamThreadRange, nested parallel_for/reduce/scan, single, ...) is
// overloaded for them (nested.hpp), and this header launches them: Kokkos::parallel_for and
// parallel_reduce over a trace::TeamPolicy, in namespace Kokkos, so that the kernel source is
// unchanged. Flat kernels (RangePolicy, MDRangePolicy) are traced by flat.hpp.
//
// Execution model (see runtime.hpp): teams run one after another; in a team, members run one at
// a time in rank order between synchronisations. TeamThreadRange follows the Session's
// Distribution: cyclic (CUDA: i = rank, rank + T, ...) or blockwise (host backends).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "kpz/trace/flat.hpp"
#include "kpz/trace/nested.hpp"
#include "kpz/trace/runtime.hpp"
#include "kpz/trace/single.hpp"
#include "kpz/trace/team_member.hpp"
#include "kpz/trace/view.hpp"

namespace kpz::trace {

// Runs a kernel: every team, one after another, each member on its own thread.
struct NoOp {
  void operator()() const {}
};
template <class Space, class Body, class AfterTeam = NoOp>
void launch(const std::string& label, const TeamPolicy<Space>& p, const Body& body, const AfterTeam& after_team = {}) {
  if (current_member()) throw KernelError("a TeamPolicy kernel launched inside another kernel");
  flush_deferred();
  Session* s = Session::active();
  const std::int32_t id = s ? s->begin_kernel(label, p.league_size(), p.team_size(), p.impl_vector_length()) : -1;
  for (int league = 0; league < p.league_size(); ++league) {
    TeamSetup setup{id, league, p.league_size(), p.team_size(), p.impl_vector_length(), {0, 0}};
    for (int level = 0; level < 2; ++level)
      setup.scratch_bytes[level] = p.team_scratch_size(level) + p.thread_scratch_size(level) * p.team_size();
    run_team(setup, [&](MemberCore& core, void* s0, void* s1) {
      const Member<Space> member(core, s0, setup.scratch_bytes[0], s1, setup.scratch_bytes[1]);
      body(member);
    });
    after_team();
  }
}

}  // namespace kpz::trace

namespace Kokkos {

// ---- Outer launches ------------------------------------------------------------------------

template <class Space, class F>
void parallel_for(const std::string& label, const kpz::trace::TeamPolicy<Space>& policy, const F& f) {
  kpz::trace::launch(label, policy, [&](const kpz::trace::Member<Space>& m) { f(m); });
}
template <class Space, class F>
void parallel_for(const kpz::trace::TeamPolicy<Space>& policy, const F& f) {
  kpz::trace::launch("", policy, [&](const kpz::trace::Member<Space>& m) { f(m); });
}

// parallel_reduce over a team policy: each member contributes through f(member, value&); the
// result joins the contributions in (league rank, team rank) order.
template <class Space, class F, class Result>
void parallel_reduce(const std::string& label, const kpz::trace::TeamPolicy<Space>& policy, const F& f,
                     Result&& result) {
  const auto join = kpz::trace::join_for(result);
  using V = typename decltype(join)::value_type;
  V total;
  join.init(total);
  std::vector<V> partial(static_cast<std::size_t>(policy.team_size()));
  kpz::trace::launch(
      label, policy,
      [&](const kpz::trace::Member<Space>& m) {
        V mine;
        join.init(mine);
        f(m, mine);
        partial[static_cast<std::size_t>(m.team_rank())] = mine;
      },
      [&] {
        for (const V& v : partial) join.join(total, v);
      });
  join.store(result, total);
}
template <class Space, class F, class Result>
void parallel_reduce(const kpz::trace::TeamPolicy<Space>& policy, const F& f, Result&& result) {
  Kokkos::parallel_reduce(std::string(), policy, f, std::forward<Result>(result));
}

}  // namespace Kokkos
