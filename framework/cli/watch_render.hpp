#pragma once
// What `kpuzzles watch` shows of a check and of a puzzle's test suite (moved out of
// cmd_watch.cpp with the screen fitting).
#include <string>

#include "kpz/json.hpp"
#include "terminal.hpp"

namespace kpz::cli {

// One exercise of `kpuzzles check --json`: PASS with the number of cases, or FAIL with the
// failing case's command, config, arrays (when short) and first five wrong values.
std::string render_check_result(const Style& style, const std::string& label, const std::string& puzzle,
                                const Json& exercise);

// The GoogleTest output of a puzzle's learner suite, shortened: the summary, the first six
// failed tests and the first failure's lines.
std::string render_test_run(const Style& style, const std::string& puzzle, const std::string& output, bool pass);

}  // namespace kpz::cli
