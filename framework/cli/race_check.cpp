#include "race_check.hpp"

#include <algorithm>
#include <filesystem>

#include "kpz/errors.hpp"
#include "kpz/lookup.hpp"
#include "paths.hpp"
#include "process.hpp"
#include "text.hpp"

namespace kpz::cli {

namespace {

// The traced configurations are small (a trace takes well under a second): a verifier that
// runs this long is stuck, like a kernel whose members never meet at a barrier.
constexpr double kVerifyTimeout = 60;

std::vector<std::string> verified_puzzles() {
  return split_list(build_defaults().verify_puzzles ? build_defaults().verify_puzzles : "");
}

std::vector<std::string> verifier_args(const std::string& file, const VariantSpec& variant, Impl impl) {
  std::vector<std::string> argv{file, variant.name};
  if (impl == Impl::reference) argv.push_back("--reference");
  return argv;
}

}  // namespace

std::string to_string(RaceCheck::State s) {
  return by_enum<RaceCheck::State::unavailable>({"clean", "bug", "not-judged", "unavailable"}, s);
}

bool RaceCheck::blocking() const {
  return state == State::bug && findings_stop_the_run(findings);
}

Json RaceCheck::to_json() const {
  Json j = Json::object();
  j.set("state", to_string(state));
  if (!reason.empty()) j.set("reason", reason);
  j.set("findings", findings_to_json(findings));
  j.set("notes", Json::array_of(notes));
  if (!report_command.empty()) j.set("report", report_command);
  return j;
}

std::string race_check_text(const Json& race) {
  if (race["state"].as_string() != "bug" || race["findings"].size() == 0) return "";
  std::string out;
  // One line per kind of bug (the headline names the element, the members, the lines and the
  // likely fix); the tracer's report has the rest.
  for (const Json& f : race["findings"].items())
    out += "  " + f["kind"].as_string() + ": " + f["headline"].as_string() + "\n";
  if (!race["report"].as_string().empty())
    out += "  the access diagram and the whole report: " + race["report"].as_string() + "\n";
  return out;
}

std::string race_check_caveat(const Json& race) {
  const std::string state = race["state"].as_string();
  if (state == "not-judged")
    return "not race-checked (" + race["reason"].as_string() + "): the cases passed with " +
           std::to_string(kUnjudgedRounds) + " seeds";
  if (state == "unavailable") return "not race-checked: " + race["reason"].as_string();
  return "";
}

std::string verifier_file(const std::string& puzzle) {
  const std::string& dir = learner_paths().verify_dir;
  const auto names = verified_puzzles();
  if (dir.empty() || std::find(names.begin(), names.end(), puzzle) == names.end()) return "";
  return dir + "/kpz-verify-" + puzzle;
}

bool race_check_runs_first(const PuzzleSpec& puzzle, const VariantSpec& variant) {
  const std::string file = verifier_file(puzzle.name);
  std::error_code ec;
  return !file.empty() && variant.trace.traceable && std::filesystem::exists(file, ec);
}

RaceCheck race_check(const PuzzleSpec& puzzle, const VariantSpec& variant, Impl impl) {
  RaceCheck c;
  if (learner_paths().verify_dir.empty()) {
    c.reason =
        "this build has no race check (a GPU build, the trace build, or -DKPZ_VERIFY=OFF): the pass rests on the "
        "run alone";
    return c;
  }
  const std::string file = verifier_file(puzzle.name);
  if (file.empty() || !variant.trace.traceable) {
    c.state = RaceCheck::State::not_judged;
    c.reason = !variant.trace.not_traceable_reason.empty() ? variant.trace.not_traceable_reason
               : file.empty()                              ? "the puzzle is not built with the tracer"
                                                           : "it declares no trace configuration";
    return c;
  }
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    c.reason = "the race check " + file + " is not built: cmake --build " + learner_paths().build_dir +
               " --target kpz_verify_" + puzzle.name;
    return c;
  }
  c.report_command =
      "kpuzzles trace " + puzzle.name + " --" + variant.name + (impl == Impl::reference ? " --reference" : "");
  const ProcessResult r = run_process(verifier_args(file, variant, impl), {}, kVerifyTimeout);
  Json j;
  if (r.timed_out) {
    c.state = RaceCheck::State::bug;
    c.findings.push_back({"hang",
                          "the traced run did not finish in " + std::to_string(static_cast<int>(kVerifyTimeout)) +
                              " s: a loop that never ends, or a team_barrier that not every member reaches",
                          tail_lines(r.output, 5)});
  } else if (r.signal) {
    c.state = RaceCheck::State::bug;
    c.findings.push_back({"crash",
                          "the traced run crashed (" + describe_signal(r.signal) +
                              "): a pointer past the end of its memory (View::data() plus an index, a raw array)?",
                          tail_lines(r.output, 5)});
  } else if ((r.exit_code == 0 || r.exit_code == 1) && last_json_line(r.output, j)) {
    if (!j["judged"].as_bool()) {
      c.state = RaceCheck::State::not_judged;
      c.reason = j["reason"].as_string();
    } else {
      c.findings = findings_from_json(j["findings"]);
      c.state = c.findings.empty() ? RaceCheck::State::clean : RaceCheck::State::bug;
    }
    for (const Json& n : j["notes"].items()) c.notes.push_back(n.as_string());
  } else {
    c.reason = "the race check could not run (exit " + std::to_string(r.exit_code) + "):\n" + tail_lines(r.output, 5);
  }
  return c;
}

void show_race_report(const PuzzleSpec& puzzle, const VariantSpec& variant, Impl impl) {
  const std::string file = verifier_file(puzzle.name);
  std::error_code ec;
  if (file.empty() || !variant.trace.traceable || !std::filesystem::exists(file, ec))
    throw UsageError(puzzle.name + " --" + variant.name +
                     " cannot be traced here: " + race_check(puzzle, variant, impl).reason);
  std::vector<std::string> argv = verifier_args(file, variant, impl);
  argv.push_back("--report");
  replace_process(argv);
}

}  // namespace kpz::cli
