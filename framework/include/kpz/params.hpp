#pragma once
// A variant's options from integers given by name: what `kpuzzles run`, `bench` and `trace` share
// once the CLI has read the text of its flags (framework/cli/puzzle_flags.cpp).
#include <cstdint>
#include <map>
#include <string>

#include "kpz/registry.hpp"

namespace kpz {

// Option values by name, without the leading dashes: {"size", 1024}.
using OptionValues = std::map<std::string, std::int64_t>;

// Every option of the variant at its fallback, none given.
Params default_params(const VariantSpec& variant);

// The rules between options (OptionSpec::multiple_of) for the options given: UsageError
// "--size 33 must be a multiple of --group-size 32".
void check_multiples(const VariantSpec& variant, const Params& params);

// The variant's options: the `given` values, marked given, over the fallbacks. Throws UsageError
// for a name the variant does not declare ("--lanes does not apply to reduce --persistent; its
// options: --size, ..."), a value outside an option's range, and a broken rule between options.
Params resolve_params(const PuzzleSpec& spec, const VariantSpec& variant, const OptionValues& given);

// The flags that repeat a check with `kpuzzles run`: "--size 4099 --kernel-size 5 --team-size 1".
std::string check_flags(const CheckCase& check);

// The run of one case of an exercise: the variant's defaults (`check` null) or one of its checks,
// on `space`, as `kpuzzles check` and the puzzles' generated tests run it. A check the variant
// cannot take (an option it lacks, a value out of range, an option given twice) is the puzzle's
// bug: std::logic_error naming the puzzle, never a UsageError that would blame the learner.
RunRequest check_request(const PuzzleSpec& puzzle, const VariantSpec& variant, const CheckCase* check, Impl impl,
                         const std::string& space);

}  // namespace kpz
