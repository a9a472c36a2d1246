#pragma once
// What reduce's runner shares (spec.cpp, run.cpp, trace_config.cpp): the limits and the run.
#include <cstdint>

#include "kpz/registry.hpp"
#include "reduce/reduce.hpp"

namespace kpz::reduce {

// Elements per run at most: |sum| <= 7 * 2^28 < 2^31, so int sums never wrap.
inline constexpr std::int64_t kMaxSize = std::int64_t{1} << 28;

// One `kpuzzles run` of a rung on req.space (run.cpp).
RunReport run(const RunRequest& req);

// How `kpuzzles trace` runs a variant, and its budget (trace_config.cpp).
TraceSpec trace_config(const VariantInfo& i);

}  // namespace kpz::reduce
