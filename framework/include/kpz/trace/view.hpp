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
//   for it (element_ops.hpp). Otherwise convert: `std::max(acc, float(view(i)))`. A template
//   that deduces a class type from a pattern (`SegPair<T> combine(const SegPair<T>&, ...)`)
//   works; one that deduces the whole type (`template <class T> T f(const T&)`) sees the proxy:
//   `f(Pair(view(i)))`.
// - `&view(i)` is not a raw pointer; only Kokkos atomics take it.
// Inside a team kernel, View::data() and Kokkos::subview throw NotTraceable (accesses through
// them could not be recorded).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kpz/trace/element.hpp"
#include "kpz/trace/element_ops.hpp"
#include "kpz/trace/runtime.hpp"

namespace kpz::trace {

template <class V>
void describe_view(const void* view_object, ViewInfo& out) {
  const V& v = *static_cast<const V*>(view_object);
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
    static_assert(sizeof...(I) == Base::rank(), "trace build: index a view with exactly as many indices as its rank");
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
    if constexpr (std::is_union_v<std::remove_const_t<value_type>>)
      return UnionAccess<value_type>::access(ptr, site);
    else
      return Element::slot(ptr, site);
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
    noted(loc, n0);
  }
  explicit ScratchView(const Scratch& s, std::size_t n0, std::size_t n1, Loc loc = KPZ_TRACE_HERE)
      : Parent(Base(s, n0, n1)) {
    noted(loc, n0, n1);
  }
  explicit ScratchView(const Scratch& s, std::size_t n0, std::size_t n1, std::size_t n2, Loc loc = KPZ_TRACE_HERE)
      : Parent(Base(s, n0, n1, n2)) {
    noted(loc, n0, n1, n2);
  }
  explicit ScratchView(const Scratch& s, std::size_t n0, std::size_t n1, std::size_t n2, std::size_t n3,
                       Loc loc = KPZ_TRACE_HERE)
      : Parent(Base(s, n0, n1, n2, n3)) {
    noted(loc, n0, n1, n2, n3);
  }

 private:
  template <class... N>
  void noted(Loc loc, N... n) {
    using Value = typename Base::value_type;
    std::vector<std::int64_t> extents, strides;
    for (std::size_t r = 0; r < Base::rank(); ++r) {
      extents.push_back(static_cast<std::int64_t>(this->extent(r)));
      strides.push_back(static_cast<std::int64_t>(this->stride(r)));
    }
    const std::size_t bytes = this->span() * sizeof(Value);
    // Kokkos' own figure, so that the check follows its alignment rule whatever it becomes.
    const std::size_t padding = Base::shmem_size(this->layout()) - bytes;
    void* at = note_scratch_view(Base::data(), extents, strides, bytes, padding, loc);
    if (at != static_cast<const void*>(Base::data())) static_cast<Base&>(*this) = Base(static_cast<Value*>(at), n...);
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

}  // namespace Kokkos
