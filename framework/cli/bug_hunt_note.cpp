#include "bug_hunt_note.hpp"

#include <unistd.h>

#include "race_check.hpp"

namespace kpz::cli {
namespace {

// The trace preset's binaryDir (CMakePresets.json), and kpuzzles' folder in every build tree.
constexpr const char* kTraceKpuzzles = "build/trace/framework/cli/kpuzzles";

}  // namespace

std::string trace_build_kpuzzles(const LearnerPaths& paths) {
  return paths.source_dir + "/" + kTraceKpuzzles;
}

std::string bug_hunt_note(const LearnerPaths& paths, const PuzzleSpec& puzzle, const VariantSpec& variant) {
#if defined(KPZ_TRACE)
  (void)paths, (void)puzzle, (void)variant;
  return "";
#else
  if (!variant.bug_hunt) return "";
  // A host build's race check judges it (race_check.hpp): the diagram is one command away.
  if (!verifier_file(puzzle.name).empty() && variant.trace.traceable)
    return "bug hunt: the race check judges your fix on every run; `kpuzzles trace " + puzzle.name + " --" +
           variant.name + "` draws which member touches which element between barriers";
  // Commands for the source tree, where the presets are.
  const std::string trace = std::string(kTraceKpuzzles) + " trace " + puzzle.name + " --" + variant.name;
  const std::string build = "cmake --build --preset trace --target kpuzzles";
  if (access(trace_build_kpuzzles(paths).c_str(), X_OK) == 0)
    return "bug hunt: only the trace build checks it, and yours is built: " + build + " && " + trace;
  return "bug hunt: only the trace build checks it: cmake --preset trace && " + build + ", then " + trace;
#endif
}

}  // namespace kpz::cli
