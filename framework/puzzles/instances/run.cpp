// instances' report of a run (the tool log it judges: kpz/tool_log.hpp); the run itself,
// run_case, is a template in spec.hpp.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "instances/spec.hpp"

namespace kpz::instances {

RunReport report_of(const RunRequest& req, const Inputs& in, const std::vector<float>& z, double sum,
                    const Verdict* verdict, const Probe& probe) {
  const std::size_t n = in.x.size(), m = in.w.size();
  const Expected want = expected_of(in);

  RunReport report;
  report.config.set("size", n).set("sum_size", m).set("alpha", in.alpha).set("worked_example", in.worked);
  report.notes.push_back("values: z(0) .. z(N-1), then sum; after them, one check per rule");
  if (verdict)
    for (std::string& line : rules_note(*verdict, probe)) report.notes.push_back(std::move(line));
  compare_within(report, z, want.z, want.z_bound,
                 [](std::size_t i) { return "z(" + std::to_string(i) + "): axpy, copied into z_host by overlap"; });
  report.checked += 1;
  if (!(std::fabs(sum - want.sum) <= want.sum_bound))  // NaN (never written) fails too
    add_finding(report, n, format_number(want.sum), std::isnan(sum) ? "never written (nan)" : format_number(sum),
                "sum: sum_of_squares, copied into sum_host by overlap");
  if (verdict) {
    report.checked += verdict->judged.size();
    for (std::size_t k = 0; k < verdict->findings.size(); ++k) {
      const Finding& f = verdict->findings[k];
      add_finding(report, n + 1 + k, f.expected, f.got, f.where);
    }
  }
  report.pass = report.mismatch_count == 0 && z.size() == n;

  std::vector<double> got(z.begin(), z.end()), expected(want.z);
  got.push_back(sum);
  expected.push_back(want.sum);
  keep_arrays(report, req, got, expected, "alpha", in.alpha, "x", in.x, "y", in.y, "w", in.w);
  return report;
}

}  // namespace kpz::instances
