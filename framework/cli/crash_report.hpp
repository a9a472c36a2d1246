#pragma once
// A crash of the code under test is never bare. The learner's kernels run inside kpuzzles (run,
// check, list, solution), so an index past a View's end or a scratch request that is too small
// can end the process with a signal. A handler then names the case that was running, the signal
// and its likely causes, and the command that shows the bad access, and exits with code 3 (an
// error of the program: the exit codes of `kpuzzles --help`).
#include <string>

#include "kpz/registry.hpp"

namespace kpz::cli {

// First words of the message (watch recognises a crashed check by them).
inline constexpr const char* kCrashPrefix = "kpuzzles: CRASHED: ";

// The crash report's first line in a child's output ("" when it has none).
std::string crash_line(const std::string& output);

// Once, at start: handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT.
void install_crash_report();

// The `what` of the innermost CrashContext alive now ("" when none): the case that is running,
// which the time limit's watchdog names too (time_limit.hpp). Safe from any thread.
std::string running_case();

// While alive, a crash names `what` ("conv1d --simple --size 1 (exercise, openmp)") and
// suggests `next` (a command that shows the bad access). Nests: the previous one comes back.
// The next step after a crash of `kpuzzles run <puzzle> <args>`: the race check's report, which
// names a bad index or scratch request, and a build that checks every View index.
std::string crash_next_step(const std::string& puzzle, const std::string& args, Impl impl);

class CrashContext {
 public:
  CrashContext(const std::string& what, const std::string& next);
  ~CrashContext();
  CrashContext(const CrashContext&) = delete;
  CrashContext& operator=(const CrashContext&) = delete;

 private:
  std::string saved_what_, saved_next_;
};

}  // namespace kpz::cli
