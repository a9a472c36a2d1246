#pragma once
// One CTest test run through ctest, as `kpuzzles watch` runs a puzzle's whole learner suite on
// `t`: the command line, and what its verbose output says. CTest runs the test with the command
// and environment the build registered, so nothing here reads CMake's generated files.
#include <string>
#include <vector>

namespace kpz::cli {

// The CTest test of a puzzle's learner suite: "conv1d/learner".
std::string learner_test_name(const std::string& puzzle);

// A -R regex that matches exactly `test_name`: "^conv1d/learner$" (regex characters escaped).
std::string ctest_exact_regex(const std::string& test_name);

// The ctest installed beside `cmake` ("/usr/bin/cmake" -> "/usr/bin/ctest"); "ctest" (from
// PATH) when `cmake` has no directory.
std::string ctest_beside(const std::string& cmake);

// ctest --test-dir <test_dir> -R <exact regex> -V --no-tests=error: verbose, so that a passing
// test's output shows too; a regex that matches nothing is an error, not a pass.
std::vector<std::string> ctest_command(const std::string& ctest, const std::string& test_dir,
                                       const std::string& test_name);

// True when ctest's output says that the regex selected no test.
bool ctest_found_no_test(const std::string& output);

// The test's own output in ctest's verbose output: ctest prefixes each of the test's lines with
// "<number>: " and first prints its command, directory, environment and timeout; those
// header lines and ctest's own lines are left out.
std::string ctest_test_output(const std::string& output);

}  // namespace kpz::cli
