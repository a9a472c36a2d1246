#pragma once
// `t` in `kpuzzles watch`: the current puzzle's whole GoogleTest suite against the learner's
// code (the CTest test <puzzle>/learner, as `ctest --preset learner` runs it): more sizes, team
// sizes and thread counts than the exercise's cases. First its test program is built, then
// ctest runs it.
#include "process.hpp"

namespace kpz::cli {

struct WatchSession;

// Builds the tests of the current puzzle.
void start_tests(WatchSession& s);
// The build finished: runs the test through ctest, or says why not.
void tests_built(WatchSession& s, const ProcessResult& r);
// ctest finished: the tests block shows the summary and the first failure.
void tests_ran(WatchSession& s, const ProcessResult& r);

}  // namespace kpz::cli
