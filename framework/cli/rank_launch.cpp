#include "rank_launch.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <thread>

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
// Between the cases of `kpuzzles run <puzzle> --cases`: no flag or value holds it.
constexpr char kCaseSeparator = ';';

// The case as `kpuzzles run` flags: the options given here, so that each rank sees the same
// options given (a puzzle runs its worked example when the sizes are not given); the others are
// the defaults of the same binary.
std::vector<std::string> case_flags(const RunRequest& req, double time_limit_s) {
  std::vector<std::string> words{"--" + req.variant->name};
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
// launcher's last lines (an MPI that could not start prints pages; its last lines name why).
std::string why_ranks_failed(const std::string& output) {
  const auto line_at = [&](std::size_t at) { return output.substr(at, output.find('\n', at) - at); };
  if (const std::string crash = crash_line(output); !crash.empty()) return crash;
  for (std::size_t at = 0; at < output.size(); at = output.find('\n', at) + 1) {
    if (output.compare(at, 10, "kpuzzles: ") == 0) return line_at(at + 10);
    if (output.find('\n', at) == std::string::npos) break;
  }
  // The launcher's last three lines: a usage error names the option it refused above its
  // "Type ... --help" line.
  std::vector<std::string> last;
  std::istringstream lines(output);
  for (std::string l; std::getline(lines, l);)
    if (l.find_first_not_of(" \t\r") != std::string::npos) {
      last.push_back(l.substr(l.find_first_not_of(" \t\r")));
      if (last.size() > 3) last.erase(last.begin());
    }
  std::string tail;
  for (const std::string& l : last) tail += (tail.empty() ? "" : " | ") + l;
  return "no rank reported (did MPI start? `kpuzzles doctor` runs every puzzle); the launcher's last lines: " +
         (tail.empty() ? std::string("(none)") : tail);
}

// The ranks enforce each case's limit themselves (a hang names the case); the margin covers the
// launcher's start and a rank that never reaches its own watchdog.
double launch_limit(double time_limit_s, std::size_t cases) {
  if (time_limit_s <= 0) return 0;
  return time_limit_s * static_cast<double>(cases) + std::min(30.0, time_limit_s);
}

// The ranks refused the case (exit 2): their one line, without the program's prefix.
std::string refusal_line(const std::string& output) {
  const std::string prefix = "kpuzzles: ";
  const std::size_t at = output.find(prefix);
  std::size_t from = at == std::string::npos ? 0 : at + prefix.size();
  // Ranks writing at once may leave a prefix cut off by another rank's whole line.
  while (output.compare(from, prefix.size(), prefix) == 0) from += prefix.size();
  return output.substr(from, output.find('\n', from) - from);
}

// The ranks crashed, hung or could not start while running `req`.
std::string launch_failure(const PuzzleSpec& spec, const RunRequest& req, const ProcessResult& r) {
  const std::string launch =
      spec.ranks.launcher.front() + " " + spec.ranks.count_flag + " " + std::to_string(req.ranks);
  return "the " + std::to_string(req.ranks) + " ranks of " + spec.name + " --" + req.variant->name + " (" + launch +
         ") ended with " + describe_exit(r) + ": " + why_ranks_failed(r.output) +
         (r.exit_code == kExitTimeLimit
              ? " (on ranks, also a receive or a wait that no rank's send matches, or a collective that "
                "some rank never calls)"
              : "");
}

}  // namespace

bool in_rank_process() {
  // Also a process an MPI launcher started: `mpiexec -n 4 kpuzzles-bench bench distributed` is
  // one bench on 4 ranks, not 4 launches. Open MPI's mpiexec marks every process it starts.
  for (const char* name : {kRankProcess, "OMPI_COMM_WORLD_SIZE"})
    if (const char* v = std::getenv(name); v && *v) return true;
  // Hydra's PMI and srun's variables are also set in a step of one task, such as the shell of
  // `srun --pty bash`, which is no puzzle's rank: there kpuzzles starts the ranks itself.
  for (const char* name : {"PMI_SIZE", "SLURM_STEP_NUM_TASKS"})
    if (const char* v = std::getenv(name); v && std::atoi(v) > 1) return true;
  return false;
}

bool starts_ranks(const PuzzleSpec& spec) {
  return spec.ranks.spans_processes() && !in_rank_process();
}

int launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"})
    if (const char* v = std::getenv(name); v && *v) return std::atoi(v);
  return 0;
}

std::vector<std::string> rank_launch_argv(const RanksSpec& ranks, int count, const std::vector<std::string>& words) {
  std::vector<std::string> argv = ranks.launcher;
  argv.insert(argv.end(), {ranks.count_flag, std::to_string(count)});
  argv.insert(argv.end(), words.begin(), words.end());
  return argv;
}

EnvList rank_environment(const RanksSpec& ranks, int count) {
  EnvList env(ranks.environment.begin(), ranks.environment.end());
  env.emplace_back(kRankProcess, "1");
  env.emplace_back(kStaleNoteGiven, "1");
  // Ranks share the machine's cores: each takes its share of host threads unless the user chose
  // (a rank of a host backend would otherwise start a thread per core, and R ranks' spinning
  // threads would take turns on the cores, milliseconds at a time).
  const auto given = [](const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
  };
  if (!given("OMP_NUM_THREADS") && !given("KOKKOS_NUM_THREADS")) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    env.emplace_back("KOKKOS_NUM_THREADS", std::to_string(std::max(1u, cores / static_cast<unsigned>(count))));
  }
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
  if (!starts_ranks(spec)) return spec.run(req);
  std::vector<std::string> words{learner_paths().self, "run", spec.name};
  for (std::string& w : case_flags(req, time_limit_s)) words.push_back(std::move(w));
  const std::vector<std::string> argv = rank_launch_argv(spec.ranks, req.ranks, words);
  const ProcessResult r = run_process(argv, rank_environment(spec.ranks, req.ranks), launch_limit(time_limit_s, 1));
  Json j;
  if ((r.exit_code == 0 || r.exit_code == 1) && last_json_line(r.output, j) && j.find("pass"))
    return report_from_json(j);
  if (r.exit_code == 2) throw UsageError(refusal_line(r.output));
  throw RanksFailed(launch_failure(spec, req, r));
}

std::vector<std::vector<std::string>> split_cases(const std::string& cases) {
  std::vector<std::vector<std::string>> out;
  std::istringstream items(cases);
  for (std::string item; std::getline(items, item, kCaseSeparator);) {
    std::istringstream words(item);
    std::vector<std::string>& c = out.emplace_back();
    for (std::string w; words >> w;) c.push_back(w);
    if (c.empty()) out.pop_back();
  }
  return out;
}

std::vector<CaseOutcome> run_cases_on_ranks(const PuzzleSpec& spec, const std::vector<RunRequest>& requests,
                                            double time_limit_s) {
  std::vector<CaseOutcome> outcomes(requests.size());
  // A run uses the world it is in: one launch per rank count, its cases in the given order, the
  // launches in the order of their first cases.
  std::map<int, std::vector<std::size_t>> by_count;
  for (std::size_t i = 0; i < requests.size(); ++i) by_count[requests[i].ranks].push_back(i);
  std::vector<const std::vector<std::size_t>*> launches;
  for (const auto& [count, members] : by_count) launches.push_back(&members);
  std::sort(launches.begin(), launches.end(), [](auto* a, auto* b) { return a->front() < b->front(); });
  const auto failed = [](const CaseOutcome& o) { return !o.usage_error.empty() || !o.crash.empty() || !o.report.pass; };
  std::size_t first_failure = requests.size();
  for (const std::vector<std::size_t>* launch : launches) {
    // Cases after a failure are not looked at (a skeleton that hangs would hang in every launch).
    if (launch->front() > first_failure) continue;
    const std::vector<std::size_t>& members = *launch;
    const int count = requests[members.front()].ranks;
    std::string cases;
    for (const std::size_t i : members) {
      for (const std::string& w : case_flags(requests[i], time_limit_s)) cases += w + ' ';
      cases += kCaseSeparator;
    }
    const std::vector<std::string> argv =
        rank_launch_argv(spec.ranks, count, {learner_paths().self, "run", spec.name, "--cases", cases});
    const ProcessResult r =
        run_process(argv, rank_environment(spec.ranks, count), launch_limit(time_limit_s, members.size()));
    std::vector<bool> heard(members.size(), false);
    for (const std::string& line : split_lines(r.output)) {
      if (line.empty() || line[0] != '{') continue;
      Json j;
      try {
        j = Json::parse(line);
      } catch (const JsonError&) {
        continue;
      }
      const std::int64_t k = j["case"].as_int(-1);
      // Every rank refuses a case it cannot run; the first record of a case is the one kept.
      if (k < 0 || k >= static_cast<std::int64_t>(members.size()) || heard[k]) continue;
      heard[k] = true;
      CaseOutcome& o = outcomes[members[k]];
      if (j.find("usage_error"))
        o.usage_error = j["usage_error"].as_string();
      else
        o.report = report_from_json(j);
    }
    // The launch ended before its first unheard case reported: that case is why.
    for (std::size_t k = 0; k < members.size(); ++k) {
      if (heard[k]) continue;
      const RunRequest& req = requests[members[k]];
      if (r.exit_code == 2)
        outcomes[members[k]].usage_error = refusal_line(r.output);
      else
        outcomes[members[k]].crash = launch_failure(spec, req, r);
      break;
    }
    for (const std::size_t i : members)
      if (failed(outcomes[i])) {
        first_failure = std::min(first_failure, i);
        break;
      }
  }
  return outcomes;
}

}  // namespace kpz::cli
