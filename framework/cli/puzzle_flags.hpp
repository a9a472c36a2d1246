#pragma once
// Resolving a puzzle's variant and options from parsed flags (shared by run and list).
#include <string>
#include <vector>

#include "cli.hpp"
#include "kpz/registry.hpp"

namespace kpz::cli {

const PuzzleSpec& find_puzzle(const std::vector<std::string>& args, const std::string& command);

// Every variant flag and every option any variant declares.
std::vector<Flag> puzzle_flags(const PuzzleSpec& spec);

// The variant named by exactly one --<variant> flag, else the default (first) one.
const VariantSpec& chosen_variant(const PuzzleSpec& spec, const ParsedFlags& flags);

// Fills the variant's options from flags; rejects options the variant does not take.
Params resolve_params(const PuzzleSpec& spec, const VariantSpec& variant, const ParsedFlags& flags);
Params default_params(const VariantSpec& variant);

// The rules between options (OptionSpec::multiple_of) for the options the user gave: UsageError
// "--size 33 must be a multiple of --group-size 32". resolve_params applies them; `bench` too.
void check_multiples(const VariantSpec& variant, const Params& params);

// Common flags: --space (checked against this build), --seed, --team-size.
void apply_common(RunRequest& req, const ParsedFlags& flags);

void print_puzzle_help(const PuzzleSpec& spec);

}  // namespace kpz::cli
