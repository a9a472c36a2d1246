#pragma once
// Shared by the learner-loop commands (list, check, hint, reset, solution, watch).
#include <functional>
#include <string>

#include "exercises.hpp"
#include "paths.hpp"
#include "state.hpp"

namespace kpz::cli {

// The progress file of this build tree; a warning on stderr if it had to be reset. Throws
// std::runtime_error (exit 3) when it exists but cannot be read.
LearnerState load_state();
// Load, change, save (when `change` returns true): every command re-reads the file before it
// writes, under the file's StateLock, so that `watch`, the commands it starts and those of a
// second terminal never overwrite each other's records. `change` must not call load_state.
void update_state(const std::function<bool(LearnerState&)>& change);

// Records exercises of the learner's code that passed; returns how many were news.
int record_passes(const std::vector<std::pair<Exercise, bool>>& results);

// Throws std::runtime_error with a fix when the source tree is not where it should be.
void require_source_tree(const LearnerPaths& paths, const std::string& command);

}  // namespace kpz::cli
