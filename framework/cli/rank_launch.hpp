#pragma once
// Cases of a puzzle whose runs span several processes (PuzzleSpec::ranks, MPI): kpuzzles starts
// the ranks with the puzzle's launcher, each a `kpuzzles run` of the same case, and reads the
// first rank's report back. The learner loop (run, check, list, watch) calls run_case and does
// not care whether the case ran here or on ranks.
#include <stdexcept>
#include <string>
#include <vector>

#include "kpz/registry.hpp"
#include "process.hpp"

namespace kpz::cli {

// True in a process kpuzzles started as one of a puzzle's ranks (KPZ_RANK_PROCESS), or that an MPI
// launcher started (its rank variables): it runs its case itself.
bool in_rank_process();

// True where a case of `spec` runs as ranks this process starts: the puzzle spans processes and
// this process is not one of its ranks.
bool starts_ranks(const PuzzleSpec& spec);

// This process's rank as its MPI launcher numbered it (Open MPI, Hydra, srun), 0 where none did:
// for messages that every rank would print the same (the first rank prints them).
int launcher_rank();

// The ranks crashed, hung or could not start: the message names the launch and the first rank's
// crash line (or the launcher's last lines).
struct RanksFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs one case: here, or as req.ranks processes when the puzzle spans ranks and this process is
// not one of them. Throws UsageError with the ranks' own line when they refuse the case (exit 2),
// RanksFailed when they crash or pass `time_limit_s` (0: no limit).
RunReport run_case(const PuzzleSpec& spec, const RunRequest& req, double time_limit_s);

// What one case of run_cases_on_ranks came to: a report, the ranks' refusal (a UsageError's
// line), or why the launch ended before it reported (a crash or hang: RanksFailed's message).
struct CaseOutcome {
  RunReport report;
  std::string usage_error;
  std::string crash;
};

// Runs several cases of a puzzle that spans ranks with one launch per rank count instead of one
// per case (a launch costs about half a second: MPI's start, Kokkos', the modules'): each rank
// runs the cases in order (`kpuzzles run <puzzle> --cases`) and the first rank prints one record
// per case. The outcomes are in the order of `requests`; a case after a crash in its launch has
// none of the three set (it did not run). `time_limit_s` is per case.
std::vector<CaseOutcome> run_cases_on_ranks(const PuzzleSpec& spec, const std::vector<RunRequest>& requests,
                                            double time_limit_s);

// The rank side of run_cases_on_ranks: the cases of `--cases` as run flags, one case per item.
std::vector<std::vector<std::string>> split_cases(const std::string& cases);

// The launcher's command for `count` copies of `words` and the variables they need (with each
// rank's share of the host's threads when the user set none).
std::vector<std::string> rank_launch_argv(const RanksSpec& ranks, int count, const std::vector<std::string>& words);
EnvList rank_environment(const RanksSpec& ranks, int count);

// --ranks N for a puzzle that spans ranks (1 .. its max; its fallback when not given); 1 for any
// other puzzle, which refuses the flag.
int ranks_from(const PuzzleSpec& spec, const std::string* text);

}  // namespace kpz::cli
