#include "kpz/trace/puzzle.hpp"

#include <cmath>
#include <cstdio>
#include <set>

#include "kpz/check.hpp"
#include "kpz/errors.hpp"
#include "kpz/params.hpp"

namespace kpz::trace {

std::size_t VariantTrace::races() const {
  std::size_t n = 0;
  for (const auto& r : runs) n += r.analysis.races.size();
  return n;
}
std::size_t VariantTrace::uninitialized() const {
  std::size_t n = 0;
  for (const auto& r : runs) n += r.analysis.uninitialized.size();
  return n;
}
bool VariantTrace::kernel_ok() const {
  for (const auto& r : runs)
    if (!r.kernel_error.empty()) return false;
  return true;
}
bool VariantTrace::within_budget() const {
  for (const auto& b : budget)
    if (!b.ok()) return false;
  return true;
}
bool VariantTrace::correct() const {
  for (const auto& r : runs)
    if (!r.report.pass) return false;
  return !runs.empty();
}

VariantTrace trace_variant(const PuzzleSpec& spec, const VariantSpec& variant, const TraceOptions& o) {
  VariantTrace t;
  t.puzzle = spec.name;
  t.variant = variant.name;
  t.impl = o.impl;
  if (!variant.trace.traceable) {
    // A declared reason: the variant cannot be traced by design (a Kokkos built-in, a raw
    // Kokkos::View); none: nobody has written its trace configuration yet.
    t.not_traceable =
        variant.trace.not_traceable_reason.empty()
            ? spec.name + " --" + variant.name +
                  " is not traceable yet: it declares no trace configuration (see docs/tracing.md)"
            : spec.name + " --" + variant.name + " cannot be traced: " + variant.trace.not_traceable_reason;
    return t;
  }
  RunRequest& req = t.request;
  req.variant = &variant;
  req.impl = o.impl;
  req.space = "serial";
  req.seed = o.seed;
  req.keep_arrays = true;
  // A variant of flat kernels only (trace team size 0) launches no team: one run, no team size,
  // and the TeamThreadRange distributions do not apply.
  t.flat = variant.trace.team_size == 0;
  if (t.flat && o.team_size != 0)
    throw UsageError("--team-size does not apply to " + spec.name + " --" + variant.name +
                     ": it launches flat kernels (RangePolicy, MDRangePolicy) only");
  req.team_size = t.flat ? 0 : o.team_size ? o.team_size : variant.trace.team_size;
  if (!t.flat && (req.team_size < 1 || req.team_size > kMaxTeamSize))
    throw UsageError("--team-size " + std::to_string(req.team_size) + " is not allowed in a trace: use 1.." +
                     std::to_string(kMaxTeamSize));
  std::vector<Distribution> distributions = o.distributions;
  if (t.flat && distributions.size() > 1) distributions.resize(1);
  // The variant's trace configuration (the options it declares), the caller's options over it.
  OptionValues given;
  for (const auto& opt : variant.options)
    if (auto it = variant.trace.options.find(opt.name); it != variant.trace.options.end()) given[opt.name] = it->second;
  for (const auto& [name, value] : o.options) given[name] = value;
  req.params = resolve_params(spec, variant, given);
  for (Distribution d : distributions) {
    DistributionRun run;
    run.distribution = d;
    {
      Session session(d);
      try {
        run.report = spec.run(req);
      } catch (const KernelError& e) {
        run.kernel_error = e.what();
      } catch (const NotTraceable& e) {
        t.not_traceable = spec.name + " --" + variant.name + " is not traceable yet: " + e.what();
      } catch (const TooLarge& e) {
        throw UsageError(spec.name + " --" + variant.name + " is too large to trace (" + e.what() +
                         "): choose a smaller --size");
      }
      run.recording = session.take();
    }
    if (!t.not_traceable.empty()) {
      t.runs.clear();
      return t;
    }
    run.analysis = analyze(run.recording);
    t.runs.push_back(std::move(run));
  }
  // Budget: every metric, the largest over the runs, with the puzzle's limits.
  std::vector<BudgetLimit> limits;
  if (variant.trace.budget && !t.runs.empty()) limits = variant.trace.budget(req.params, t.runs.front().report.config);
  for (std::size_t m = 0; m < kMetricCount; ++m) {
    BudgetRow row{static_cast<Metric>(m), 0.0, std::nullopt, ""};
    for (const auto& r : t.runs) row.measured = std::max(row.measured, r.analysis.metrics[m]);
    t.budget.push_back(row);
  }
  for (const BudgetLimit& l : limits) {
    const auto metric = metric_from_id(l.metric);
    if (!metric) throw std::logic_error(spec.name + ": unknown budget metric '" + l.metric + "'");
    BudgetRow& row = t.budget[static_cast<std::size_t>(*metric)];
    row.max = row.max ? std::min(*row.max, l.max) : l.max;
    row.why = l.why;
  }
  return t;
}

namespace {

std::string number(double v) {
  char buf[32];
  if (v == std::floor(v))
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string configuration(const VariantTrace& t) {
  std::string s;
  for (const auto& [name, value] : t.request.params.values()) s += name + "=" + std::to_string(value) + " ";
  if (!t.flat) s += "team-size=" + std::to_string(t.request.team_size) + " ";
  s += "seed=" + std::to_string(t.request.seed);
  if (!t.runs.empty()) s += "; run: " + t.runs.front().report.config.dump();
  return s;
}

}  // namespace

std::string run_tag(const VariantTrace& t, const DistributionRun& r) {
  return t.flat ? std::string("flat kernels") : std::string("TeamThreadRange ") + to_string(r.distribution);
}

std::string render_budget(const VariantTrace& t) {
  std::string out = "budget (the largest value over the runs)\n";
  std::size_t w = 0;
  for (const auto& b : t.budget) w = std::max(w, std::string(metric_title(b.metric)).size());
  char line[512];
  std::snprintf(line, sizeof line, "  %-*s %9s %7s\n", static_cast<int>(w), "", "measured", "limit");
  out += line;
  for (const auto& b : t.budget) {
    std::snprintf(line, sizeof line, "  %-*s %9s %7s  %s%s\n", static_cast<int>(w), metric_title(b.metric),
                  number(b.measured).c_str(), b.max ? number(*b.max).c_str() : "-",
                  b.max ? (b.ok() ? "ok" : "OVER BUDGET") : "", b.why.empty() ? "" : ("  (" + b.why + ")").c_str());
    out += line;
  }
  return out;
}

std::string render_report(const VariantTrace& t, const DiagramOptions& o) {
  std::string out;
  const std::string who = t.puzzle + " --" + t.variant + " (" + std::string(to_string(t.impl)) + ")";
  if (!t.not_traceable.empty()) return t.not_traceable + "\n";
  out += "trace " + who + ": " + configuration(t) + "\n";
  bool any_flat = false;
  for (const auto& r : t.runs)
    for (const KernelInfo& k : r.recording.kernels) any_flat |= k.flat.flat();
  if (t.flat)
    out +=
        "cells: a character is the iteration (its rank: 0-9, a-z, # from 36 on) that touched the element, * several "
        "iterations, . none; ^ marks a race\n\n";
  else
    out += std::string(
               "cells: a digit is the member (team rank) that touched the element, * several members, . none; "
               "^ marks a race") +
           (any_flat ? "\n(in a flat kernel: the iteration, by its rank)" : "") + "\n\n";
  if (!t.runs.empty()) out += text_diagram(t.runs.front().recording, t.runs.front().analysis, o);
  out += "\n";
  std::set<std::string> seen;
  for (std::size_t i = 0; i < t.runs.size(); ++i) {
    const auto& r = t.runs[i];
    const std::string tag = run_tag(t, r);
    if (!r.kernel_error.empty()) out += "KERNEL ERROR (" + tag + "): " + r.kernel_error + "\n";
    const std::string problems = problems_text(r.recording, r.analysis, 6, &seen);
    if (!problems.empty()) out += (i == 0 ? "" : "also with " + tag + ":\n") + problems;
    if (r.recording.untraced)
      out += tag + ": note: " + std::to_string(r.recording.untraced) +
             " accesses outside kernels were not traced (host code, or a kernel launched over a plain count)\n";
  }
  out += render_budget(t);
  out += "\n";
  for (const auto& r : t.runs) {
    out += run_tag(t, r) + ": ";
    out += std::to_string(r.analysis.races.size()) + " racing elements, " +
           std::to_string(r.analysis.uninitialized.size()) + " uninitialised scratch reads, result ";
    if (!r.kernel_error.empty())
      out += "none (kernel error)\n";
    else if (r.report.pass)
      out += "correct\n";
    else {
      out += "WRONG: " + std::to_string(r.report.mismatch_count) + " of " + std::to_string(r.report.checked) +
             " outputs differ";
      if (!r.report.mismatches.empty()) {
        const auto& m = r.report.mismatches.front();
        out += " (first: [" + std::to_string(m.index) + "] expected " + m.expected + ", got " + m.actual + ")";
      }
      out += "\n";
    }
  }
  bool nan = false;
  for (const auto& r : t.runs)
    for (const auto& m : r.report.mismatches) nan |= m.actual.find("nan") != std::string::npos;
  if (nan && (t.races() || t.uninitialized()))
    out +=
        "note: the trace fills team scratch with NaN before every team, so a value computed from scratch that "
        "was not written yet comes out NaN\n";
  std::string verdict;
  if (t.clean())
    verdict = "race-free and within budget";
  else {
    std::vector<std::string> why;
    if (t.races()) why.push_back("races");
    if (t.uninitialized()) why.push_back("uninitialised scratch reads");
    if (!t.kernel_ok()) why.push_back(t.flat ? "kernel error" : "misuse of the team API");
    if (!t.within_budget()) why.push_back("over budget");
    if (!t.correct() && t.kernel_ok()) why.push_back("wrong result");
    verdict = "FAILED: " + join(why, ", ");
  }
  out += who + ": " + verdict + "\n";
  return out;
}

std::string render_svg(const VariantTrace& t, const DiagramOptions& o) {
  if (t.runs.empty()) return "";
  const auto& r = t.runs.front();
  std::string title =
      "kpuzzles trace " + t.puzzle + " --" + t.variant + (t.impl == Impl::reference ? " --reference" : "") + "   (";
  bool first = true;
  for (const auto& [name, value] : t.request.params.values()) {
    title += (first ? "" : ", ") + name + " " + std::to_string(value);
    first = false;
  }
  title += t.flat ? ")" : ", team size " + std::to_string(t.request.team_size) + ")";
  return svg_diagram(r.recording, r.analysis, title, o);
}

}  // namespace kpz::trace
