#include "cpu_affinity.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

#include <vector>

namespace kpz::cli {

int CpuMask::count() const {
  return known ? CPU_COUNT(&set) : 0;
}

CpuMask startup_cpu_mask() {
  CpuMask m;
  CPU_ZERO(&m.set);
#if defined(_OPENMP)
  const int places = omp_get_num_places();
  for (int p = 0; p < places; ++p) {
    std::vector<int> ids(static_cast<std::size_t>(omp_get_place_num_procs(p)));
    omp_get_place_proc_ids(p, ids.data());
    for (int id : ids)
      if (id >= 0 && id < CPU_SETSIZE) CPU_SET(id, &m.set);
  }
  if (CPU_COUNT(&m.set) > 0) {
    m.known = true;
    return m;
  }
#endif
  m.known = sched_getaffinity(0, sizeof m.set, &m.set) == 0;
  return m;
}

void restore_cpu_mask(const CpuMask& mask) {
  if (mask.known) (void)sched_setaffinity(0, sizeof mask.set, &mask.set);
}

}  // namespace kpz::cli
