#pragma once
// What basics' runners share: the runners, in files by group of steps (run_flat.cpp,
// run_dualview.cpp, run_reductions.cpp, run_teams.cpp, run_lanes.cpp, run_levels.cpp,
// run_tools.cpp): each validates on the host, makes the inputs, poisons the outputs, launches the
// exercise or the reference kernel and checks the result against its oracle. spec.cpp registers
// them.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "kpz/launch_shape.hpp"
#include "kpz/registry.hpp"

namespace kpz::basics {

// The variants, one per step in course order (VariantSpec::id): spec.cpp's runners are a table
// in this order (kpz/lookup.hpp), budgets switch on the id.
enum class Variant {
  views,
  dualview,
  axpy,
  mdrange,
  subviews,
  reduce,
  custom_reducer,
  scan,
  histogram,
  team,
  scratch,
  vector,
  collectives,
  scratch_levels,
  tools
};

inline constexpr std::int64_t kMaxSize = std::int64_t{1} << 26;      // 256 MiB per array of floats
inline constexpr std::int64_t kMaxScanSize = std::int64_t{1} << 24;  // the int total stays < 2^27
inline constexpr std::int64_t kMaxCells = std::int64_t{1} << 26;     // a matrix's elements: a team's indices fit an int

// A worked example (the docs' fixed inputs) unless one of these options was given.
bool worked_example(const RunRequest& req, std::initializer_list<const char*> options);

// Each step's runner, on the execution space req.space names: spec.cpp picks one by the id (and
// refuses a team shape for the flat steps first).
using Runner = RunReport (*)(const RunRequest&);
extern const Runner run_views, run_axpy, run_mdrange, run_subviews;    // run_flat.cpp
extern const Runner run_dualview;                                      // run_dualview.cpp
extern const Runner run_reduce, run_moments, run_scan, run_histogram;  // run_reductions.cpp
extern const Runner run_teams, run_collectives;                        // run_teams.cpp: team and scratch, collectives
extern const Runner run_vector;                                        // run_lanes.cpp
extern const Runner run_levels;                                        // run_levels.cpp
extern const Runner run_tools;                                         // run_tools.cpp

// What the team steps' kernels ask of a launch (their variants' needs; the registry resolves them).
KernelNeeds team_needs();    // run_teams.cpp: --team, --scratch, --collectives
KernelNeeds lane_needs();    // run_lanes.cpp: --vector
KernelNeeds levels_needs();  // run_levels.cpp: --scratch-levels, shared with the benchmark

// --scratch-levels (run_levels.cpp), shared with the benchmark: its trace budget, and n values
// below `bins` of which a share hot_share falls in kHotBins hot bins (the lowest ones when
// hot_first, else spread over the range), the rest uniform.
inline constexpr int kHotBins = 8;
std::vector<BudgetLimit> levels_budget(const Params& p);
std::vector<int> hot_values(std::uint64_t seed, std::size_t n, int bins, double hot_share, bool hot_first);

// --views', --dualview's and --tools' runs on a kernel table the caller gives (basics.hpp's
// Kernels): the tests plant one mistake in a copy of the reference's table and read the verdict.
template <class Space>
struct Kernels;
template <class Space>
RunReport views_with(const Space& space, const RunRequest& req, const Kernels<Space>& k);
template <class Space>
RunReport dualview_with(const Space& space, const RunRequest& req, const Kernels<Space>& k);
template <class Space>
RunReport tools_with(const Space& space, const RunRequest& req, const Kernels<Space>& k);

}  // namespace kpz::basics
