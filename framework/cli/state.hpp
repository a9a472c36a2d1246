#pragma once
// The learner's progress: which exercises passed, how many hints were shown, which solutions
// were opened (and whether with --force), and where `kpuzzles watch` was. One small JSON file
// in the build tree (never in the source tree). `watch` and the commands it starts (or a second
// terminal) write it at the same time: every update is a read-modify-write under StateLock, and
// every save goes through a temporary file of its own, renamed over the file.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "file_lock.hpp"
#include "kpz/json.hpp"

namespace kpz::cli {

class LearnerState {
 public:
  // An empty state when the file does not exist. Throws std::runtime_error (one line: the file
  // and what to do) when it exists but cannot be read, or is not a regular file: progress that
  // cannot be read must never be taken for no progress. A file that is not valid JSON is moved
  // to <path>.corrupt-<UTC time> (never over an earlier backup) and replaced by an empty state;
  // if it cannot be moved, the state refuses to save over it. Sections of the wrong type and
  // negative hint counts are ignored. `warning` says what happened in each of these cases.
  static LearnerState load(const std::string& path, std::string* warning = nullptr);
  // Writes a temporary file of its own (mkstemp) beside <path> and renames it over <path>;
  // creates the parent folder. Throws std::runtime_error when the file cannot be written.
  void save() const;

  const Json& json() const { return data_; }

  // Exercises are "<puzzle>/<variant>".
  bool solved(const std::string& puzzle, const std::string& variant) const;
  // Records the first time an exercise passed; true when that is news.
  bool record_solved(const std::string& puzzle, const std::string& variant);

  // Hint tiers shown so far for one hint set ("<puzzle>/<function>").
  int hints_shown(const std::string& key) const;
  // Negative counts are stored as 0.
  void set_hints_shown(const std::string& key, int tiers);
  // Every hint set with at least one tier shown.
  std::vector<std::string> hint_keys() const;

  // `kpuzzles solution`: whether it was shown, and whether any showing was forced.
  bool solution_shown(const std::string& puzzle) const;
  bool solution_forced(const std::string& puzzle) const;
  void record_solution(const std::string& puzzle, bool forced);

  // The exercise `kpuzzles watch` showed last ("<puzzle>/<variant>"), or "".
  std::string current() const;
  void set_current(const std::string& exercise);

 private:
  Json& section(const std::string& name);
  const Json& section(const std::string& name) const;

  std::string path_;
  Json data_ = Json::object();
  std::string no_save_;  // why save() must not write (a corrupt file that could not be moved)
};

// An exclusive flock on <state path>.lock, held while it lives: whoever reads the file in order
// to write it back holds it, so that no update is lost. When the lock file cannot be created
// (a read-only build tree) nothing is locked: nothing can be saved there either. Throws
// std::runtime_error when another process holds the lock for more than `timeout_s`.
class StateLock {
 public:
  explicit StateLock(const std::string& state_path, double timeout_s = 30);

 private:
  std::unique_ptr<FileLock> lock_;
};

// When `kpuzzles solution <puzzle>` may show the reference: every variant passes now or has
// passed before (recorded in the state), or the learner insists with --force.
struct SolutionGate {
  bool allowed = false;
  bool forced = false;                // allowed only because of --force
  std::vector<std::string> unsolved;  // variants neither passing now nor solved before
};
SolutionGate solution_gate(const LearnerState& state, const std::string& puzzle,
                           const std::vector<std::string>& variants,
                           const std::function<bool(const std::string&)>& passes_now, bool force);

// "2026-01-31T12:00:00Z"
std::string utc_timestamp();

}  // namespace kpz::cli
