#pragma once
// `kpuzzles doctor`'s setup findings and its one-line verdict: "ready", or what is missing. A
// participant runs it the day before a workshop (docs/instructor/setup-check.md).
#include <string>
#include <vector>

#include "kpz/json.hpp"
#include "paths.hpp"

namespace kpz::cli {

// One line of the setup report: what was checked, whether it is fine, and how to fix it.
struct Finding {
  std::string check;
  bool ok;
  std::string detail;
  std::string fix;
};

// Whether the trace build that the course's bug hunts need (`kpuzzles trace`) is built: this
// program when it is that build, else build/trace beside the build tree (the presets' layout).
Finding trace_build_finding(const LearnerPaths& paths);

struct Verdict {
  bool ready = false;
  std::vector<std::string> missing;  // short names: setup checks not ok, references that fail
};

// The verdict from the setup findings and doctor's per-puzzle reports (each with "puzzle" and
// "spaces": [{"space", "details": [{"variant", "runs", "reference_passes"}]}]). A variant that
// cannot run on a space (a limit of the backend) is advice, not a missing piece; a reference that
// runs and fails means the build is broken.
Verdict doctor_verdict(const std::vector<Finding>& findings, const Json& puzzles);

// "verdict: ready ..." or "verdict: not ready: a, b (...)": one line, no newline.
std::string verdict_line(const Verdict& verdict);

}  // namespace kpz::cli
