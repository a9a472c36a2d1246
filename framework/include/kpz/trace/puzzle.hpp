#pragma once
// Tracing a registered puzzle variant (what `kpuzzles trace` and the trace tests call).
// Compiled only with KPZ_TRACE.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kpz/registry.hpp"
#include "kpz/trace/analysis.hpp"
#include "kpz/trace/runtime.hpp"

namespace kpz::trace {

struct TraceOptions {
  Impl impl = Impl::exercise;
  std::map<std::string, std::int64_t> options;  // on top of the variant's trace configuration
  int team_size = 0;                            // 0: the variant's trace team size
  std::uint64_t seed = 2026;
  std::vector<Distribution> distributions{Distribution::cyclic, Distribution::blockwise};
};

// One run under one TeamThreadRange distribution.
struct DistributionRun {
  Distribution distribution;
  RunReport report;
  Recording recording;
  Analysis analysis;
  std::string kernel_error;  // the kernel misused the team API (a KernelError); the run stopped
};

struct BudgetRow {
  Metric metric;
  double measured;            // the largest over the runs
  std::optional<double> max;  // the puzzle's limit, if it declares one
  std::string why;
  bool ok() const { return !max || measured <= *max + 1e-9; }
};

struct VariantTrace {
  std::string puzzle, variant;
  Impl impl = Impl::exercise;
  bool flat = false;  // flat kernels only (trace team size 0): one run, no team size
  RunRequest request;
  std::string not_traceable;  // non-empty: nothing was traced, and this says why
  std::vector<DistributionRun> runs;
  std::vector<BudgetRow> budget;

  std::size_t races() const;
  std::size_t uninitialized() const;
  bool kernel_ok() const;
  bool within_budget() const;
  bool correct() const;
  // Race-free, no uninitialised scratch reads, no misuse of the team API, within budget, correct.
  bool clean() const {
    return not_traceable.empty() && races() == 0 && uninitialized() == 0 && kernel_ok() && within_budget() && correct();
  }
};

// Runs the variant once per distribution under a Session. Throws UsageError for bad options or
// a configuration too large to trace.
VariantTrace trace_variant(const PuzzleSpec& spec, const VariantSpec& variant, const TraceOptions& options);

// What `kpuzzles trace` prints: configuration, diagrams (of the first run), problems, budget,
// verdict.
std::string render_report(const VariantTrace& t, const DiagramOptions& o);
std::string render_budget(const VariantTrace& t);
// What a run is called in reports: "TeamThreadRange cyclic", or "flat kernels".
std::string run_tag(const VariantTrace& t, const DistributionRun& r);
std::string render_svg(const VariantTrace& t, const DiagramOptions& o);

}  // namespace kpz::trace
