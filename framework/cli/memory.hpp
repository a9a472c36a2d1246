#pragma once
// Memory a run needs against the memory of the machine: `kpuzzles run`
// refuses, before allocating anything, a run whose estimate (PuzzleSpec::bytes_needed) cannot
// fit in the memory available now.
#include <string>

#include "kpz/registry.hpp"

namespace kpz::cli {

struct MachineMemory {
  double total = 0;       // bytes of the machine, or of its container (cgroup memory.max)
  double available = 0;   // bytes a new process can take now (MemAvailable, the cgroup's headroom)
  bool from_env = false;  // KPZ_MEMORY_BYTES set both
};

// KPZ_MEMORY_BYTES=N (a whole number of bytes) stands in for the machine's memory (tests, or a
// user whose estimate is too cautious); else /proc/meminfo and the cgroup's limit; total 0 when
// nothing can be read. A KPZ_MEMORY_BYTES that is not a positive whole number: UsageError.
MachineMemory machine_memory();

// "19.3 GB" (powers of 1000, one decimal).
std::string format_bytes(double bytes);

// Throws UsageError (one line: the estimate, the machine's memory, the largest --size that fits)
// when `variant` with `params` needs more memory than is available. No estimate: no check.
void require_memory(const PuzzleSpec& spec, const VariantSpec& variant, const Params& params);

}  // namespace kpz::cli
