#pragma once
// The kpuzzles command line: flag parsing shared by the commands, and the commands.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kpz::cli {

struct Flag {
  std::string name;  // without dashes
  bool takes_value;
};

struct ParsedFlags {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;  // flags with a value
  std::set<std::string> present;              // every flag given
  bool has(const std::string& name) const { return present.count(name) != 0; }
};

// Accepts --name, --name=value and --name value (for flags that take one). Throws UsageError
// naming the flag and listing the allowed ones, for unknown, repeated or value-less flags; an
// unknown one also gets the closest allowed name, when one is close (closest_name).
ParsedFlags parse_flags(const std::vector<std::string>& tokens, const std::vector<Flag>& allowed,
                        const std::string& context);

// Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`.
std::size_t edit_distance(const std::string& a, const std::string& b);
// The allowed flag nearest to `name` (without dashes) by edit_distance, "" when even that one is
// more than a third of the name away: "simpel" -> "simple", "bogus" -> "".
std::string closest_name(const std::string& name, const std::vector<Flag>& allowed);

// Strict integer parsing with a range: "--size expects an integer in [1, 268435456], got 'x'".
std::int64_t parse_int(const std::string& flag, const std::string& text, std::int64_t min, std::int64_t max);

// Control characters escaped (\n, \x1b, ...): text echoed from the command line or the
// environment cannot break the one-line rule of error messages, nor drive the terminal.
std::string printable(const std::string& text);
// printable(text) in single quotes: "'--si\nze'".
std::string quoted(const std::string& text);

bool stdout_is_terminal();
bool use_color();

int cmd_list(const std::vector<std::string>& args);
int cmd_run(const std::vector<std::string>& args);
int cmd_check(const std::vector<std::string>& args);
int cmd_bench(const std::vector<std::string>& args);
// kpuzzles leaves the benchmarks out (the learner target builds it alone): `bench` runs in
// kpuzzles-bench, the same program with them. Executes that one with the same arguments before
// Kokkos starts here; UsageError when it is not built; returns when this program runs them.
void hand_bench_over(const std::vector<std::string>& bench_args);
int cmd_doctor(const std::vector<std::string>& args);
int cmd_watch(const std::vector<std::string>& args);
int cmd_hint(const std::vector<std::string>& args);
int cmd_reset(const std::vector<std::string>& args);
int cmd_solution(const std::vector<std::string>& args);
int cmd_trace(const std::vector<std::string>& args);

}  // namespace kpz::cli
