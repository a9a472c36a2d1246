#include "kpz/params.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "kpz/errors.hpp"

namespace kpz {

Params default_params(const VariantSpec& variant) {
  Params p;
  for (const auto& o : variant.options) p.set(o.name, o.fallback, false);
  return p;
}

void check_multiples(const VariantSpec& variant, const Params& params) {
  for (const auto& o : variant.options) {
    if (o.multiple_of.empty() || !params.given(o.name)) continue;
    const std::int64_t value = params.get(o.name), of = params.get(o.multiple_of);
    if (of > 0 && value % of != 0)
      throw UsageError("--" + o.name + " " + std::to_string(value) + " must be a multiple of --" + o.multiple_of + " " +
                       std::to_string(of));
  }
}

Params resolve_params(const PuzzleSpec& spec, const VariantSpec& variant, const OptionValues& given) {
  for (const auto& entry : given) {
    // Not a structured binding: clang before 16 cannot capture one in the lambda below.
    const std::string& name = entry.first;
    const bool declared = std::any_of(variant.options.begin(), variant.options.end(),
                                      [&](const OptionSpec& o) { return o.name == name; });
    if (!declared) {
      std::vector<std::string> names;
      for (const auto& o : variant.options) names.push_back("--" + o.name);
      throw UsageError("--" + name + " does not apply to " + spec.name + " --" + variant.name +
                       "; its options: " + (names.empty() ? "none" : join(names, ", ")));
    }
  }
  Params p;
  for (const auto& o : variant.options) {
    const auto it = given.find(o.name);
    if (it == given.end()) {
      p.set(o.name, o.fallback, false);
      continue;
    }
    if (it->second < o.min || it->second > o.max)
      throw UsageError("--" + o.name + " must be in [" + std::to_string(o.min) + ", " + std::to_string(o.max) +
                       "], got " + std::to_string(it->second));
    p.set(o.name, it->second, true);
  }
  check_multiples(variant, p);
  return p;
}

std::string check_flags(const CheckCase& check) {
  std::string flags;
  const auto add = [&flags](const std::string& name, std::int64_t value) {
    flags += (flags.empty() ? "--" : " --") + name + " " + std::to_string(value);
  };
  for (const auto& option : check.options) add(option.first, option.second);
  if (check.team_size > 0) add("team-size", check.team_size);
  if (check.vector_length > 0) add("vector-length", check.vector_length);
  if (check.rank_count > 0) add("ranks", check.rank_count);
  return flags;
}

RunRequest check_request(const PuzzleSpec& puzzle, const VariantSpec& variant, const CheckCase* check, Impl impl,
                         const std::string& space) {
  RunRequest request;
  try {
    OptionValues given;
    if (check)
      for (const auto& option : check->options)
        if (!given.emplace(option.first, option.second).second) throw UsageError("--" + option.first + " given twice");
    request.params = resolve_params(puzzle, variant, given);
  } catch (const UsageError& e) {
    throw std::logic_error("puzzle " + puzzle.name + ": bad check '--" + variant.name +
                           (check ? " " + check_flags(*check) : "") + "': " + e.what());
  }
  request.variant = &variant;
  request.impl = impl;
  request.space = space;
  if (check) {
    request.team_size = check->team_size;
    request.vector_length = check->vector_length;
  }
  request.ranks = check && check->rank_count > 0 ? check->rank_count : puzzle.ranks.fallback;
  return request;
}

}  // namespace kpz
