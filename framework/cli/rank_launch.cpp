#include "rank_launch.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "cli.hpp"
#include "crash_report.hpp"
#include "freshness.hpp"
#include "kpz/errors.hpp"
#include "kpz/report.hpp"
#include "paths.hpp"
#include "text.hpp"
#include "time_limit.hpp"

namespace kpz::cli {
namespace {

// Set on the launched ranks (they inherit it through the launcher): run the case here.
constexpr const char* kRankProcess = "KPZ_RANK_PROCESS";

// The case as `kpuzzles run` flags: the options given here, so that each rank sees the same
// options given (a puzzle runs its worked example when the sizes are not given); the others are
// the defaults of the same binary.
std::vector<std::string> rank_words(const PuzzleSpec& spec, const RunRequest& req, double time_limit_s) {
  std::vector<std::string> words{learner_paths().self, "run", spec.name, "--" + req.variant->name};
  for (const auto& [name, value] : req.params.values())
    if (req.params.given(name)) words.insert(words.end(), {"--" + name, std::to_string(value)});
  if (req.team_size > 0) words.insert(words.end(), {"--team-size", std::to_string(req.team_size)});
  if (req.vector_length > 0) words.insert(words.end(), {"--vector-length", std::to_string(req.vector_length)});
  // The world the launcher makes is req.ranks big; a rank's run uses the world it is in.
  words.insert(words.end(),
               {"--ranks", std::to_string(req.ranks), "--seed", std::to_string(req.seed), "--space", req.space});
  if (req.impl == Impl::reference) words.push_back("--reference");
  if (req.keep_arrays) words.push_back("--full-arrays");
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", time_limit_s);
  // The race check ran in this process already, where it can (it traces one process).
  words.insert(words.end(), {"--json", "--no-race-check", "--time-limit", limit});
  return words;
}

// One line on why the ranks failed: a rank's crash line, else a rank's own error line, else the
// launcher's last line (an MPI that could not start prints pages; its last line names the launch).
std::string why_ranks_failed(const std::string& output) {
  const auto line_at = [&](std::size_t at) { return output.substr(at, output.find('\n', at) - at); };
  if (const std::string crash = crash_line(output); !crash.empty()) return crash;
  for (std::size_t at = 0; at < output.size(); at = output.find('\n', at) + 1) {
    if (output.compare(at, 10, "kpuzzles: ") == 0) return line_at(at + 10);
    if (output.find('\n', at) == std::string::npos) break;
  }
  std::string last;
  std::istringstream lines(output);
  for (std::string l; std::getline(lines, l);)
    if (l.find_first_not_of(" \t\r") != std::string::npos) last = l.substr(l.find_first_not_of(" \t\r"));
  return "no rank reported (did MPI start? `kpuzzles doctor` runs every puzzle); the launcher's last line: " +
         (last.empty() ? std::string("(none)") : last);
}

}  // namespace

bool in_rank_process() {
  // Also a process an MPI launcher started (Open MPI's mpiexec, MPICH's Hydra, srun with PMI or
  // PMIx): `mpiexec -n 4 kpuzzles-bench bench distributed` is one bench on 4 ranks, not 4 launches.
  for (const char* name : {kRankProcess, "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (const char* v = std::getenv(name); v && *v) return true;
  return false;
}

std::vector<std::string> rank_launch_argv(const RanksSpec& ranks, int count, const std::vector<std::string>& words) {
  std::vector<std::string> argv = ranks.launcher;
  argv.insert(argv.end(), {ranks.count_flag, std::to_string(count)});
  argv.insert(argv.end(), words.begin(), words.end());
  return argv;
}

EnvList rank_environment(const RanksSpec& ranks) {
  EnvList env(ranks.environment.begin(), ranks.environment.end());
  env.emplace_back(kRankProcess, "1");
  env.emplace_back(kStaleNoteGiven, "1");
  return env;
}

int ranks_from(const PuzzleSpec& spec, const std::string* text) {
  if (!spec.ranks.spans_processes()) {
    if (text)
      throw UsageError("--ranks is for puzzles that run on several MPI ranks; " + spec.name + " runs in one process");
    return 1;
  }
  return text ? static_cast<int>(parse_int("ranks", *text, 1, spec.ranks.max)) : spec.ranks.fallback;
}

RunReport run_case(const PuzzleSpec& spec, const RunRequest& req, double time_limit_s) {
  if (!spec.ranks.spans_processes() || in_rank_process()) return spec.run(req);
  const std::vector<std::string> argv = rank_launch_argv(spec.ranks, req.ranks, rank_words(spec, req, time_limit_s));
  // The ranks enforce the limit themselves (a hang names the case); the margin covers the
  // launcher's start and a rank that never reaches its own watchdog.
  const double margin = std::min(30.0, time_limit_s);
  const ProcessResult r = run_process(argv, rank_environment(spec.ranks), time_limit_s > 0 ? time_limit_s + margin : 0);
  const std::string launch =
      spec.ranks.launcher.front() + " " + spec.ranks.count_flag + " " + std::to_string(req.ranks);
  Json j;
  if ((r.exit_code == 0 || r.exit_code == 1) && last_json_line(r.output, j) && j.find("pass"))
    return report_from_json(j);
  if (r.exit_code == 2) {  // the ranks refused the case: their one line, without the program's prefix
    const std::string prefix = "kpuzzles: ";
    const std::size_t at = r.output.find(prefix);
    const std::size_t from = at == std::string::npos ? 0 : at + prefix.size();
    throw UsageError(r.output.substr(from, r.output.find('\n', from) - from));
  }
  throw RanksFailed("the " + std::to_string(req.ranks) + " ranks of " + spec.name + " --" + req.variant->name + " (" +
                    launch + ") ended with " + describe_exit(r) + ": " + why_ranks_failed(r.output) +
                    (r.exit_code == kExitTimeLimit
                         ? " (on ranks, also a receive or a wait that no rank's send matches, or a collective that "
                           "some rank never calls)"
                         : ""));
}

}  // namespace kpz::cli
