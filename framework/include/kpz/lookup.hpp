#pragma once
// A small table written where it is used: each key once, next to what it selects. For a
// puzzle's variants (the id of each --name), and for the kernel a variant runs (a member of the
// puzzle's kernel table):
//   const Variant id = lookup<Variant>(name, {{"general", Variant::general}, {"vector", Variant::vector}},
//                                      "conv1d variant");
// A key the table lacks is a bug in the puzzle, not bad input (the CLI passes only registered
// names): std::logic_error.
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

}  // namespace kpz
