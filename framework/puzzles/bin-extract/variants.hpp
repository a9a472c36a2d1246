#pragma once
// bin-extract's variants (VariantSpec::id): the runner (spec.cpp), the checks (checks.cpp) and
// the trace budgets (trace_config.cpp) switch on the id, not on the name.
#include <vector>

#include "kpz/registry.hpp"

namespace kpz::bin_extract {

enum class Variant { extract, histogram, partition, team_scan };

// The cases a variant must pass besides its defaults (checks.cpp).
std::vector<CheckCase> checks_of(Variant variant);

// The cases the generated tests run with every team size (checks.cpp).
std::vector<CheckCase> team_sweep_of(Variant variant);

// How `kpuzzles trace` runs a variant, and its budget (trace_config.cpp).
TraceSpec trace_config(Variant variant);

}  // namespace kpz::bin_extract
