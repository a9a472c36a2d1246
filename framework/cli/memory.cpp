#include "memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "cli.hpp"
#include "kpz/errors.hpp"

namespace kpz::cli {

namespace {

struct MachineMemory {
  double total = 0;       // bytes of the machine, or of its container (cgroup memory.max)
  double available = 0;   // bytes a new process can take now (MemAvailable, the cgroup's headroom)
  bool from_env = false;  // KPZ_MEMORY_BYTES set both
};

// A "Key:   123 kB" line of /proc/meminfo, in bytes; 0 when absent.
double meminfo(const std::string& key) {
  std::ifstream in("/proc/meminfo");
  std::string name;
  double kb = 0;
  std::string unit;
  while (in >> name >> kb) {
    std::getline(in, unit);
    if (name == key + ":") return kb * 1024.0;
  }
  return 0;
}

// A cgroup v2 number ("max": no limit, 0).
double cgroup_value(const char* file) {
  std::ifstream in(std::string("/sys/fs/cgroup/") + file);
  std::string text;
  if (!(in >> text) || text == "max") return 0;
  try {
    return std::stod(text);
  } catch (const std::exception&) {
    return 0;
  }
}

// KPZ_MEMORY_BYTES=N (a whole number of bytes) stands in for the machine's memory (tests, or a
// user whose estimate is too cautious); else /proc/meminfo and the cgroup's limit; total 0 when
// nothing can be read. A KPZ_MEMORY_BYTES that is not a positive whole number: UsageError.
MachineMemory machine_memory() {
  MachineMemory m;
  if (const char* env = std::getenv("KPZ_MEMORY_BYTES"); env && *env) {
    const std::int64_t bytes = parse_int("KPZ_MEMORY_BYTES", env, 1, std::numeric_limits<std::int64_t>::max());
    m.total = m.available = static_cast<double>(bytes);
    m.from_env = true;
    return m;
  }
  m.total = meminfo("MemTotal");
  m.available = meminfo("MemAvailable");
  if (m.total <= 0) {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0) m.total = static_cast<double>(pages) * static_cast<double>(page);
  }
  if (m.available <= 0) m.available = m.total;
  if (const double limit = cgroup_value("memory.max"); limit > 0) {
    m.total = m.total > 0 ? std::min(m.total, limit) : limit;
    m.available =
        std::min(m.available > 0 ? m.available : limit, std::max(0.0, limit - cgroup_value("memory.current")));
  }
  return m;
}

// "19.3 GB" (powers of 1000, one decimal).
std::string format_bytes(double bytes) {
  const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
  int u = 0;
  while (bytes >= 1000.0 && u < 5) {
    bytes /= 1000.0;
    ++u;
  }
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(u == 0 ? 0 : 1);
  os << bytes << ' ' << units[u];
  return os.str();
}

}  // namespace

void require_memory(const PuzzleSpec& spec, const VariantSpec& variant, const Params& params) {
  if (!spec.bytes_needed) return;
  const double need = spec.bytes_needed(variant, params);
  const MachineMemory m = machine_memory();
  if (m.total <= 0 || need <= m.available) return;
  std::string what = spec.name + " --" + variant.name;
  for (const auto& [name, value] : params.values())
    if (params.given(name)) what += " --" + name + " " + std::to_string(value);
  // A variant without --size (transpose --rows --cols): name the options that were given.
  std::string advice, given;
  for (const auto& [name, value] : params.values())
    if (params.given(name)) given += (given.empty() ? "--" : " or --") + name;
  advice = "use a smaller " + (given.empty() ? std::string("size") : given);
  // The largest --size that fits, the other options kept (the estimate grows with the size).
  const auto size = std::find_if(variant.options.begin(), variant.options.end(),
                                 [](const OptionSpec& o) { return o.name == "size"; });
  if (size != variant.options.end()) {
    auto fits = [&](std::int64_t n) {
      Params p = params;
      p.set("size", n, params.given("size"));
      return spec.bytes_needed(variant, p) <= m.available;
    };
    std::int64_t lo = size->min, hi = params.get("size");
    if (fits(lo)) {
      while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
      }
      advice = "use --size " + std::to_string(lo) + " or less";
    } else {
      advice = "no --size fits with these options";
    }
  }
  const std::string machine = m.from_env ? format_bytes(m.available) + " (KPZ_MEMORY_BYTES)"
                                         : format_bytes(m.available) + " available of " + format_bytes(m.total);
  throw UsageError(what + " needs about " + format_bytes(need) + " of memory; this machine has " + machine + ": " +
                   advice + " (KPZ_MEMORY_BYTES=N tells kpuzzles how many bytes it may use)");
}

}  // namespace kpz::cli
