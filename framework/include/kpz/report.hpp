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

}  // namespace kpz
