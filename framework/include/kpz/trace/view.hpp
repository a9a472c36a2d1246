#pragma once
// Recording views of the trace build (KPZ_TRACE). kpz::View and kpz::ScratchView become these:
// a Kokkos::View underneath (so host code, deep_copy and scratch sizing are unchanged), whose
// element access returns a recording proxy:
// - elements of arithmetic type (float, int, ...) give a Ref: converting it to a value records a
//   read, assigning to it a write (compound assignment and ++/-- record both);
// - elements of class or union type (Quad, MinMax, SegPair<float>, ...) give a StructRef, which *is* a
//   copy of the element (it derives from the element type, so `view(i).value` and passing
//   `view(i)` to `combine(const SegPair<T>&, ...)` work as usual). Assigning a whole element
//   records a write; otherwise the access is recorded at the next traced event (any other
//   access, a collective, the end of a loop iteration or of the member) as a write if a member
//   was changed (and written back), as a read if not.
// `&view(i)` gives a Ptr that only Kokkos' atomic_* functions accept (atomic accesses).
//
// Differences from the plain build, all compile errors rather than silent changes:
// - `auto x = view(i);` does not compile (x would be the proxy, not a value): name the type,
//   `float x = view(i);`.
// - an element passed to a function template that deduces a scalar type from it (e.g.
//   `std::max(acc, view(i))`) does not compile; Kokkos' min, max, abs, sqrt, ... are overloaded
//   for it below. Otherwise convert: `std::max(acc, float(view(i)))`. A template that deduces
//   a class type from a pattern (`SegPair<T> combine(const SegPair<T>&, ...)`) works; one that
//   deduces the whole type (`template <class T> T f(const T&)`) sees the proxy: `f(Pair(view(i)))`.
// - `&view(i)` is not a raw pointer; only Kokkos atomics take it.
// Inside a team kernel, View::data() and Kokkos::subview throw NotTraceable (accesses through
// them could not be recorded).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kpz/trace/runtime.hpp"

namespace kpz::trace {

template <class T>
class Ptr;

// Where an element lives and how to describe its view on first sight.
struct Site {
  const void* view_data = nullptr;
  const void* elem = nullptr;
  std::int64_t offset = 0;
  bool scratch = false;
  Loc loc{nullptr, 0};
  void (*describe)(const void* view_object, ViewInfo& out) = nullptr;
  const void* view_object = nullptr;

  void record(Access kind) const {
    record_access(view_data, scratch, elem, offset, kind, loc, describe, view_object);
  }
};

// One element of arithmetic type, as an expression sees it.
template <class T>
class Ref {
 public:
  using value_type = std::remove_const_t<T>;

  // Trace build: `auto x = view(i)` does not compile because x would be a reference to the
  // element, not a copy of its value as with a plain Kokkos::View. Write `float x = view(i);`.
  Ref(const Ref&) = delete;
  Ref(Ref&&) = delete;

  operator value_type() const { return load(); }

  // Assignments return the value stored (not the element), so that `a(i) = b(j) = x` records
  // two writes and no read, as the code means.
  value_type operator=(const Ref& other)
    requires(!std::is_const_v<T>)
  {
    return store(other.load());
  }
  value_type operator=(const value_type& v)
    requires(!std::is_const_v<T>)
  {
    return store(v);
  }
  template <class U>
    requires(!std::is_const_v<T> && std::is_convertible_v<U &&, value_type>)
  value_type operator=(U&& v) {
    return store(static_cast<value_type>(std::forward<U>(v)));
  }

#define KPZ_TRACE_COMPOUND(op)                              \
  template <class U>                                        \
    requires(!std::is_const_v<T>)                           \
  value_type operator op(U&& v) {                           \
    value_type cur = load();                                \
    cur op std::forward<U>(v);                              \
    return store(cur);                                      \
  }
  KPZ_TRACE_COMPOUND(+=)
  KPZ_TRACE_COMPOUND(-=)
  KPZ_TRACE_COMPOUND(*=)
  KPZ_TRACE_COMPOUND(/=)
  KPZ_TRACE_COMPOUND(%=)
  KPZ_TRACE_COMPOUND(&=)
  KPZ_TRACE_COMPOUND(|=)
  KPZ_TRACE_COMPOUND(^=)
  KPZ_TRACE_COMPOUND(<<=)
  KPZ_TRACE_COMPOUND(>>=)
#undef KPZ_TRACE_COMPOUND

  value_type operator++()
    requires(!std::is_const_v<T>)
  {
    value_type cur = load();
    return store(++cur);
  }
  value_type operator--()
    requires(!std::is_const_v<T>)
  {
    value_type cur = load();
    return store(--cur);
  }
  value_type operator++(int)
    requires(!std::is_const_v<T>)
  {
    value_type cur = load();
    value_type next = cur;
    store(++next);
    return cur;
  }
  value_type operator--(int)
    requires(!std::is_const_v<T>)
  {
    value_type cur = load();
    value_type next = cur;
    store(--next);
    return cur;
  }

  // Only Kokkos' atomic_* functions (and team_scan's `global`) accept the result.
  Ptr<T> operator&() const { return Ptr<T>(site_); }

  // The element slot an access expression uses: a ring of slots per thread, so that a Ref
  // lives for the full expression without being copyable.
  static Ref& slot(T* ptr, const Site& site) {
    static thread_local Ref ring[1024];
    static thread_local unsigned next = 0;
    Ref& r = ring[next++ % 1024];
    r.ptr_ = ptr;
    r.site_ = site;
    return r;
  }

 private:
  Ref() = default;
  value_type load() const {
    site_.record(Access::read);
    return *ptr_;
  }
  value_type store(const value_type& v) {
    site_.record(Access::write);
    *ptr_ = v;
    return v;
  }

  T* ptr_ = nullptr;
  Site site_;
};

// One element of class type: a copy of it, taken when the access expression is evaluated.
template <class T>
class StructRef : public std::remove_const_t<T> {
 public:
  using value_type = std::remove_const_t<T>;
  static_assert(std::is_trivially_copyable_v<value_type>,
                "trace build: view elements of class type must be trivially copyable");

  // Trace build: `auto x = view(i)` does not compile (x would be the recording proxy). Name the
  // type: `const SegPair<float> x = view(i);`.
  StructRef(const StructRef&) = delete;
  StructRef(StructRef&&) = delete;

  value_type operator=(const value_type& v)
    requires(!std::is_const_v<T>)
  {
    pending_ = false;
    site_.record(Access::write);
    std::memcpy(static_cast<void*>(ptr_), &v, sizeof(value_type));
    std::memcpy(static_cast<void*>(static_cast<value_type*>(this)), &v, sizeof(value_type));
    return v;
  }
  value_type operator=(const StructRef& other)
    requires(!std::is_const_v<T>)
  {
    return *this = static_cast<const value_type&>(other);
  }

  Ptr<T> operator&() const { return Ptr<T>(site_); }

  static StructRef& slot(T* ptr, const Site& site) {
    struct alignas(StructRef) Storage {
      unsigned char bytes[sizeof(StructRef)];
    };
    static thread_local Storage ring[256];
    static thread_local unsigned next = 0;
    auto* r = reinterpret_cast<StructRef*>(&ring[next++ % 256]);
    std::memcpy(static_cast<void*>(static_cast<value_type*>(r)), ptr, sizeof(value_type));
    r->ptr_ = ptr;
    r->site_ = site;
    r->pending_ = true;
    defer_flush(&StructRef::flush_one, r);
    return *r;
  }

 private:
  static void flush_one(void* p) {
    auto* r = static_cast<StructRef*>(p);
    if (!r->pending_) return;
    r->pending_ = false;
    const void* copy = static_cast<const value_type*>(r);
    if constexpr (!std::is_const_v<T>) {
      if (std::memcmp(copy, r->ptr_, sizeof(value_type)) != 0) {
        r->site_.record(Access::write);
        std::memcpy(static_cast<void*>(r->ptr_), copy, sizeof(value_type));
        return;
      }
    }
    r->site_.record(Access::read);
  }

  T* ptr_;
  Site site_;
  bool pending_;
};

// A union element (a union cannot be derived from): the access returns the element itself, and
// the kind of access is decided like StructRef's, from a snapshot of its bytes: changed by the
// next traced event, a write; unchanged, a read.
template <class T>
struct UnionAccess {
  using value_type = std::remove_const_t<T>;
  static_assert(std::is_trivially_copyable_v<value_type>, "trace build: union elements must be trivially copyable");

  static T& access(T* ptr, const Site& site) {
    static thread_local UnionAccess ring[256];
    static thread_local unsigned next = 0;
    UnionAccess& a = ring[next++ % 256];
    a.ptr_ = ptr;
    a.site_ = site;
    std::memcpy(&a.before_, ptr, sizeof(value_type));
    defer_flush(&UnionAccess::flush_one, &a);
    return *ptr;
  }

 private:
  static void flush_one(void* p) {
    auto* a = static_cast<UnionAccess*>(p);
    a->site_.record(std::memcmp(&a->before_, a->ptr_, sizeof(value_type)) != 0 ? Access::write : Access::read);
  }
  T* ptr_ = nullptr;
  Site site_;
  value_type before_;
};

namespace detail {
template <class X>
struct element {
  using type = std::conditional_t<std::is_class_v<std::remove_const_t<X>>, StructRef<X>, Ref<X>>;
};
template <class X>
  requires std::is_union_v<std::remove_const_t<X>>
struct element<X> {
  using type = X;  // accessed in place, see UnionAccess
};
template <class X>
struct plain {
  using type = X;
};
template <class T>
struct plain<Ref<T>> {
  using type = std::remove_const_t<T>;
};
template <class T>
struct plain<StructRef<T>> {
  using type = std::remove_const_t<T>;
};
}  // namespace detail

template <class X>
inline constexpr bool is_element_v = !std::is_same_v<typename detail::plain<std::remove_cvref_t<X>>::type,
                                                     std::remove_cvref_t<X>>;
// The value type behind an element proxy; X itself for anything else.
template <class X>
using plain_t = typename detail::plain<std::remove_cvref_t<X>>::type;
// The value of an element proxy (one read); anything else unchanged.
template <class X>
decltype(auto) plain(X&& x) {
  if constexpr (is_element_v<X>) return static_cast<plain_t<X>>(x);
  else return std::forward<X>(x);
}

template <class X>
concept IndexLike = std::is_integral_v<plain_t<X>>;

// `&view(i)` in the trace build.
template <class T>
class Ptr {
 public:
  using value_type = std::remove_const_t<T>;
  explicit Ptr(const Site& s) : site_(s) {}
  // Applies f to the element as one atomic access (the trace runs one member at a time).
  template <class F>
  decltype(auto) atomic(F&& f) const {
    static_assert(!std::is_const_v<T>, "atomic update of a view of const data");
    site_.record(Access::atomic);
    return f(*static_cast<value_type*>(const_cast<void*>(site_.elem)));
  }
  value_type load_atomic() const {
    site_.record(Access::atomic);
    return *static_cast<const value_type*>(site_.elem);
  }

 private:
  Site site_;
};

template <class V>
void describe_view(const void* view_object, ViewInfo& out) {
  const V& v = *static_cast<const V*>(view_object);
  out.data = v.data();
  out.elem_size = sizeof(typename V::value_type);
  out.extents.clear();
  out.strides.clear();
  for (std::size_t r = 0; r < V::rank(); ++r) {
    out.extents.push_back(static_cast<std::int64_t>(v.extent(r)));
    out.strides.push_back(static_cast<std::int64_t>(v.stride(r)));
  }
  if (out.name.empty()) out.name = v.label().empty() ? std::string("view") : v.label();
}

// The element access shared by View and ScratchView.
template <class Base, bool Scratch>
class Traced : public Base {
 public:
  using Base::Base;
  using typename Base::value_type;
  using Element = typename detail::element<value_type>::type;
  // What an access returns: a proxy (a slot of a per-thread ring: an lvalue, so that
  // `view(i).member = x` works, but not copyable, so that `auto x = view(i)` does not compile),
  // or a union element itself.
  using Result = std::conditional_t<std::is_union_v<std::remove_const_t<value_type>>, value_type&, Element&>;

  Traced() = default;
  Traced(const Base& b) : Base(b) {}

  template <IndexLike I0>
  Result operator()(I0&& i0, Loc loc = KPZ_TRACE_HERE) const {
    return at(loc, index(i0));
  }
  template <IndexLike I0, IndexLike I1>
  Result operator()(I0&& i0, I1&& i1, Loc loc = KPZ_TRACE_HERE) const {
    return at(loc, index(i0), index(i1));
  }
  template <IndexLike I0, IndexLike I1, IndexLike I2>
  Result operator()(I0&& i0, I1&& i1, I2&& i2, Loc loc = KPZ_TRACE_HERE) const {
    return at(loc, index(i0), index(i1), index(i2));
  }
  template <IndexLike I0, IndexLike I1, IndexLike I2, IndexLike I3>
  Result operator()(I0&& i0, I1&& i1, I2&& i2, I3&& i3, Loc loc = KPZ_TRACE_HERE) const {
    return at(loc, index(i0), index(i1), index(i2), index(i3));
  }
  Result operator()(Loc loc = KPZ_TRACE_HERE) const { return at(loc); }
  template <IndexLike I0>
  Result operator[](I0&& i0) const {
    return at(Loc{"<operator[]>", 0}, index(i0));
  }
  template <class... I>
  Result access(I&&... i) const {
    static_assert(sizeof...(I) == Base::rank(), "trace build: access() needs exactly rank() indices");
    return at(Loc{"<access()>", 0}, index(i)...);
  }

  // Raw pointers escape the trace: allowed on the host, refused inside team kernels.
  auto data(Loc loc = KPZ_TRACE_HERE) const {
    if (current_member()) not_traceable("View::data() inside a team kernel (index the view instead)", loc);
    return Base::data();
  }

 private:
  template <class I>
  static std::int64_t index(I&& i) {
    return static_cast<std::int64_t>(plain(std::forward<I>(i)));
  }
  template <class... I>
  Result at(Loc loc, I... i) const {
    static_assert(sizeof...(I) == Base::rank(),
                  "trace build: index a view with exactly as many indices as its rank");
    flush_deferred();
    const std::int64_t idx[] = {static_cast<std::int64_t>(i)..., 0};
    for (std::size_t r = 0; r < sizeof...(I); ++r)
      if (idx[r] < 0 || idx[r] >= static_cast<std::int64_t>(this->extent(r))) out_of_bounds(loc, r, idx[r]);
    value_type* ptr = &Base::operator()(i...);
    Site site;
    site.view_data = Base::data();
    site.elem = ptr;
    site.offset = static_cast<std::int64_t>(ptr - Base::data());
    site.scratch = Scratch;
    site.loc = loc;
    site.describe = &describe_view<Base>;
    site.view_object = static_cast<const Base*>(this);
    if constexpr (std::is_union_v<std::remove_const_t<value_type>>) return UnionAccess<value_type>::access(ptr, site);
    else return Element::slot(ptr, site);
  }
  [[noreturn]] void out_of_bounds(Loc loc, std::size_t r, std::int64_t i) const;
};

[[noreturn]] void throw_out_of_bounds(const void* data, const std::string& label, bool scratch, std::size_t dim,
                                      std::int64_t index, std::int64_t extent, Loc loc);

template <class Base, bool Scratch>
void Traced<Base, Scratch>::out_of_bounds(Loc loc, std::size_t r, std::int64_t i) const {
  throw_out_of_bounds(Base::data(), this->label(), Scratch, r, i, static_cast<std::int64_t>(this->extent(r)), loc);
}

// kpz::View<DataType, Space> in the trace build.
template <class DataType, class Space>
class View : public Traced<Kokkos::View<DataType, typename Space::memory_space>, false> {
  using Parent = Traced<Kokkos::View<DataType, typename Space::memory_space>, false>;

 public:
  using Parent::Parent;
  View() = default;
};

// kpz::ScratchView<DataType, Space> in the trace build: also remembers where it was carved out
// of team scratch, to name it after its variable in diagrams.
template <class DataType, class Space>
class ScratchView
    : public Traced<Kokkos::View<DataType, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>, true> {
  using Base = Kokkos::View<DataType, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using Parent = Traced<Base, true>;
  using Scratch = typename Space::scratch_memory_space;

 public:
  ScratchView() = default;
  ScratchView(const Base& b) : Parent(b) {}
  explicit ScratchView(const Scratch& s, std::size_t n0, Loc loc = KPZ_TRACE_HERE) : Parent(Base(s, n0)) {
    noted(loc);
  }
  explicit ScratchView(const Scratch& s, std::size_t n0, std::size_t n1, Loc loc = KPZ_TRACE_HERE)
      : Parent(Base(s, n0, n1)) {
    noted(loc);
  }
  explicit ScratchView(const Scratch& s, std::size_t n0, std::size_t n1, std::size_t n2, Loc loc = KPZ_TRACE_HERE)
      : Parent(Base(s, n0, n1, n2)) {
    noted(loc);
  }
  explicit ScratchView(const Scratch& s, std::size_t n0, std::size_t n1, std::size_t n2, std::size_t n3,
                       Loc loc = KPZ_TRACE_HERE)
      : Parent(Base(s, n0, n1, n2, n3)) {
    noted(loc);
  }

 private:
  void noted(Loc loc) {
    std::vector<std::int64_t> extents, strides;
    for (std::size_t r = 0; r < Base::rank(); ++r) {
      extents.push_back(static_cast<std::int64_t>(this->extent(r)));
      strides.push_back(static_cast<std::int64_t>(this->stride(r)));
    }
    note_scratch_view(Base::data(), sizeof(typename Base::value_type), extents, strides,
                      this->span() * sizeof(typename Base::value_type), loc);
  }
};

}  // namespace kpz::trace

namespace Kokkos {

// Subviews would escape the trace: allowed on the host, refused inside team kernels.
template <class D, class S, class... Args>
auto subview(const kpz::trace::View<D, S>& v, Args... args) {
  if (kpz::trace::current_member())
    kpz::trace::not_traceable("Kokkos::subview inside a team kernel", kpz::trace::Loc{"<subview>", 0});
  return Kokkos::subview(static_cast<const Kokkos::View<D, typename S::memory_space>&>(v), args...);
}
template <class D, class S, class... Args>
auto subview(const kpz::trace::ScratchView<D, S>&, Args...) {
  static_assert(sizeof(D) == 0, "trace build: Kokkos::subview of a scratch view is not traceable yet");
}

// Atomics on traced elements: `Kokkos::atomic_add(&s(i), v)`.
#define KPZ_TRACE_ATOMIC_VOID(name, expr)                                       \
  template <class T, class U>                                                   \
  void name(const kpz::trace::Ptr<T>& p, const U& v) {                          \
    p.atomic([&](auto& x) { expr; });                                           \
  }
#define KPZ_TRACE_ATOMIC_FETCH(name, expr)                                      \
  template <class T, class U>                                                   \
  std::remove_const_t<T> name(const kpz::trace::Ptr<T>& p, const U& v) {        \
    return p.atomic([&](auto& x) {                                              \
      const std::remove_const_t<T> old = x;                                     \
      expr;                                                                     \
      return old;                                                               \
    });                                                                         \
  }
#define KPZ_TRACE_ATOMIC_OP_FETCH(name, expr)                                   \
  template <class T, class U>                                                   \
  std::remove_const_t<T> name(const kpz::trace::Ptr<T>& p, const U& v) {        \
    return p.atomic([&](auto& x) {                                              \
      expr;                                                                     \
      return static_cast<std::remove_const_t<T>>(x);                            \
    });                                                                         \
  }
KPZ_TRACE_ATOMIC_VOID(atomic_add, x += v)
KPZ_TRACE_ATOMIC_VOID(atomic_sub, x -= v)
KPZ_TRACE_ATOMIC_VOID(atomic_mul, x *= v)
KPZ_TRACE_ATOMIC_VOID(atomic_div, x /= v)
KPZ_TRACE_ATOMIC_VOID(atomic_max, x = x < v ? v : x)
KPZ_TRACE_ATOMIC_VOID(atomic_min, x = v < x ? v : x)
KPZ_TRACE_ATOMIC_VOID(atomic_and, x &= v)
KPZ_TRACE_ATOMIC_VOID(atomic_or, x |= v)
KPZ_TRACE_ATOMIC_VOID(atomic_xor, x ^= v)
KPZ_TRACE_ATOMIC_VOID(atomic_store, x = v)
KPZ_TRACE_ATOMIC_FETCH(atomic_fetch_add, x += v)
KPZ_TRACE_ATOMIC_FETCH(atomic_fetch_sub, x -= v)
KPZ_TRACE_ATOMIC_FETCH(atomic_fetch_mul, x *= v)
KPZ_TRACE_ATOMIC_FETCH(atomic_fetch_div, x /= v)
KPZ_TRACE_ATOMIC_FETCH(atomic_fetch_max, x = x < v ? v : x)
KPZ_TRACE_ATOMIC_FETCH(atomic_fetch_min, x = v < x ? v : x)
KPZ_TRACE_ATOMIC_FETCH(atomic_fetch_and, x &= v)
KPZ_TRACE_ATOMIC_FETCH(atomic_fetch_or, x |= v)
KPZ_TRACE_ATOMIC_FETCH(atomic_fetch_xor, x ^= v)
KPZ_TRACE_ATOMIC_FETCH(atomic_exchange, x = v)
KPZ_TRACE_ATOMIC_OP_FETCH(atomic_add_fetch, x += v)
KPZ_TRACE_ATOMIC_OP_FETCH(atomic_sub_fetch, x -= v)
KPZ_TRACE_ATOMIC_OP_FETCH(atomic_mul_fetch, x *= v)
KPZ_TRACE_ATOMIC_OP_FETCH(atomic_div_fetch, x /= v)
KPZ_TRACE_ATOMIC_OP_FETCH(atomic_max_fetch, x = x < v ? v : x)
KPZ_TRACE_ATOMIC_OP_FETCH(atomic_min_fetch, x = v < x ? v : x)
KPZ_TRACE_ATOMIC_OP_FETCH(atomic_and_fetch, x &= v)
KPZ_TRACE_ATOMIC_OP_FETCH(atomic_or_fetch, x |= v)
KPZ_TRACE_ATOMIC_OP_FETCH(atomic_xor_fetch, x ^= v)
#undef KPZ_TRACE_ATOMIC_VOID
#undef KPZ_TRACE_ATOMIC_FETCH
#undef KPZ_TRACE_ATOMIC_OP_FETCH

// Kokkos' math on scalar elements: `Kokkos::max(acc, s(i))` deduces one type from both arguments,
// which a Ref is not; these read the element and call the plain function.
#define KPZ_TRACE_BINARY(name)                                                                   \
  template <class A, class B>                                                                    \
    requires(kpz::trace::is_element_v<A> || kpz::trace::is_element_v<B>)                        \
  auto name(const A& a, const B& b) {                                                            \
    return Kokkos::name(kpz::trace::plain_t<A>(a), kpz::trace::plain_t<B>(b));                   \
  }
#define KPZ_TRACE_UNARY(name)                                                                    \
  template <class A>                                                                             \
    requires kpz::trace::is_element_v<A>                                                         \
  auto name(const A& a) {                                                                        \
    return Kokkos::name(kpz::trace::plain_t<A>(a));                                              \
  }
KPZ_TRACE_BINARY(min)
KPZ_TRACE_BINARY(max)
KPZ_TRACE_BINARY(fmin)
KPZ_TRACE_BINARY(fmax)
KPZ_TRACE_BINARY(pow)
KPZ_TRACE_BINARY(fmod)
KPZ_TRACE_UNARY(abs)
KPZ_TRACE_UNARY(fabs)
KPZ_TRACE_UNARY(sqrt)
KPZ_TRACE_UNARY(exp)
KPZ_TRACE_UNARY(log)
KPZ_TRACE_UNARY(floor)
KPZ_TRACE_UNARY(ceil)
KPZ_TRACE_UNARY(isnan)
KPZ_TRACE_UNARY(isfinite)
#undef KPZ_TRACE_BINARY
#undef KPZ_TRACE_UNARY
template <class A, class B, class C>
  requires(kpz::trace::is_element_v<A> || kpz::trace::is_element_v<B> || kpz::trace::is_element_v<C>)
auto clamp(const A& a, const B& lo, const C& hi) {
  return Kokkos::clamp(kpz::trace::plain_t<A>(a), kpz::trace::plain_t<B>(lo), kpz::trace::plain_t<C>(hi));
}

template <class T>
void atomic_inc(const kpz::trace::Ptr<T>& p) {
  p.atomic([](auto& x) { ++x; });
}
template <class T>
void atomic_dec(const kpz::trace::Ptr<T>& p) {
  p.atomic([](auto& x) { --x; });
}
template <class T>
std::remove_const_t<T> atomic_fetch_inc(const kpz::trace::Ptr<T>& p) {
  return p.atomic([](auto& x) { return x++; });
}
template <class T>
std::remove_const_t<T> atomic_fetch_dec(const kpz::trace::Ptr<T>& p) {
  return p.atomic([](auto& x) { return x--; });
}
template <class T>
std::remove_const_t<T> atomic_inc_fetch(const kpz::trace::Ptr<T>& p) {
  return p.atomic([](auto& x) { return ++x; });
}
template <class T>
std::remove_const_t<T> atomic_dec_fetch(const kpz::trace::Ptr<T>& p) {
  return p.atomic([](auto& x) { return --x; });
}
template <class T>
std::remove_const_t<T> atomic_load(const kpz::trace::Ptr<T>& p) {
  return p.load_atomic();
}
template <class T, class U, class W>
std::remove_const_t<T> atomic_compare_exchange(const kpz::trace::Ptr<T>& p, const U& expected, const W& desired) {
  return p.atomic([&](auto& x) {
    const std::remove_const_t<T> old = x;
    if (old == expected) x = desired;
    return old;
  });
}

}  // namespace Kokkos
