#pragma once
// Resolving a puzzle's variant and options from parsed flags (shared by run and list).
#include <string>
#include <vector>

#include "cli.hpp"
#include "kpz/params.hpp"
#include "kpz/registry.hpp"

namespace kpz::cli {

const PuzzleSpec& find_puzzle(const std::vector<std::string>& args, const std::string& command);

// Every variant flag and every option any variant declares.
std::vector<Flag> puzzle_flags(const PuzzleSpec& spec);

// The flags of `kpuzzles <command> <puzzle> ...` (args: from the puzzle's name on): the puzzle's
// variants and options, then `own`. A further word is refused: variants are flags.
ParsedFlags parse_puzzle_flags(const std::vector<std::string>& args, const PuzzleSpec& spec, const std::string& command,
                               const std::vector<Flag>& own);

// The variant named by exactly one --<variant> flag, else the default (first) one.
const VariantSpec& chosen_variant(const PuzzleSpec& spec, const ParsedFlags& flags);

// The variant's options from the flags' text (checked against each option's range), resolved by
// kpz::resolve_params (kpz/params.hpp: defaults, options the variant does not take, the rules
// between options). The common flags (--space, --seed, --team-size, ...) and the command's own
// (`command_flags`: run's --time-limit, bench's --runs, ...) are not options.
Params resolve_params(const PuzzleSpec& spec, const VariantSpec& variant, const ParsedFlags& flags,
                      const std::vector<Flag>& command_flags);

// Common flags: --space (checked against this build), --seed, --team-size, --vector-length.
void apply_common(RunRequest& req, const ParsedFlags& flags);
// The flags apply_common reads, for the commands that take them.
std::vector<Flag> common_flags();

void print_puzzle_help(const PuzzleSpec& spec);

}  // namespace kpz::cli
