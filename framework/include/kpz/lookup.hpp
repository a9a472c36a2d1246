#pragma once
// Small tables written where they are used.
//
// lookup: each key once, next to what it selects (keys that are not an enum's leading ids: some
// of the variants, reduce --template's instances by lane count):
//   const Member m = lookup<Member>(lanes, {{64, &K::templated_64}, {128, &K::templated_128}}, "...");
//
// by_enum: a table indexed by an enum, one entry per enumerator in the enum's order (a status'
// text, the kernel or runner of each variant). `Last` is the last
// enumerator the table covers: the enum's last, or the last of a leading group of enumerators
// (segscan's one-team scans). A table with an entry too few or too many does not compile, as a
// switch missing a case would warn:
//   std::string to_string(Status s) { return by_enum<Status::bug_hunt>({"solved", ..., "bug hunt"}, s); }
//
// A key the table lacks is a bug in the puzzle, not bad input: std::logic_error.
#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace kpz {

template <class Value, class Key>
Value lookup(const Key& key, std::initializer_list<std::pair<std::type_identity_t<Key>, Value>> table,
             std::string_view what) {
  for (const auto& [k, value] : table) {
    if (k == key) return value;
  }
  throw std::logic_error(std::string(what) + ": not in the puzzle's table");
}

namespace detail {
template <auto Last, std::size_t N>
constexpr void check_enum_table() {
  static_assert(std::is_enum_v<decltype(Last)>, "Last names an enumerator");
  static_assert(N == static_cast<std::size_t>(Last) + 1, "one entry per enumerator up to Last, in the enum's order");
}
}  // namespace detail

// table[e] (a copy: the table is often a temporary braced list).
template <auto Last, class T, std::size_t N>
constexpr T by_enum(const T (&table)[N], decltype(Last) e) {
  detail::check_enum_table<Last, N>();
  const auto i = static_cast<std::size_t>(e);
  if (i >= N) throw std::logic_error("kpz::by_enum: an enumerator past the table's Last");
  return table[i];
}

}  // namespace kpz
