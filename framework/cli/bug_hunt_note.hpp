#pragma once
// Bug hunts are checked only by the trace build (`kpuzzles trace`): outside it their checks pass
// by luck. When the learner loop reaches one (`kpuzzles watch` and its keys, `run`, `list`'s next)
// it says so in one line, with the commands that build and run the trace build.
#include <string>

#include "kpz/registry.hpp"
#include "paths.hpp"

namespace kpz::cli {

// The trace build's kpuzzles, where `cmake --preset trace` puts it in the source tree.
std::string trace_build_kpuzzles(const LearnerPaths& paths);

// The line for `variant` of `puzzle`: how to build the trace preset and the `kpuzzles trace`
// command to run with the trace build's kpuzzles (noting it when that build already exists).
// Empty when the variant is not a bug hunt, and in the trace build itself.
std::string bug_hunt_note(const LearnerPaths& paths, const PuzzleSpec& puzzle, const VariantSpec& variant);

}  // namespace kpz::cli
