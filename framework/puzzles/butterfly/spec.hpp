#pragma once
// What butterfly's runner shares (spec.cpp, run.cpp, trace_config.cpp): the variants
// (VariantSpec::id) and what each runs; the runner and the trace budgets switch on them, not on
// the name.
#include <cstdint>

#include "butterfly/butterfly.hpp"
#include "kpz/registry.hpp"

namespace kpz::butterfly {

enum class Kind { pair_swap, all_reduce, conditional, in_place, vector };

// The variants, in declaration order (VariantSpec::id).
enum class Variant {
  general,
  pair_swap,
  parallel_max,
  parallel_min,
  parallel_sum,
  conditional_max,
  bug_in_place,
  vector
};

// What a variant runs: the kernel, the op, and whether its worked example is conditional-max's
// (digits 0..9 in the first 32 lanes).
struct VariantInfo {
  Kind kind;
  Op op;
  bool digits = false;
};

VariantInfo info(Variant variant);

// Elements per run at most (--size).
inline constexpr std::int64_t kMaxSize = std::int64_t{1} << 28;

// One `kpuzzles run` of a variant on req.space (run.cpp).
RunReport run(const RunRequest& req);

// How `kpuzzles trace` runs a variant, and its budget (trace_config.cpp).
TraceSpec trace_config(Variant variant);

}  // namespace kpz::butterfly
