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
    {"list", "kpuzzles list [--json]                       puzzles, variants, learner status",
     kpz::cli::cmd_list},
    {"run",
     "kpuzzles run <puzzle> [--<variant>] [--reference] [--size N] [--seed S] [--team-size T]\n"
     "             [--space S] [--json] [--trace] [puzzle options]   run and check one case",
     kpz::cli::cmd_run},
    {"check", "kpuzzles check [puzzle] [--reference] [--space S]   run every variant, exit 1 if any fails",
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
      throw kpz::UsageError("unknown command '" + args[0] + "'; commands: list, run, check, bench, doctor, trace");
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
