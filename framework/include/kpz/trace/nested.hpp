#pragma once
// The trace build's nested team API (KPZ_TRACE): TeamThreadRange, ThreadVectorRange,
// TeamVectorRange and the nested parallel_for / parallel_reduce / parallel_scan over them (single
// is single.hpp), overloaded in namespace Kokkos for kpz::trace::Member (team_member.hpp) so that kernel
// sources are unchanged. TeamThreadRange follows the member's Distribution: cyclic (CUDA: i =
// rank, rank + T, ...) or blockwise (host backends). What is not modelled fails to compile with a
// static_assert that says so (team-level MDRange loops, scans over TeamVectorRange, custom value
// types without a reducer).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kpz/trace/runtime.hpp"
#include "kpz/trace/team_member.hpp"

namespace kpz::trace {

// Nested loop bounds.
template <class I, class Space, bool Vector = false>
struct ThreadRange {  // TeamThreadRange, and TeamVectorRange when Vector is set
  static constexpr bool vector = Vector;
  const Member<Space>& member;
  I begin, end;
};
template <class I, class Space>
using TeamVectorRangeOf = ThreadRange<I, Space, true>;
template <class I, class Space>
struct VectorRange {  // ThreadVectorRange
  const Member<Space>& member;
  I begin, end;
};
template <class Space>
struct SingleTeam {
  const Member<Space>& member;
};
template <class Space>
struct SingleThread {
  const Member<Space>& member;
};

// Calls f(i, lane) for every index of the range this member owns, in order.
template <class I, class Space, bool V, class F>
void for_each_owned(const ThreadRange<I, Space, V>& r, const F& f) {
  MemberCore& c = r.member.core();
  if (c.range_depth > 0 || c.vector_depth > 0)
    throw KernelError("a TeamThreadRange / TeamVectorRange loop inside another nested loop's body");
  const std::int64_t b = r.begin, e = r.end, t = c.team_size, v = c.vector_length;
  ++c.range_depth;
  if (r.vector) ++c.team_vector_depth;
  struct Guard {
    MemberCore& c;
    bool vector;
    ~Guard() {
      --c.range_depth;
      if (vector) --c.team_vector_depth;
      c.lane = -1;
    }
  } guard{c, r.vector};
  // Each iteration's deferred accesses are recorded before the next (its lane may differ).
  auto step = [&](std::int64_t i, int lane) {
    flush_deferred();
    f(static_cast<I>(i), lane);
  };
  if (c.distribution == Distribution::blockwise) {
    const std::int64_t chunk = (e - b + t - 1) / t;
    const std::int64_t s = b + chunk * c.rank;
    for (std::int64_t i = s; i < std::min(e, s + chunk); ++i) step(i, -1);
  } else if (!r.vector) {
    for (std::int64_t i = b + c.rank; i < e; i += t) step(i, -1);
  } else {
    for (std::int64_t k = b + c.rank * v; k < e; k += t * v)
      for (std::int64_t l = 0; l < v && k + l < e; ++l) step(k + l, static_cast<int>(l));
  }
  flush_deferred();
}

// A ThreadVectorRange scan's calls, on the lanes Kokkos' CUDA backend makes them (cyclic
// distribution): per chunk of vector_length indices, lane l > 0 first makes index (l - 1)'s
// non-final call, then every lane the final call of its own index. So a scan closure that writes
// in its non-final calls races between lanes, as on a GPU. Blockwise (the host's order): the final
// calls only, in order.
template <class I, class Space, class NonFinal, class Final>
void for_each_scan_lane(const VectorRange<I, Space>& r, const NonFinal& non_final, const Final& final_call) {
  MemberCore& c = r.member.core();
  if (c.vector_depth > 0) throw KernelError("a ThreadVectorRange loop inside another ThreadVectorRange body");
  ++c.vector_depth;
  const int saved_lane = c.lane;
  struct Guard {
    MemberCore& c;
    int lane;
    ~Guard() {
      --c.vector_depth;
      c.lane = lane;
      c.end_vector_loop();
    }
  } guard{c, saved_lane};
  const bool lanes = c.distribution == Distribution::cyclic;
  const std::int64_t b = r.begin, e = static_cast<std::int64_t>(r.end);
  const std::int64_t v = lanes ? c.vector_length : std::max<std::int64_t>(1, e - b);
  for (std::int64_t k = b; k < e; k += v) {
    for (std::int64_t l = 1; lanes && l < v && k + l - 1 < e; ++l) {
      flush_deferred();
      c.lane = static_cast<int>(l);
      non_final(static_cast<I>(k + l - 1));
    }
    for (std::int64_t l = 0; l < v && k + l < e; ++l) {
      flush_deferred();
      c.lane = lanes ? static_cast<int>(l) : -1;
      final_call(static_cast<I>(k + l));
    }
  }
}

// A ThreadVectorRange loop: index i on lane i mod vector_length (cyclic), or all in order on no
// lane (blockwise).
template <class I, class Space, class F>
void for_each_lane(const VectorRange<I, Space>& r, const F& f) {
  for_each_scan_lane(
      r, [](I) {}, f);
}

template <class V>
struct SumJoin {
  using value_type = V;
  void init(V& v) const { v = V(); }
  void join(V& a, const V& b) const { a += b; }
  static void store(V& result, const V& v) { result = v; }
};

template <class R>
struct ReducerJoin {
  using value_type = typename R::value_type;
  const R& reducer;
  void init(value_type& v) const { reducer.init(v); }
  void join(value_type& a, const value_type& b) const { reducer.join(a, b); }
  static void store(const R& result, const value_type& v) { result.reference() = v; }
};

// How a nested reduction's result combines: a Kokkos reducer's init and join, or += into a value.
template <class R>
auto join_for(const R& result) {
  static_assert(!Kokkos::is_view_v<R>,
                "trace build: a team or nested parallel_reduce into a View is not traceable yet");
  if constexpr (Kokkos::is_reducer<R>::value) {
    return ReducerJoin<R>{result};
  } else {
    static_assert(
        std::is_arithmetic_v<R> || requires(R & a, const R& b) { a += b; },
        "trace build: a team or nested parallel_reduce into a value without += needs a Kokkos reducer "
        "(Kokkos::Sum, Max, Min, ...)");
    return SumJoin<R>{};
  }
}

// The team-wide combination of every member's `value`, in rank order.
template <class V, class Join>
void team_combine(MemberCore& c, SyncKind kind, Loc loc, V& value, const Join& join) {
  c.collective(kind, loc, &value, [&join](const std::vector<void*>& slots) {
    V total = *static_cast<V*>(slots[0]);
    for (std::size_t r = 1; r < slots.size(); ++r) join.join(total, *static_cast<V*>(slots[r]));
    for (void* s : slots) *static_cast<V*>(s) = total;
  });
}

template <class F>
using scan_value_t =
    typename Kokkos::Impl::FunctorAnalysis<Kokkos::Impl::FunctorPatternInterface::SCAN, void, F, void>::value_type;

}  // namespace kpz::trace

namespace Kokkos {

// ---- Nested ranges -------------------------------------------------------------------------

// The three nested ranges, each with Kokkos' two overloads: (member, count) and (member, begin,
// end). Counts and bounds may be view elements (`TeamThreadRange(team, s_count(0))`): read once.
#define KPZ_TRACE_NESTED_RANGE(Name, Range)                                                  \
  template <class I, class Space>                                                            \
  Range<kpz::trace::plain_t<I>, Space> Name(const kpz::trace::Member<Space>& m, I&& count) { \
    return {m, kpz::trace::plain_t<I>(0), kpz::trace::plain(std::forward<I>(count))};        \
  }                                                                                          \
  template <class I1, class I2, class Space,                                                 \
            class C = std::common_type_t<kpz::trace::plain_t<I1>, kpz::trace::plain_t<I2>>>  \
  Range<C, Space> Name(const kpz::trace::Member<Space>& m, I1&& begin, I2&& end) {           \
    return {m, static_cast<C>(kpz::trace::plain(std::forward<I1>(begin))),                   \
            static_cast<C>(kpz::trace::plain(std::forward<I2>(end)))};                       \
  }
KPZ_TRACE_NESTED_RANGE(TeamThreadRange, kpz::trace::ThreadRange)
KPZ_TRACE_NESTED_RANGE(TeamVectorRange, kpz::trace::TeamVectorRangeOf)
KPZ_TRACE_NESTED_RANGE(ThreadVectorRange, kpz::trace::VectorRange)
#undef KPZ_TRACE_NESTED_RANGE

template <class I, class Space, bool V, class F>
void parallel_for(const kpz::trace::ThreadRange<I, Space, V>& r, const F& f) {
  kpz::trace::MemberCore& c = r.member.core();
  kpz::trace::for_each_owned(r, [&](I i, int lane) {
    if (lane >= 0) c.lane = lane;
    f(i);
  });
}
template <class I, class Space, class F>
void parallel_for(const kpz::trace::VectorRange<I, Space>& r, const F& f) {
  kpz::trace::for_each_lane(r, f);
}

// Nested reductions: a collective over the team (TeamThreadRange / TeamVectorRange) or over a
// member's lanes (ThreadVectorRange).
template <class I, class Space, bool Vec, class F, class Result>
void parallel_reduce(const kpz::trace::ThreadRange<I, Space, Vec>& r, const F& f, Result&& result,
                     kpz::trace::Loc loc = KPZ_TRACE_HERE) {
  const auto join = kpz::trace::join_for(result);
  kpz::trace::MemberCore& c = r.member.core();
  typename decltype(join)::value_type value;
  join.init(value);
  kpz::trace::for_each_owned(r, [&](I i, int lane) {
    if (lane >= 0) c.lane = lane;
    f(i, value);
  });
  kpz::trace::team_combine(c, kpz::trace::SyncKind::reduce, loc, value, join);
  join.store(result, value);
}

template <class I, class Space, class F, class Result>
void parallel_reduce(const kpz::trace::VectorRange<I, Space>& r, const F& f, Result&& result) {
  const auto join = kpz::trace::join_for(result);
  typename decltype(join)::value_type value;
  join.init(value);
  kpz::trace::for_each_lane(r, [&](I i) { f(i, value); });
  join.store(result, value);
}

// Nested scans over team members: as Kokkos does it on the backend the Distribution mimics.
// blockwise (host): each member scans its block (final = false), team_scan of the block sums,
// the final pass, then a broadcast of the total. cyclic (CUDA): per chunk of team_size indices,
// one index per member: a first pass, team_scan, the final pass, a broadcast.
template <class I, class Space, bool Vec, class F, class V>
void parallel_scan(const kpz::trace::ThreadRange<I, Space, Vec>& r, const F& f, V& total,
                   kpz::trace::Loc loc = KPZ_TRACE_HERE) {
  static_assert(std::is_same_v<kpz::trace::scan_value_t<F>, V>, "Non-matching value types of closure and return type");
  static_assert(!Vec, "trace build: parallel_scan over TeamVectorRange is not traceable yet");
  const kpz::trace::Member<Space>& m = r.member;
  kpz::trace::MemberCore& c = m.core();
  if (c.distribution == kpz::trace::Distribution::blockwise) {
    V accum = V();
    kpz::trace::for_each_owned(r, [&](I i, int) { f(i, accum, false); });
    accum = m.team_scan(accum, loc);
    kpz::trace::for_each_owned(r, [&](I i, int) { f(i, accum, true); });
    m.team_broadcast(accum, m.team_size() - 1, loc);
    total = accum;
    return;
  }
  const std::int64_t n = static_cast<std::int64_t>(r.end) - static_cast<std::int64_t>(r.begin);
  const std::int64_t t = m.team_size();
  V accum = V();
  for (std::int64_t chunk = 0; chunk < (n + t - 1) / t; ++chunk) {
    const I ii = static_cast<I>(r.begin + chunk * t + m.team_rank());
    const bool mine = static_cast<std::int64_t>(ii) < static_cast<std::int64_t>(r.end);
    V local = V();
    if (mine) {
      ++c.range_depth;
      f(ii, local, false);
      --c.range_depth;
    }
    local = m.team_scan(local, loc);
    V val = accum + local;
    if (mine) {
      ++c.range_depth;
      f(ii, val, true);
      --c.range_depth;
    }
    if (m.team_rank() == m.team_size() - 1) accum = val;
    m.team_broadcast(accum, m.team_size() - 1, loc);
  }
  total = accum;
}
template <class I, class Space, bool Vec, class F>
void parallel_scan(const kpz::trace::ThreadRange<I, Space, Vec>& r, const F& f, kpz::trace::Loc loc = KPZ_TRACE_HERE) {
  kpz::trace::scan_value_t<F> total;
  Kokkos::parallel_scan(r, f, total, loc);
}

template <class I, class Space, class F, class V>
requires(!Kokkos::is_reducer<V>::value) void parallel_scan(const kpz::trace::VectorRange<I, Space>& r, const F& f,
                                                           V& total) {
  V accum = V();
  kpz::trace::for_each_scan_lane(
      r,
      [&](I i) {
        V partial = V();
        f(i, partial, false);
      },
      [&](I i) { f(i, accum, true); });
  total = accum;
}
template <class I, class Space, class F>
void parallel_scan(const kpz::trace::VectorRange<I, Space>& r, const F& f) {
  kpz::trace::scan_value_t<F> total;
  Kokkos::parallel_scan(r, f, total);
}
template <class I, class Space, class F, class R>
requires Kokkos::is_reducer<R>::value void parallel_scan(const kpz::trace::VectorRange<I, Space>& r, const F& f,
                                                         const R& reducer) {
  typename R::value_type accum;
  reducer.init(accum);
  kpz::trace::for_each_scan_lane(
      r,
      [&](I i) {
        typename R::value_type partial;
        reducer.init(partial);
        f(i, partial, false);
      },
      [&](I i) { f(i, accum, true); });
}

// ---- What the trace build does not model yet -----------------------------------------------

template <class Rank, class Space, class F>
void parallel_for(const Kokkos::TeamThreadMDRange<Rank, kpz::trace::Member<Space>>&, const F&) {
  static_assert(kpz::trace::dependent_false<F>, "trace build: TeamThreadMDRange is not traceable yet");
}
template <class Rank, class Space, class F>
void parallel_for(const Kokkos::ThreadVectorMDRange<Rank, kpz::trace::Member<Space>>&, const F&) {
  static_assert(kpz::trace::dependent_false<F>, "trace build: ThreadVectorMDRange is not traceable yet");
}
template <class Rank, class Space, class F>
void parallel_for(const Kokkos::TeamVectorMDRange<Rank, kpz::trace::Member<Space>>&, const F&) {
  static_assert(kpz::trace::dependent_false<F>, "trace build: TeamVectorMDRange is not traceable yet");
}
template <class Rank, class Space, class F, class R>
void parallel_reduce(const Kokkos::TeamThreadMDRange<Rank, kpz::trace::Member<Space>>&, const F&, R&&) {
  static_assert(kpz::trace::dependent_false<F>, "trace build: TeamThreadMDRange is not traceable yet");
}
template <class Rank, class Space, class F, class R>
void parallel_reduce(const Kokkos::ThreadVectorMDRange<Rank, kpz::trace::Member<Space>>&, const F&, R&&) {
  static_assert(kpz::trace::dependent_false<F>, "trace build: ThreadVectorMDRange is not traceable yet");
}
template <class Rank, class Space, class F, class R>
void parallel_reduce(const Kokkos::TeamVectorMDRange<Rank, kpz::trace::Member<Space>>&, const F&, R&&) {
  static_assert(kpz::trace::dependent_false<F>, "trace build: TeamVectorMDRange is not traceable yet");
}

}  // namespace Kokkos
