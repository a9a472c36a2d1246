// kpuzzles: list, run, check and benchmark the puzzles. Exit codes: 0 pass, 1 wrong answer,
// 2 bad usage or input, 3 an error of the program or the machine (e.g. out of memory).
#include <Kokkos_Core.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "kpz/errors.hpp"

namespace {

struct Command {
  const char* name;
  const char* usage;
  int (*fn)(const std::vector<std::string>&);
};

constexpr Command kCommands[] = {
    {"watch",
     "kpuzzles watch [puzzle] [--variant V] [--manual] [--no-tty] [--json]\n"
     "             rebuild and re-check on every save; keys n next, h hint, l list, r re-run, t tests, q quit",
     kpz::cli::cmd_watch},
    {"list", "kpuzzles list [--json]                       every exercise: solved, pending, not attempted",
     kpz::cli::cmd_list},
    {"hint", "kpuzzles hint <puzzle> [--variant V] [--seen] [--json]   one more tier of hints per call",
     kpz::cli::cmd_hint},
    {"solution", "kpuzzles solution <puzzle> [--force] [--json]   the reference, once every variant passes",
     kpz::cli::cmd_solution},
    {"reset", "kpuzzles reset <puzzle> [--yes] [--json]     put the skeleton back (keeps a backup)",
     kpz::cli::cmd_reset},
    {"run",
     "kpuzzles run <puzzle> [--<variant>] [--reference] [--size N] [--seed S] [--team-size T]\n"
     "             [--space S] [--json] [--trace] [puzzle options]   run and check one case",
     kpz::cli::cmd_run},
    {"check", "kpuzzles check [puzzle] [--variant V] [--reference] [--space S] [--json]   every case of every variant",
     kpz::cli::cmd_check},
    {"bench", "kpuzzles bench <puzzle> [--size N] [--runs R] [--warmup W] [--exercise] [--space S] [--json]",
     kpz::cli::cmd_bench},
    {"doctor", "kpuzzles doctor [--json]                     this build's backends and limits",
     kpz::cli::cmd_doctor},
    {"trace",
     "kpuzzles trace <puzzle> [--<variant>] [--reference] [--team-size T] [--distribution D] [--svg FILE]\n"
     "             [puzzle options]   access diagram, races, budget (trace build: cmake --preset trace)",
     kpz::cli::cmd_trace},
};

void print_usage(std::ostream& os) {
  os << "usage:\n";
  for (const auto& c : kCommands) os << "  " << c.usage << '\n';
  os << "`kpuzzles run <puzzle> --help` lists a puzzle's variants and options.\n";
}

}  // namespace

int main(int argc, char* argv[]) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    print_usage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  const Command* command = nullptr;
  for (const auto& c : kCommands)
    if (args[0] == c.name) command = &c;
  try {
    if (!command)
      throw kpz::UsageError("unknown command '" + args[0] +
                            "'; commands: watch, list, hint, solution, reset, run, check, bench, doctor, trace");
    Kokkos::ScopeGuard kokkos(Kokkos::InitializationSettings().set_disable_warnings(true));
    return command->fn({args.begin() + 1, args.end()});
  } catch (const kpz::UsageError& e) {
    std::cerr << "kpuzzles: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kpuzzles: error: " << e.what() << '\n';
    return 3;
  }
}
