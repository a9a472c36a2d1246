#pragma once
// Running a command line from a test, for the tests that drive `kpuzzles` as a user would.
#include <initializer_list>
#include <string>

namespace kpz::test {

struct ShellResult {
  int code = -1;         // exit status; 128 + the signal for a killed process
  std::string out, err;  // what it wrote to stdout and to stderr
  double seconds = 0;    // wall time
};

// Runs `command` through /bin/sh, stdout read through a pipe and stderr through a file of its own
// (so that tests running in parallel never read each other's). `command` may hold environment
// settings, redirections of stdout and a leading `cd ... &&` or `ulimit ...;`; stderr of its
// last command is the one captured.
ShellResult shell(const std::string& command);

// Expects exit status `code` and every one of `parts` in r.out; each failure shows the output.
void expect_output(const ShellResult& r, int code, std::initializer_list<std::string> parts);

// Lines in s (newlines counted): the CLI's errors are one line each.
int count_lines(const std::string& s);

// The race check of a puzzle's test binary: its verifier (kpz-verify-<puzzle>), set once by the
// generated tests (support/variant_checks_test.cpp); empty in a build without it.
void set_race_check_verifier(const std::string& verifier);

// The race check's findings for `variant` of the reference or the exercise, one per line, from
// the verifier, once per binary, when they stop a run by kpuzzles' rule (a crash, or any finding
// but a wrong result alone); empty otherwise, and in a build without the race check.
// As `kpuzzles run` and `check` do, tests do not run code the race check stops: a scratch request
// too small hands a kernel a null pointer on a host backend, and the binary would die at the
// first such case instead of failing it.
const std::string& race_findings(const std::string& variant, bool reference);

}  // namespace kpz::test
