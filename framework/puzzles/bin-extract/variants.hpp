#pragma once
// bin-extract's variants, named once: the runner (spec.cpp) and the trace budgets
// (trace_config.cpp) switch on the id, not on the name.
#include <string>

#include "kpz/registry.hpp"

namespace kpz::bin_extract {

enum class Variant { extract, histogram, partition, team_scan };

inline Variant variant_of(const std::string& name) {
  if (name == "histogram") return Variant::histogram;
  if (name == "partition") return Variant::partition;
  if (name == "team-scan") return Variant::team_scan;
  return Variant::extract;
}

// The learner-loop functions and checks of every variant (checks.cpp).
void set_checks(PuzzleSpec& spec);

}  // namespace kpz::bin_extract
