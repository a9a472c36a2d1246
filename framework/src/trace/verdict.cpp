// The learner's verdict from a traced variant: the first bug of each kind, in the order a learner
// should fix them (a misuse that stopped the run, then races, then reads of scratch nobody wrote,
// then a wrong result).
#include "kpz/trace/verdict.hpp"

#include <cstdio>

namespace kpz::trace {

namespace {

// What stopped the run: the tracer's KernelError messages start with what went wrong.
std::string kernel_error_kind(const std::string& message) {
  if (message.rfind("out of bounds", 0) == 0) return "out-of-bounds";
  if (message.rfind("scratch level", 0) == 0) return "scratch-request";
  return "team-api";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

// "  member 1 writes s_a[1] at f.cpp:40" -> "member 1 writes s_a[1] at f.cpp:40"
std::string trimmed(std::string s) {
  const auto b = s.find_first_not_of(' ');
  return b == std::string::npos ? std::string() : s.substr(b);
}

std::string race_headline(const std::string& problems) {
  // problems_text: "RACE on <view>[...] in epoch E of team T (n elements)\n  <write>\n  <other>\n  <why>"
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < problems.size() && lines.size() < 4) {
    const auto end = problems.find('\n', at);
    lines.push_back(problems.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  std::string h = lines.empty() ? "a race" : lines[0];
  if (lines.size() >= 3) h += ": " + trimmed(lines[1]) + ", " + trimmed(lines[2]);
  const bool flat = h.find("flat kernel") != std::string::npos;
  const bool cross = h.find("between teams") != std::string::npos;
  const bool two_writes = lines.size() >= 4 && lines[3].find("Two members write") != std::string::npos;
  const bool every_lane = lines.size() >= 4 && lines[3].find("Every vector lane") != std::string::npos;
  if (flat)
    h += " (iterations of a flat kernel run at the same time: an atomic update, or one owner per element?)";
  else if (cross)
    h += " (teams never wait for each other inside a kernel)";
  else if (two_writes)
    h += " (two writers in one barrier epoch: an atomic update, or one owner per element?)";
  else if (every_lane)
    h += " (every lane of the member makes this write: Kokkos::single(Kokkos::PerThread(team), ...)?)";
  else
    h += " (same barrier epoch: a team_barrier() missing?)";
  return h;
}

}  // namespace

Json Verdict::to_json() const {
  Json j = Json::object();
  j.set("judged", judged);
  if (!reason.empty()) j.set("reason", reason);
  j.set("findings", findings_to_json(findings));
  j.set("notes", Json::array_of(notes));
  return j;
}

Verdict verdict_of(const VariantTrace& t) {
  Verdict v;
  if (!t.not_traceable.empty()) {
    v.reason = t.not_traceable;
    return v;
  }
  v.judged = true;
  const auto tag = [&t](const DistributionRun& r) { return " (" + run_tag(t, r) + ")"; };
  for (const DistributionRun& r : t.runs)
    if (!r.kernel_error.empty()) {
      v.findings.push_back({kernel_error_kind(r.kernel_error), r.kernel_error, r.kernel_error + tag(r)});
      break;
    }
  for (const DistributionRun& r : t.runs)
    if (!r.analysis.races.empty()) {
      const std::string problems = problems_text(r.recording, r.analysis, 3);
      v.findings.push_back({"race", race_headline(problems), problems + tag(r)});
      break;
    }
  for (const DistributionRun& r : t.runs)
    if (!r.analysis.uninitialized.empty()) {
      Analysis only = r.analysis;
      only.races.clear();
      const std::string problems = problems_text(r.recording, only, 3);
      v.findings.push_back({"uninitialised-scratch", first_line(problems), problems + tag(r)});
      break;
    }
  if (t.kernel_ok())
    for (const DistributionRun& r : t.runs)
      if (!r.report.pass) {
        std::string h = "wrong result in the traced run" + tag(r) + ": " + std::to_string(r.report.mismatch_count) +
                        " of " + std::to_string(r.report.checked) + " outputs differ";
        if (!r.report.mismatches.empty()) {
          const Mismatch& m = r.report.mismatches.front();
          h += " (first: [" + std::to_string(m.index) + "] expected " + m.expected + ", got " + m.actual +
               (m.owner.empty() ? "" : ", written by " + m.owner) + ")";
        }
        v.findings.push_back({"wrong-result", h, h});
        break;
      }
  if (!t.within_budget())
    for (const BudgetRow& b : t.budget)
      if (!b.ok())
        v.notes.push_back(std::string("over budget: ") + metric_title(b.metric) + " " + number(b.measured) +
                          " (the puzzle asks for at most " + number(*b.max) + (b.why.empty() ? "" : ": " + b.why) +
                          ")");
  return v;
}

}  // namespace kpz::trace
