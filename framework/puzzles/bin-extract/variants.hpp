#pragma once
// bin-extract's variants, named once: the runner (spec.cpp) and the trace budgets
// (trace_config.cpp) switch on the id, not on the name.
#include <string>

#include "kpz/lookup.hpp"
#include "kpz/registry.hpp"

namespace kpz::bin_extract {

enum class Variant { extract, histogram, partition, team_scan };

inline Variant variant_of(const std::string& name) {
  return enum_of<Variant::team_scan>({"extract", "histogram", "partition", "team-scan"}, name,
                                     "bin-extract's variants");
}

// The learner-loop functions and checks of every variant (checks.cpp).
void set_checks(PuzzleSpec& spec);

}  // namespace kpz::bin_extract
