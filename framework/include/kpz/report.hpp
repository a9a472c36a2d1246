#pragma once
// Printing a RunReport the way learners read it (Mojo-puzzles style) or as one JSON object.
#include <iosfwd>
#include <string>

#include "kpz/registry.hpp"

namespace kpz {

struct PrintStyle {
  bool color = false;
  std::size_t max_inline = 64;  // print out:/expected: only up to this many elements
};

void print_report(std::ostream& os, const std::string& puzzle, const RunRequest& request, const RunReport& report,
                  const PrintStyle& style);

Json report_json(const std::string& puzzle, const RunRequest& request, const RunReport& report);
// The report back from report_json's object (what a puzzle's ranks print, kpuzzles reads).
RunReport report_from_json(const Json& j);

}  // namespace kpz
