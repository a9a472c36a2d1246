#pragma once
// The learner's verdict from a traced variant (VariantTrace): the first bug it shows, by kind,
// with a one-line headline that names the element, the members and the source line, and the
// details a learner reads next. What the host build's verifier (kpz-verify-<puzzle>) hands to
// `kpuzzles check`. Compiled only with KPZ_TRACE.
#include <string>
#include <vector>

#include "kpz/json.hpp"
#include "kpz/race_finding.hpp"
#include "kpz/trace/puzzle.hpp"

namespace kpz::trace {

// Correctness only: a variant over its budget (correct, but more traffic than the puzzle asks
// for) is clean here, with a note; `kpuzzles trace` shows the budget.
using Finding = RaceFinding;

struct Verdict {
  bool judged = false;             // false: the variant cannot be traced (`reason` says why)
  std::string reason;              // why it was not judged
  std::vector<Finding> findings;   // empty and judged: race-free, in bounds, within its scratch, correct
  std::vector<std::string> notes;  // e.g. over budget
  bool clean() const { return judged && findings.empty(); }
  // {"judged","reason"?,"findings":[{"kind","headline","details"}],"notes":[...]}
  Json to_json() const;
};

Verdict verdict_of(const VariantTrace& t);

}  // namespace kpz::trace
