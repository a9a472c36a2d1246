#include "doctor_verdict.hpp"

#include <filesystem>

#include "kpz/errors.hpp"
#include "kpz/registry.hpp"

namespace kpz::cli {

Finding trace_build_finding(const LearnerPaths& paths) {
  int hunts = 0;
  for (const auto& p : Registry::instance().all())
    for (const auto& v : p.variants) hunts += v.bug_hunt;
  const std::string why = hunts ? "the bug hunts need it: `kpuzzles trace`" : "the course has no bug hunt";
#if defined(KPZ_TRACE)
  (void)paths;
  return {"trace build", true, "this program is the trace build (" + why + ")", ""};
#else
  // A host build traces every pass itself (cmake/KpzVerify.cmake): no second build needed.
  if (!paths.verify_dir.empty())
    return {"race check", true,
            "every pass is traced by " + paths.verify_dir +
                "/kpz-verify-<puzzle> (races, scratch requests, bounds); `kpuzzles trace` runs here",
            ""};
  namespace fs = std::filesystem;
  fs::path build = fs::path(paths.build_dir);
  if (!build.has_filename()) build = build.parent_path();  // "build/openmp/"
  const fs::path trace_dir = build.parent_path() / "trace";
  const fs::path program = trace_dir / "framework" / "cli" / "kpuzzles";
  std::error_code ec;
  if (fs::is_regular_file(program, ec)) return {"trace build", true, program.string() + " (" + why + ")", ""};
  return {"trace build", hunts == 0, "no " + program.string() + " (" + why + ")",
          hunts == 0 ? ""
                     : "cmake --preset trace && cmake --build --preset trace --target kpuzzles (a Serial-only "
                       "Kokkos: a few minutes; `kpuzzles trace` runs from it)"};
#endif
}

Verdict doctor_verdict(const std::vector<Finding>& findings, const Json& puzzles) {
  Verdict v;
  for (const auto& f : findings)
    if (!f.ok) v.missing.push_back(f.check);
  for (const auto& p : puzzles.items())
    for (const auto& s : p["spaces"].items())
      for (const auto& d : s["details"].items())
        if (d["runs"].as_bool() && !d["reference_passes"].as_bool())
          v.missing.push_back("reference " + p["puzzle"].as_string() + " --" + d["variant"].as_string() + " fails on " +
                              s["space"].as_string());
  v.ready = v.missing.empty();
  return v;
}

std::string verdict_line(const Verdict& verdict) {
  if (verdict.ready) return "verdict: ready (every setup check is ok and every reference that runs here passes)";
  return "verdict: not ready: " + join(verdict.missing, ", ") + " (the fixes are above)";
}

}  // namespace kpz::cli
