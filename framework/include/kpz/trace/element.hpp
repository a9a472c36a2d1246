#pragma once
// The element proxies of the trace build's views (view.hpp says how they behave): what
// `view(i)` returns (Ref for arithmetic elements, StructRef for classes, the element itself for
// unions) and what `&view(i)` returns (Ptr, for Kokkos' atomics). Compiled only with KPZ_TRACE.
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "kpz/trace/runtime.hpp"

namespace kpz::trace {

template <class T>
class Ptr;

// A ring of N slots per thread: the object an access expression returns lives in one of them for
// the full expression (N later accesses reuse it), so it need not be copyable. Slot is raw storage
// or a type that befriends this ring.
template <class Slot, unsigned N>
struct SlotRing {
  static Slot& next() {
    static thread_local Slot ring[N];
    static thread_local unsigned used = 0;
    return ring[used++ % N];
  }
};

// Where an element lives and how to describe its view on first sight.
struct Site {
  const void* view_data = nullptr;
  const void* elem = nullptr;
  std::int64_t offset = 0;
  bool scratch = false;
  Loc loc{nullptr, 0};
  void (*describe)(const void* view_object, ViewInfo& out) = nullptr;
  const void* view_object = nullptr;

  void record(Access kind) const { record_access(view_data, scratch, elem, offset, kind, loc, describe, view_object); }
};

// One element of arithmetic type, as an expression sees it.
template <class T>
class Ref {
 public:
  using value_type = std::remove_const_t<T>;

  // Trace build: `auto x = view(i)` does not compile because x would be a reference to the
  // element, not a copy of its value as with a plain Kokkos::View. Write `float x = view(i);`.
  // The comments on the two lines below are what the compiler quotes with its error.
  Ref(const Ref&) = delete;  // race-check build: name the element's type: `float x = view(i);`, not auto
  Ref(Ref&&) = delete;       // race-check build: name the element's type: `float x = view(i);`, not auto

  operator value_type() const { return load(); }

  // Assignments return the value stored (not the element), so that `a(i) = b(j) = x` records
  // two writes and no read, as the code means.
  value_type operator=(const Ref& other) requires(!std::is_const_v<T>) { return store(other.load()); }
  value_type operator=(const value_type& v) requires(!std::is_const_v<T>) { return store(v); }
  template <class U>
  requires(!std::is_const_v<T> && std::is_convertible_v<U&&, value_type>) value_type operator=(U&& v) {
    return store(static_cast<value_type>(std::forward<U>(v)));
  }

#define KPZ_TRACE_COMPOUND(op)                                  \
  template <class U>                                            \
  requires(!std::is_const_v<T>) value_type operator op(U&& v) { \
    value_type cur = load();                                    \
    cur op std::forward<U>(v);                                  \
    return store(cur);                                          \
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

  value_type operator++() requires(!std::is_const_v<T>) {
    value_type cur = load();
    return store(++cur);
  }
  value_type operator--() requires(!std::is_const_v<T>) {
    value_type cur = load();
    return store(--cur);
  }
  value_type operator++(int) requires(!std::is_const_v<T>) {
    value_type cur = load();
    value_type next = cur;
    store(++next);
    return cur;
  }
  value_type operator--(int) requires(!std::is_const_v<T>) {
    value_type cur = load();
    value_type next = cur;
    store(--next);
    return cur;
  }

  // Only Kokkos' atomic_* functions (and team_scan's `global`) accept the result.
  Ptr<T> operator&() const {
    return Ptr<T>(site_);
  }

  // The element an access expression uses (SlotRing: it lives for the full expression).
  static Ref& slot(T* ptr, const Site& site) {
    Ref& r = SlotRing<Ref, 1024>::next();
    r.ptr_ = ptr;
    r.site_ = site;
    return r;
  }

 private:
  friend struct SlotRing<Ref, 1024>;
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

  value_type operator=(const value_type& v) requires(!std::is_const_v<T>) {
    pending_ = false;
    site_.record(Access::write);
    std::memcpy(static_cast<void*>(ptr_), &v, sizeof(value_type));
    std::memcpy(static_cast<void*>(static_cast<value_type*>(this)), &v, sizeof(value_type));
    return v;
  }
  value_type operator=(const StructRef& other) requires(!std::is_const_v<T>) {
    return *this = static_cast<const value_type&>(other);
  }

  Ptr<T> operator&() const { return Ptr<T>(site_); }

  static StructRef& slot(T* ptr, const Site& site) {
    struct alignas(StructRef) Storage {
      unsigned char bytes[sizeof(StructRef)];
    };
    auto* r = reinterpret_cast<StructRef*>(&SlotRing<Storage, 256>::next());
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
    UnionAccess& a = SlotRing<UnionAccess, 256>::next();
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
inline constexpr bool is_element_v =
    !std::is_same_v<typename detail::plain<std::remove_cvref_t<X>>::type, std::remove_cvref_t<X>>;
// The value type behind an element proxy; X itself for anything else.
template <class X>
using plain_t = typename detail::plain<std::remove_cvref_t<X>>::type;
// The value of an element proxy (one read); anything else unchanged.
template <class X>
decltype(auto) plain(X&& x) {
  if constexpr (is_element_v<X>)
    return static_cast<plain_t<X>>(x);
  else
    return std::forward<X>(x);
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

}  // namespace kpz::trace
