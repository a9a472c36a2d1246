#include "learner.hpp"

#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace kpz::cli {

namespace {

// The caller holds the StateLock (flock is not re-entrant across descriptors: never twice).
LearnerState load_locked() {
  std::string warning;
  LearnerState s = LearnerState::load(learner_paths().state_file, &warning);
  if (!warning.empty()) std::cerr << "kpuzzles: warning: " << warning << '\n';
  return s;
}

// A warning on stderr (not an error) when the build tree is read-only.
void save_state(const LearnerState& state) {
  try {
    state.save();
  } catch (const std::exception& e) {
    std::cerr << "kpuzzles: warning: progress not saved: " << e.what() << '\n';
  }
}

}  // namespace

LearnerState load_state() {
  // Locked too: a corrupt file is moved aside while loading.
  const StateLock lock(learner_paths().state_file);
  return load_locked();
}

void update_state(const std::function<bool(LearnerState&)>& change) {
  const StateLock lock(learner_paths().state_file);
  LearnerState s = load_locked();
  if (change(s)) save_state(s);
}

int record_passes(const std::vector<std::pair<Exercise, bool>>& results) {
  int news = 0;
  update_state([&](LearnerState& s) {
    for (const auto& [e, pass] : results)
      if (pass) news += s.record_solved(e.puzzle->name, e.variant->name);
    return news > 0;
  });
  return news;
}

void require_source_tree(const LearnerPaths& paths, const std::string& command) {
  if (!std::filesystem::is_directory(paths.exercises_dir()))
    throw std::runtime_error("'kpuzzles " + command + "' needs the Kokkos Puzzles source tree, but " +
                             paths.exercises_dir() +
                             " does not exist; set KPZ_SOURCE_DIR to the folder with exercises/ and reference/");
}

}  // namespace kpz::cli
