// kpuzzles: list, run, check and benchmark the puzzles. Exit codes: 0 pass, 1 wrong answer,
// 2 bad usage or input, 3 an error of the program or the machine (e.g. out of memory, output
// that cannot be written), 124 a run stopped by its time limit (--time-limit).
#include <fcntl.h>
#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "crash_report.hpp"
#include "freshness.hpp"
#include "kpz/errors.hpp"
#include "puzzle_modules.hpp"

#ifndef KPZ_VERSION
#define KPZ_VERSION "unknown"
#endif

namespace kpz::cli {
namespace {

// A command and what the dispatcher does for it besides calling it.
struct Command {
  const char* name;
  const char* usage;
  int (*fn)(const std::vector<std::string>&);
  const char* help_note = nullptr;   // printed under the usage by `--help`
  bool answers_puzzle_help = false;  // `<command> <puzzle> --help` is the command's own (a puzzle's options)
  void (*hand_over)(const std::vector<std::string>&) = nullptr;  // before Kokkos: may exec another program
  bool loads_puzzles = true;  // false: the program it hands over to has its own puzzles
  bool starts_kokkos = true;  // false: it runs before (and without) Kokkos and the puzzles
};

int cmd_version(const std::vector<std::string>& args) {
  const ParsedFlags flags = parse_flags(args, {}, "'kpuzzles version'");
  if (!flags.positional.empty()) throw UsageError("'kpuzzles version' takes no arguments");
  std::cout << "kpuzzles " << KPZ_VERSION << " (Kokkos Puzzles), Kokkos " << KOKKOS_VERSION_MAJOR << '.'
            << KOKKOS_VERSION_MINOR << '.' << KOKKOS_VERSION_PATCH << '\n';
  return 0;
}

constexpr Command kCommands[] = {
    {.name = "watch",
     .usage = "kpuzzles watch [puzzle] [--variant V] [--manual] [--no-tty] [--json]\n"
              "             rebuild and re-check on every save; keys n next, h hint, l list, r re-run, t tests, q quit",
     .fn = cmd_watch,
     // A copy of kpuzzles hands `watch` to the build tree's program, which loads (and builds) the
     // build tree's modules.
     .hand_over = run_watch_from_build_tree},
    {.name = "list",
     .usage = "kpuzzles list [--json]                       every exercise: solved, pending, not attempted",
     .fn = cmd_list},
    {.name = "hint",
     .usage = "kpuzzles hint [puzzle] [--variant V] [--seen] [--json]   one more tier of hints per call\n"
              "             (no puzzle: the exercise you are on)",
     .fn = cmd_hint},
    {.name = "solution",
     .usage = "kpuzzles solution <puzzle> [--force] [--json]   the reference, once every variant passes",
     .fn = cmd_solution},
    {.name = "reset",
     .usage = "kpuzzles reset <puzzle> [--yes] [--json]     put the skeleton back (keeps a backup)",
     .fn = cmd_reset},
    {.name = "run",
     .usage = "kpuzzles run <puzzle> [--<variant>] [--reference] [--size N] [--seed S] [--team-size T]\n"
              "             [--space S] [--json] [--full-arrays] [--steps] [--time-limit S] [--no-race-check]\n"
              "             [puzzle options]   the race check, then run and check one case",
     .fn = cmd_run,
     .help_note = "`kpuzzles run <puzzle> --help` lists the puzzle's variants and options.",
     .answers_puzzle_help = true},
    {.name = "check",
     .usage = "kpuzzles check [puzzle] [--variant V] [--reference] [--space S] [--json] [--time-limit S] "
              "[--no-race-check]\n"
              "             the race check, then every case of every variant (--time-limit: seconds per exercise,\n"
              "             default 60, 0 none)",
     .fn = cmd_check},
    {.name = "bench",
     .usage = "kpuzzles bench <puzzle> [--size N] [--runs R] [--warmup W] [--exercise] [--space S] [--json]",
     .fn = cmd_bench,
     // Without benchmarks of its own, kpuzzles runs kpuzzles-bench, which links every puzzle in.
     .hand_over = hand_bench_over,
     .loads_puzzles = false},
    {.name = "doctor",
     .usage = "kpuzzles doctor [--json]                     backends, limits, ready or what is missing",
     .fn = cmd_doctor},
    {.name = "trace",
     .usage = "kpuzzles trace <puzzle> [--<variant>] [--reference] [--team-size T] [--distribution D] [--svg FILE]\n"
              "             [puzzle options]   access diagram, races, budget (a host build: the race check's own\n"
              "             configuration; any other: the trace build, cmake --preset trace)",
     .fn = cmd_trace},
    {.name = "version",
     .usage = "kpuzzles version                              this program's and Kokkos' versions (also --version)",
     .fn = cmd_version,
     .loads_puzzles = false,
     .starts_kokkos = false},
};

void print_usage(std::ostream& os) {
  os << "usage:\n";
  for (const auto& c : kCommands) os << "  " << c.usage << '\n';
  os << "`kpuzzles <command> --help` shows one command; `kpuzzles run <puzzle> --help` lists a puzzle's "
        "variants and options.\n";
  os << "exit codes: 0 pass, 1 wrong answer, 2 bad usage, 3 error of the program or the machine, 124 time "
        "limit reached.\n";
}

const Command* find_command(const std::string& name) {
  for (const auto& c : kCommands)
    if (name == c.name) return &c;
  return nullptr;
}

void print_command_usage(const Command& c) {
  std::cout << "usage: " << c.usage << '\n';
  if (c.help_note) std::cout << c.help_note << '\n';
}

// Kokkos' OpenMP backend keeps its threads' data in a fixed table of 512 (MAX_THREAD_COUNT in
// Kokkos_OpenMP_Instance.hpp): more threads hang or crash inside Kokkos::initialize, and a
// huge count runs libgomp out of memory. So the settings are checked before Kokkos starts.
// The Threads backend reads only KOKKOS_NUM_THREADS and is checked the same way (1 to 512).
void check_thread_settings() {
#if defined(KOKKOS_ENABLE_OPENMP) || defined(KOKKOS_ENABLE_THREADS)
  constexpr int kMax = 512;
#if defined(KOKKOS_ENABLE_OPENMP)
  const char* backend = "Kokkos' OpenMP backend holds at most ";
  for (const char* name : {"OMP_NUM_THREADS", "KOKKOS_NUM_THREADS"}) {
#else
  const char* backend = "this program's limit for Kokkos' Threads backend is ";
  for (const char* name : {"KOKKOS_NUM_THREADS"}) {
#endif
    const char* raw = std::getenv(name);
    if (!raw) continue;
    std::string text = raw;
    const auto first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t");
    if (first == std::string::npos) continue;  // empty: the runtime ignores it too
    text = text.substr(first, last - first + 1);
    // OMP_NUM_THREADS may give one count per nesting level ("8,2"); Kokkos uses the first.
    const bool list_allowed = std::string(name) == "OMP_NUM_THREADS";
    bool ok = true;
    std::size_t at = 0;
    while (ok) {
      const auto comma = list_allowed ? text.find(',', at) : std::string::npos;
      std::string part = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      const auto b = part.find_first_not_of(" \t"), e = part.find_last_not_of(" \t");
      part = b == std::string::npos ? "" : part.substr(b, e - b + 1);
      ok = !part.empty() && part.size() <= 3 && part.find_first_not_of("0123456789") == std::string::npos &&
           std::stoi(part) >= 1 && std::stoi(part) <= kMax;
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    if (!ok)
      throw UsageError(std::string(name) + "=" + cli::quoted(raw) +
                       " is not allowed: give a whole number of threads from 1 to " + std::to_string(kMax) + " (" +
                       backend + std::to_string(kMax) + "), or unset it");
  }
#endif
}

// Kokkos' Threads backend starts one thread unless told otherwise (without hwloc it cannot count
// the cores): like OpenMP, kpuzzles takes one per core unless KOKKOS_NUM_THREADS says otherwise.
Kokkos::InitializationSettings kokkos_settings() {
  auto settings = Kokkos::InitializationSettings().set_disable_warnings(true);
#if defined(KOKKOS_ENABLE_THREADS)
  const char* raw = std::getenv("KOKKOS_NUM_THREADS");
  if (!raw || std::string(raw).find_first_not_of(" \t") == std::string::npos)
    settings.set_num_threads(static_cast<int>(std::max(1u, std::min(512u, std::thread::hardware_concurrency()))));
#endif
  return settings;
}

std::string memory_of_machine() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return "memory unknown";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(pages) * static_cast<double>(page) / (1 << 30));
  return buf;
}

int run_command(std::vector<std::string> args) {
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    if (args.size() > 1 && args[0] == "help")
      if (const Command* c = find_command(args[1])) {
        print_command_usage(*c);
        return 0;
      }
    print_usage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") args[0] = "version";
  const Command* command = find_command(args[0]);
  try {
    if (!command) {
      std::vector<std::string> names;
      for (const auto& c : kCommands) names.push_back(c.name);
      throw UsageError("unknown command " + cli::quoted(args[0]) + "; commands: " + join(names, ", "));
    }
    bool help = false;
    for (std::size_t i = 1; i < args.size(); ++i) help = help || args[i] == "--help" || args[i] == "-h";
    if (help) {
      // `run <puzzle> --help` lists the puzzle's variants and options: the command answers it.
      const bool puzzle_help = command->answers_puzzle_help && args.size() > 1 && args[1].rfind("-", 0) != 0;
      if (!puzzle_help) {
        print_command_usage(*command);
        return 0;
      }
      for (auto& a : args)
        if (a == "-h") a = "--help";
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (!command->starts_kokkos) return command->fn(rest);
    if (command->hand_over) command->hand_over(rest);  // the program handed to checks its own settings
    check_thread_settings();
    if (command->loads_puzzles) load_puzzle_modules(puzzles_needed(args[0], rest));
    Kokkos::ScopeGuard kokkos(kokkos_settings());
    return command->fn({args.begin() + 1, args.end()});
  } catch (const UsageError& e) {
    // One write per line: the ranks of a puzzle on ranks all refuse at once into one stream.
    std::cerr << "kpuzzles: " + printable(e.what()) + '\n';
    return 2;
  } catch (const std::exception& e) {
    std::string what = e.what();
    // std::bad_alloc, or Kokkos' "... failed to allocate ...": say what to do about it.
    if (dynamic_cast<const std::bad_alloc*>(&e) || what.find("failed to allocate") != std::string::npos)
      what += "; out of memory: this run needs more than this machine can give (" + memory_of_machine() +
              " in all), try a smaller --size";
    std::cerr << "kpuzzles: error: " + printable(what) + '\n';
    return 3;
  }
}

}  // namespace
}  // namespace kpz::cli

int main(int argc, char* argv[]) {
  kpz::cli::install_crash_report();
  kpz::cli::use_every_core_for_builds();
  // A closed stdout would let the next file opened take descriptor 1 (and receive the output).
  if (fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF) {
    std::cerr << "kpuzzles: error: standard output is closed, so nothing can be printed; run it with an open "
                 "stdout (e.g. > file)\n";
    return 3;
  }
  const int code = kpz::cli::run_command(std::vector<std::string>(argv + 1, argv + argc));
  // A full disk or a closed pipe shows only when the buffered output is flushed.
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int err = errno;
  if (!flushed || std::ferror(stdout) || !std::cout) {
    std::cerr << "kpuzzles: error: cannot write the output" << (err ? std::string(" (") + std::strerror(err) + ")" : "")
              << '\n';
    return 3;
  }
  return code;
}
