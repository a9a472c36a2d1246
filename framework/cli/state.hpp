#pragma once
// The learner's progress: which exercises passed, how many hints were shown, which solutions
// were opened (and whether with --force), and where `kpuzzles watch` was. One small JSON file
// in the build tree (never in the source tree), written atomically.
#include <functional>
#include <string>
#include <vector>

#include "kpz/json.hpp"

namespace kpz::cli {

class LearnerState {
 public:
  // An empty state when the file does not exist. A file that is not valid JSON is moved aside
  // to <path>.corrupt and replaced by an empty state; `warning` then says so.
  static LearnerState load(const std::string& path, std::string* warning = nullptr);
  // Writes <path>.tmp and renames it over <path>; creates the parent folder. Throws
  // std::runtime_error when the file cannot be written.
  void save() const;

  const std::string& path() const { return path_; }
  const Json& json() const { return data_; }

  // Exercises are "<puzzle>/<variant>".
  bool solved(const std::string& puzzle, const std::string& variant) const;
  // Records the first time an exercise passed; true when that is news.
  bool record_solved(const std::string& puzzle, const std::string& variant);

  // Hint tiers shown so far for one hint set ("<puzzle>/<function>").
  int hints_shown(const std::string& key) const;
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
