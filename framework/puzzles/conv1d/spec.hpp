#pragma once
// What conv1d's runner shares (spec.cpp, run.cpp, trace_config.cpp): the variants and the run.
#include <cstdint>

#include "kpz/registry.hpp"

namespace kpz::conv1d {

// The variants (VariantSpec::id): runners and budgets switch on the id, not on the name.
enum class Variant { general, vector, simple, block_boundary, bug_missing_barrier };

// Elements per run at most: 1 GiB per array of floats.
inline constexpr std::int64_t kMaxSize = std::int64_t{1} << 28;

// One `kpuzzles run` of a variant on req.space (run.cpp).
RunReport run(const RunRequest& req);

// How `kpuzzles trace` runs a variant, and its budget (trace_config.cpp).
TraceSpec trace_config(Variant variant);

}  // namespace kpz::conv1d
