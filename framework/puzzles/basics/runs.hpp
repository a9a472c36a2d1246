#pragma once
// basics' runners, one per group of steps (run_flat.cpp, run_reductions.cpp, run_teams.cpp): each
// validates on the host, makes the inputs, poisons the outputs, launches the exercise or the
// reference kernel and checks the result against its oracle. spec.cpp registers them.
#include <cstdint>
#include <initializer_list>
#include <string>

#include "kpz/registry.hpp"

namespace kpz::basics {

// The variants, one per step, named once: runners and budgets switch on the id.
enum class Variant { views, axpy, mdrange, reduce, scan, histogram, team, scratch };

Variant variant_of(const std::string& name);

inline constexpr std::int64_t kMaxSize = std::int64_t{1} << 26;      // 256 MiB per array of floats
inline constexpr std::int64_t kMaxScanSize = std::int64_t{1} << 24;  // the int total stays < 2^27

// A worked example (the docs' fixed inputs) unless one of these options was given.
bool worked_example(const RunRequest& req, std::initializer_list<const char*> options);

// Flat variants launch no team: --team-size and --vector-length are refused for them (exit 2).
void refuse_team_shape(const RunRequest& req);

RunReport run_flat(Variant variant, const RunRequest& req);        // views, axpy, mdrange
RunReport run_reductions(Variant variant, const RunRequest& req);  // reduce, scan, histogram
RunReport run_teams(Variant variant, const RunRequest& req);       // team, scratch

}  // namespace kpz::basics
