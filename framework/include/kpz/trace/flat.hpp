#pragma once
// The trace build's flat kernels (KPZ_TRACE; included by team.hpp): Kokkos::parallel_for,
// parallel_reduce and parallel_scan over a RangePolicy or an MDRangePolicy of Kokkos::Serial (the
// trace build's only space), overloaded in namespace Kokkos so that kernel sources are unchanged.
//
// Model: one launch, one team of league size 1 whose members are the iterations (rank: the
// linear iteration index, row-major for an MDRangePolicy), all in barrier epoch 0: a flat kernel
// has no barrier, so nothing orders two iterations. Two iterations touching one element, one of
// them writing, not both atomically, is a race (a histogram's `bins(b) += 1`); an index past a
// View's end stops the run. The iterations run in order on the calling thread.
// - parallel_reduce: each iteration updates a private value, initialised as the reducer (or the
//   functor's init) says, and the values are joined into the result in iteration order;
// - parallel_scan: a pass over every iteration with final == false, then the final pass, as Kokkos
//   runs it on a GPU. A write to a traced View with final == false stops the run: Kokkos requires
//   those calls to be free of side effects.
// Accesses through plain Kokkos::Views (deep_copy's, a ScatterView's) are not recorded. Outside a
// Session (`kpuzzles run` in the trace build) the same loops run and record nothing.
// Not modelled (they run as Kokkos runs them, untraced): parallel_* over a plain count
// (`parallel_for(n, f)`), and parallel_reduce without a result argument.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "kpz/trace/runtime.hpp"

namespace kpz::trace {

// One flat launch (flat.cpp): registers the kernel with the active Session, if any, and makes
// each iteration in turn the calling thread's member.
class FlatLaunch {
 public:
  FlatLaunch(const std::string& label, FlatShape shape);
  ~FlatLaunch();
  FlatLaunch(const FlatLaunch&) = delete;
  FlatLaunch& operator=(const FlatLaunch&) = delete;

  const FlatShape& shape() const { return shape_; }
  std::int64_t iterations() const { return count_; }
  void iteration(std::int64_t linear);  // the next iteration to run (0 .. iterations() - 1)
  void scan_pass(bool final);           // parallel_scan: the pass that follows
  void finish();                        // after the last iteration

 private:
  FlatShape shape_;
  MemberCore core_;
  std::int64_t count_ = 0;
  std::size_t first_event_ = 0;
  bool finished_ = false;
};

// The policies traced here: RangePolicy and MDRangePolicy on Serial.
template <class P>
inline constexpr bool serial_policy = std::is_same_v<typename P::execution_space, Kokkos::Serial>;

template <class... P>
FlatShape shape_of(const Kokkos::RangePolicy<P...>& p) {
  const auto b = static_cast<std::int64_t>(p.begin()), e = static_cast<std::int64_t>(p.end());
  return {"RangePolicy", {b}, {e > b ? e - b : 0}};
}
template <class... P>
FlatShape shape_of(const Kokkos::MDRangePolicy<P...>& p) {
  FlatShape s{"MDRangePolicy", {}, {}};
  for (int d = 0; d < Kokkos::MDRangePolicy<P...>::rank; ++d) {
    s.begin.push_back(static_cast<std::int64_t>(p.m_lower[d]));
    s.extent.push_back(std::max<std::int64_t>(0, static_cast<std::int64_t>(p.m_upper[d] - p.m_lower[d])));
  }
  return s;
}

template <class Policy>
constexpr int rank_of() {
  if constexpr (requires { Policy::rank; })
    return Policy::rank;
  else
    return 1;
}

// The indices of iteration `linear` (row-major), as the policy's index type.
template <class Policy>
auto indices(const FlatShape& s, std::int64_t linear) {
  using I = typename Policy::index_type;
  constexpr int R = rank_of<Policy>();
  std::array<I, R> idx{};
  for (int d = R - 1; d >= 0; --d) {
    const std::int64_t e = std::max<std::int64_t>(s.extent[d], 1);
    idx[d] = static_cast<I>(s.begin[d] + linear % e);
    linear /= e;
  }
  return idx;
}

// f(indices..., extra...), with the policy's work tag first if it has one.
template <class Policy, class F, class I, std::size_t R, class... Extra>
void call(const F& f, const std::array<I, R>& idx, Extra&&... extra) {
  using Tag = typename Policy::work_tag;
  [&]<std::size_t... d>(std::index_sequence<d...>) {
    if constexpr (std::is_void_v<Tag>)
      f(idx[d]..., std::forward<Extra>(extra)...);
    else
      f(Tag{}, idx[d]..., std::forward<Extra>(extra)...);
  }
  (std::make_index_sequence<R>{});
}

// Every iteration once, in order: body(indices).
template <class Policy, class Body>
void for_each_iteration(FlatLaunch& launch, const Body& body) {
  for (std::int64_t k = 0; k < launch.iterations(); ++k) {
    launch.iteration(k);
    body(indices<Policy>(launch.shape(), k));
  }
}

template <class Policy, class F>
void flat_for(const std::string& label, const Policy& p, const F& f) {
  FlatLaunch launch(label, shape_of(p));
  for_each_iteration<Policy>(launch, [&](const auto& idx) { call<Policy>(f, idx); });
  launch.finish();
}

// A traced View (derived from Kokkos::View) as its Kokkos::View.
template <class D, class... P>
const Kokkos::View<D, P...>& kokkos_view(const Kokkos::View<D, P...>& v) {
  return v;
}
template <class R>
concept ViewLike = requires(const R& r) {
  kokkos_view(r);
};
template <class R>
concept ResultByCopy = ViewLike<R> || Kokkos::is_reducer<R>::value || std::is_pointer_v<R>;
// The copy of a result taken by copy that the reduction writes through.
template <class R>
auto kokkos_result(const R& r) {
  if constexpr (ViewLike<R>)
    return kokkos_view(r);
  else
    return r;
}

// parallel_reduce: Kokkos' own analysis of the functor and the result (a scalar, a View, a
// reducer) gives the value type, its init, join and final.
template <class Policy, class F, class Result>
void flat_reduce(const std::string& label, const Policy& p, const F& f, Result& result) {
  using Adapter = Kokkos::Impl::ParallelReduceReturnValue<void, Result, F>;
  using Passed = typename Adapter::reducer_type;
  constexpr bool own = std::is_same_v<Passed, Kokkos::InvalidType>;
  using Analysis = Kokkos::Impl::FunctorAnalysis<Kokkos::Impl::FunctorPatternInterface::REDUCE, Policy,
                                                 std::conditional_t<own, F, Passed>, typename Adapter::value_type>;
  using Reducer = typename Analysis::Reducer;
  using V = typename Reducer::value_type;
  const Reducer reducer = [&] {
    if constexpr (own)
      return Reducer(f);
    else
      return Reducer(result);
  }();
  const std::size_t count = reducer.value_count();
  const std::unique_ptr<V[]> total(new V[count]), mine(new V[count]);
  reducer.init(total.get());
  FlatLaunch launch(label, shape_of(p));
  for_each_iteration<Policy>(launch, [&](const auto& idx) {
    call<Policy>(f, idx, reducer.init(mine.get()));
    reducer.join(total.get(), mine.get());
  });
  launch.finish();
  reducer.final(total.get());
  const auto out = Adapter::return_value(result, f);
  for (std::size_t c = 0; c < count; ++c) out.data()[c] = total[c];
}

// A result passed as a named lvalue: a scalar by reference; a View, reducer or pointer (a copy
// that writes through, as Kokkos takes them) whether it is const or not.
template <class Policy, class F, class R>
void flat_reduce_into(const std::string& label, const Policy& p, const F& f, R& result) {
  if constexpr (ResultByCopy<std::remove_const_t<R>>) {
    auto copy = kokkos_result(result);
    flat_reduce(label, p, f, copy);
  } else {
    flat_reduce(label, p, f, result);
  }
}

// parallel_scan: a pass with final == false, then the final pass; the total is the last prefix.
template <class Policy, class F, class Total>
void flat_scan(const std::string& label, const Policy& p, const F& f, Total* total) {
  using Analysis = Kokkos::Impl::FunctorAnalysis<Kokkos::Impl::FunctorPatternInterface::SCAN, Policy, F, void>;
  using Reducer = typename Analysis::Reducer;
  using V = typename Reducer::value_type;
  const Reducer reducer(f);
  const std::size_t count = reducer.value_count();
  const std::unique_ptr<V[]> prefix(new V[count]);
  FlatLaunch launch(label, shape_of(p));
  for (const bool final : {false, true}) {
    launch.scan_pass(final);
    reducer.init(prefix.get());
    for_each_iteration<Policy>(launch,
                               [&](const auto& idx) { call<Policy>(f, idx, reducer.reference(prefix.get()), final); });
  }
  launch.finish();
  if constexpr (ViewLike<Total>) {
    for (std::size_t c = 0; c < count; ++c) kokkos_view(*total).data()[c] = prefix[c];
  } else if constexpr (!std::is_void_v<Total>) {
    static_assert(std::is_same_v<std::remove_const_t<V>, Total>, "Non-matching value types of closure and return type");
    *total = prefix[0];
  }
}

}  // namespace kpz::trace

namespace Kokkos {

// The overloads, for RangePolicy and MDRangePolicy alike: with and without a label; reductions
// into a scalar (by reference) or into a View, reducer or pointer (by copy, as Kokkos takes them:
// a named one, const or not, and a temporary).
// They are more specialised than Kokkos' own, which take any policy.
#define KPZ_TRACE_FLAT_LAUNCHES(Policy)                                                                  \
  template <class F, class... P>                                                                         \
  requires kpz::trace::serial_policy<Policy<P...>>                                                       \
  void parallel_for(const std::string& label, const Policy<P...>& policy, const F& f) {                  \
    kpz::trace::flat_for(label, policy, f);                                                              \
  }                                                                                                      \
  template <class F, class... P>                                                                         \
  requires kpz::trace::serial_policy<Policy<P...>>                                                       \
  void parallel_for(const Policy<P...>& policy, const F& f) {                                            \
    kpz::trace::flat_for("", policy, f);                                                                 \
  }                                                                                                      \
  template <class F, class R, class... P>                                                                \
  requires kpz::trace::serial_policy<Policy<P...>>                                                       \
  void parallel_reduce(const std::string& label, const Policy<P...>& policy, const F& f, R& result) {    \
    kpz::trace::flat_reduce_into(label, policy, f, result);                                              \
  }                                                                                                      \
  template <class F, class R, class... P>                                                                \
  requires kpz::trace::serial_policy<Policy<P...>>                                                       \
  void parallel_reduce(const Policy<P...>& policy, const F& f, R& result) {                              \
    kpz::trace::flat_reduce_into("", policy, f, result);                                                 \
  }                                                                                                      \
  template <class F, class R, class... P>                                                                \
  requires(kpz::trace::serial_policy<Policy<P...>> && kpz::trace::ResultByCopy<R>) void parallel_reduce( \
      const std::string& label, const Policy<P...>& policy, const F& f, const R& result) {               \
    auto copy = kpz::trace::kokkos_result(result);                                                       \
    kpz::trace::flat_reduce(label, policy, f, copy);                                                     \
  }                                                                                                      \
  template <class F, class R, class... P>                                                                \
  requires(kpz::trace::serial_policy<Policy<P...>> && kpz::trace::ResultByCopy<R>) void parallel_reduce( \
      const Policy<P...>& policy, const F& f, const R& result) {                                         \
    auto copy = kpz::trace::kokkos_result(result);                                                       \
    kpz::trace::flat_reduce("", policy, f, copy);                                                        \
  }
KPZ_TRACE_FLAT_LAUNCHES(Kokkos::RangePolicy)
KPZ_TRACE_FLAT_LAUNCHES(Kokkos::MDRangePolicy)
#undef KPZ_TRACE_FLAT_LAUNCHES

// Scans (RangePolicy only, as in Kokkos): without a total, or with one in a scalar or a View.
template <class F, class... P>
requires kpz::trace::serial_policy<Kokkos::RangePolicy<P...>>
void parallel_scan(const std::string& label, const Kokkos::RangePolicy<P...>& policy, const F& f) {
  kpz::trace::flat_scan<Kokkos::RangePolicy<P...>, F, void>(label, policy, f, nullptr);
}
template <class F, class... P>
requires kpz::trace::serial_policy<Kokkos::RangePolicy<P...>>
void parallel_scan(const Kokkos::RangePolicy<P...>& policy, const F& f) {
  kpz::trace::flat_scan<Kokkos::RangePolicy<P...>, F, void>("", policy, f, nullptr);
}
template <class F, class T, class... P>
requires kpz::trace::serial_policy<Kokkos::RangePolicy<P...>>
void parallel_scan(const std::string& label, const Kokkos::RangePolicy<P...>& policy, const F& f, T& total) {
  kpz::trace::flat_scan(label, policy, f, &total);
}
template <class F, class T, class... P>
requires kpz::trace::serial_policy<Kokkos::RangePolicy<P...>>
void parallel_scan(const Kokkos::RangePolicy<P...>& policy, const F& f, T& total) {
  kpz::trace::flat_scan("", policy, f, &total);
}

}  // namespace Kokkos
