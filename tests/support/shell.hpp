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

}  // namespace kpz::test
