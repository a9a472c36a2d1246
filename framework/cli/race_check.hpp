#pragma once
// The race check of a pass: the puzzle's verifier, kpz-verify-<puzzle> (cmake/KpzVerify.cmake),
// traces the variant's small configuration deterministically and says whether the code is
// race-free, in bounds, within its scratch request and correct there. `kpuzzles check` runs it
// before the real backend, so run, check, watch, list and solution share one verdict
// (docs/how-to-work.md#what-a-pass-means).
#include <string>
#include <vector>

#include "kpz/json.hpp"
#include "kpz/race_finding.hpp"
#include "kpz/registry.hpp"

namespace kpz::cli {

// How often `kpuzzles check` runs the cases of an exercise the race check cannot judge, with
// seeds seed, seed + 1, ...: all must pass before it counts as solved.
inline constexpr int kUnjudgedRounds = 3;

struct RaceCheck {
  enum class State {
    clean,        // traced: race-free, in bounds, within its scratch, correct
    bug,          // traced: findings say what
    not_judged,   // this variant cannot be traced: `reason` says why
    unavailable,  // this build has no verifier for it (a GPU build, -DKPZ_VERIFY=OFF): `reason`
  };
  State state = State::unavailable;
  std::string reason;
  std::vector<RaceFinding> findings;
  std::vector<std::string> notes;  // e.g. over budget (not a failure)
  std::string report_command;      // what shows the tracer's whole report
  // A bug that stops the check before the real run: anything but a wrong result (a wrong result
  // alone is shown better by the real run's report, with its expected values and owners).
  bool blocking() const;
  Json to_json() const;
};

std::string to_string(RaceCheck::State s);  // "clean", "bug", "not-judged", "unavailable"

// Runs the verifier of `puzzle` on `variant` (the learner's code or the reference).
RaceCheck race_check(const PuzzleSpec& puzzle, const VariantSpec& variant, Impl impl);

// What a learner reads about a race check that found a bug, from RaceCheck::to_json() (what
// `check --json` carries to `watch`): "<kind>: <headline>" per kind of bug and the command that
// shows the whole report, each line indented by two spaces. Empty when it found none.
std::string race_check_text(const Json& race);
// One line for a pass the race check did not judge ("" otherwise).
std::string race_check_caveat(const Json& race);

// The verifier program of a puzzle ("" when this build has none for it).
std::string verifier_file(const std::string& puzzle);
// Whether race_check can judge `variant` here (its verifier is built and the variant is
// traceable): then a scratch request too small or an index past a View's end is found before
// the code runs, and cannot crash the run.
bool race_check_runs_first(const PuzzleSpec& puzzle, const VariantSpec& variant);

// What `kpuzzles trace` runs in a host build: the verifier's whole report (diagram, races,
// budget) of one variant. Does not return.
[[noreturn]] void show_race_report(const PuzzleSpec& puzzle, const VariantSpec& variant, Impl impl);

}  // namespace kpz::cli
