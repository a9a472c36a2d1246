#include "watch_tests.hpp"

#include "compile_errors.hpp"
#include "ctest_run.hpp"
#include "watch_render.hpp"
#include "watch_session.hpp"

namespace kpz::cli {
namespace {

// ctest runs in the build tree's tests/ folder, so that its logs (Testing/Temporary there) stay
// apart from those of the learner's own ctest runs at the top of the build tree.
std::string tests_dir(const WatchSession& s) {
  return s.paths.build_dir + "/tests";
}

}  // namespace

void start_tests(WatchSession& s) {
  WatchState& st = s.state;
  st.tests_puzzle = st.cur().puzzle->name;
  st.tests_text = "building the tests of " + st.tests_puzzle + " ...\n";
  start_job(s, Job::test_build, -1,
            {s.paths.cmake, "--build", s.paths.build_dir, "--target", "kpz_test_" + st.tests_puzzle + "_exercise"});
}

void tests_built(WatchSession& s, const ProcessResult& r) {
  WatchState& st = s.state;
  if (!r.ok()) {
    if (r.output.find("unknown target") != std::string::npos)
      st.tests_text = "this build tree has no tests (configured with KPZ_BUILD_TESTS=OFF)\n";
    else
      st.tests_text = s.style.red("the tests do not build") + ":\n" +
                      trim_compile_errors(r.output, exercise_files(s.paths, st.tests_puzzle), s.paths.source_dir).text;
    return;
  }
  const std::string name = learner_test_name(st.tests_puzzle);
  st.tests_text = "running the tests of " + st.tests_puzzle + " (" + name + ") ...\n";
  start_job(s, Job::test_run, -1, ctest_command(ctest_beside(s.paths.cmake), tests_dir(s), name));
}

void tests_ran(WatchSession& s, const ProcessResult& r) {
  WatchState& st = s.state;
  const std::string ctest = ctest_beside(s.paths.cmake);
  const std::string no_exec = "cannot run " + ctest + ": ";
  if (r.exit_code == 127 && r.output.rfind(no_exec, 0) == 0) {
    st.tests_text = "ctest not found: " + r.output.substr(0, r.output.find('\n')) + "\n";
    return;
  }
  if (ctest_found_no_test(r.output)) {
    st.tests_text = "no test matches the ctest regex " + ctest_exact_regex(learner_test_name(st.tests_puzzle)) +
                    " in " + tests_dir(s) + "\n";
    return;
  }
  const bool pass = r.ok();
  st.tests_text = render_test_run(s.style, st.tests_puzzle, ctest_test_output(r.output), pass);
  st.focus = Focus::tests;
  s.events.emit("tests", [&](Json& j) { j.set("puzzle", st.tests_puzzle).set("pass", pass); });
}

}  // namespace kpz::cli
