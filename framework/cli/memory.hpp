#pragma once
// Memory a run needs against the memory of the machine: `kpuzzles run`
// refuses, before allocating anything, a run whose estimate (PuzzleSpec::bytes_needed) cannot
// fit in the memory available now.
#include "kpz/registry.hpp"

namespace kpz::cli {

// Throws UsageError (one line: the estimate, the machine's memory, the largest --size that fits)
// when `variant` with `params` needs more memory than is available. No estimate: no check.
void require_memory(const PuzzleSpec& spec, const VariantSpec& variant, const Params& params);

}  // namespace kpz::cli
