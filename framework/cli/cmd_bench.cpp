#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <Kokkos_Core.hpp>

#include "cli.hpp"
#include "cpu_affinity.hpp"
#include "freshness.hpp"
#include "kpz/bench.hpp"
#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "paths.hpp"
#include "process.hpp"
#include "puzzle_flags.hpp"
#include "rank_launch.hpp"

namespace kpz::cli {

void hand_bench_over(const std::vector<std::string>& bench_args) {
  const LearnerPaths& paths = learner_paths();
  if (paths.bench_binary.empty()) return;
  if (!std::filesystem::exists(paths.bench_binary))
    throw UsageError(
        "bench is not built in this build (the learner target builds kpuzzles "
        "without the benchmarks): build it with `cmake --build " +
        paths.build_dir + " --target kpuzzles-bench` (or build everything), then run this again");
  std::vector<std::string> words{paths.bench_binary, "bench"};
  words.insert(words.end(), bench_args.begin(), bench_args.end());
  replace_process(words);
}

int cmd_bench(const std::vector<std::string>& args) {
  const PuzzleSpec& puzzle = find_puzzle(args, "bench");
  const BenchSpec* spec = BenchRegistry::instance().find(puzzle.name);
  // A puzzle without a bench of its own is timed inside its run when it states its bytes moved
  // (one process: a puzzle on MPI ranks brings its own bench, which knows how they meet).
  const bool from_its_run = !spec && puzzle.bytes_moved && !puzzle.ranks.spans_processes();
  const BenchSpec from_run = from_its_run ? bench_from_run(puzzle) : BenchSpec{};
  if (from_its_run) spec = &from_run;
#if defined(KPZ_NO_BENCHMARKS)
  if (!spec)
    throw UsageError(
        "this kpuzzles was built without benchmarks (-DKPZ_BUILD_BENCHMARKS=OFF): configure with "
        "-DKPZ_BUILD_BENCHMARKS=ON and build again to use 'kpuzzles bench'");
#endif
  if (!spec) throw UsageError("puzzle '" + puzzle.name + "' has no benchmark");
  std::vector<Flag> bench_flags = {
      {"runs", true}, {"warmup", true}, {"exercise", false}, {"json", false}, {"json-file", true}};
  // A command flag, not one of the bench's options (resolve_params below refuses those).
  if (puzzle.ranks.spans_processes()) bench_flags.push_back({"ranks", true});
  std::vector<Flag> allowed;
  for (const auto& o : spec->options) allowed.push_back({o.name, true});
  allowed.insert(allowed.end(), bench_flags.begin(), bench_flags.end());
  for (const Flag& f : common_flags()) allowed.push_back(f);
  const ParsedFlags flags =
      parse_flags({args.begin() + 1, args.end()}, allowed, "'kpuzzles bench " + puzzle.name + "'");
  if (!flags.positional.empty())
    throw UsageError("unexpected argument " + cli::quoted(flags.positional.front()) + " for 'kpuzzles bench'");
  RunRequest common;
  apply_common(common, flags);
  BenchRequest req;
  req.space = common.space;
  req.seed = common.seed;
  req.team_size = common.team_size;
  req.vector_length = common.vector_length;
  const auto ranks_flag = flags.values.find("ranks");
  req.ranks = ranks_from(puzzle, ranks_flag == flags.values.end() ? nullptr : &ranks_flag->second);
  req.impl = flags.has("exercise") ? Impl::exercise : Impl::reference;
  const VariantSpec options{.name = "bench", .options = spec->options};
  req.params = resolve_params(puzzle, options, flags, bench_flags);
  // `bench` takes the sizes `run` takes: the benchmark times the puzzle's
  // default variant on its default options, so a --size that variant refuses is refused here
  // too (butterfly: a multiple of the group size), never rounded. 0 still means the default.
  if (req.params.given("size") && req.params.get("size") != 0) {
    const VariantSpec& timed = puzzle.variants.front();
    Params as_run = default_params(timed);
    if (as_run.values().count("size")) {
      as_run.set("size", req.params.get("size"), true);
      check_multiples(timed, as_run);
    }
  }
  if (const auto it = flags.values.find("runs"); it != flags.values.end())
    req.cfg.runs = static_cast<int>(parse_int("runs", it->second, 1, 10000));
  if (const auto it = flags.values.find("warmup"); it != flags.values.end())
    req.cfg.warmup = static_cast<int>(parse_int("warmup", it->second, 0, 1000));
  // Opened before the run, so that a wrong path costs nothing.
  std::ofstream json_file;
  if (const auto it = flags.values.find("json-file"); it != flags.values.end()) {
    json_file.open(it->second, std::ios::trunc);
    if (!json_file)
      throw UsageError("--json-file: cannot write " + cli::quoted(it->second) + "; give a file in an existing folder");
  }
  if (starts_ranks(puzzle)) {
    // The bench runs as its ranks, started by the puzzle's launcher in this process's place
    // (their output streams as it comes); each gets the same flags.
    std::vector<std::string> words{learner_paths().self, "bench"};
    words.insert(words.end(), args.begin(), args.end());
    for (const auto& [name, value] : rank_environment(puzzle.ranks, req.ranks)) setenv(name.c_str(), value.c_str(), 1);
    replace_process(rank_launch_argv(puzzle.ranks, req.ranks, words));
  }
  if (req.impl == Impl::exercise) announce_stale_binary({puzzle.name});
  BenchReport report;
  try {
    report = spec->run(req);
  } catch (const UsageError&) {
    throw;
  } catch (const std::runtime_error& e) {
    if (req.impl != Impl::exercise) throw;
    // The benchmarks refuse to time a wrong result with the same exception as a failure of the
    // machine: the reference on the same input tells which it was.
    BenchRequest ref = req;
    ref.impl = Impl::reference;
    ref.cfg = BenchConfig{0, 1};
    try {
      spec->run(ref);
    } catch (const std::exception&) {
      throw e;
    }
    // Every rank of a puzzle on ranks knows the verdict (the bench agrees on it): one line.
    if (launcher_rank() > 0) return 1;
    std::cerr << "kpuzzles: wrong answer: " << printable(e.what())
              << " (the reference passes on the same input; `kpuzzles check " << puzzle.name
              << "` shows where yours goes wrong)\n";
    return 1;
  }
  if (report.follower) return 0;
  report.cache_bytes = last_level_cache_bytes(report.space);
  // A host run whose threads outnumber its CPUs times the crowding, not the kernel; said in the
  // table and in the JSON, so that such a number is never committed unnoticed.
  if (report.space == "openmp" || report.space == "threads") {
    const int threads = Kokkos::DefaultHostExecutionSpace().concurrency();
    const int cpus = startup_cpu_mask().count();
    if (cpus > 0 && threads > cpus)
      report.notes.push_back("warning: " + std::to_string(threads) + " host threads share " + std::to_string(cpus) +
                             " CPU" + (cpus == 1 ? "" : "s") +
                             " (this process's affinity mask): these times measure the crowding; give the "
                             "threads a CPU each (OMP_NUM_THREADS, taskset)");
  }
  if (json_file.is_open()) json_file << bench_json(report).dump() << '\n';
  if (flags.has("json"))
    std::cout << bench_json(report).dump() << '\n';
  else
    print_bench(std::cout, report);
  return 0;
}

}  // namespace kpz::cli
