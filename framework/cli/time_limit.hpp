#pragma once
// A time limit on the learner's kernels. They run in this process (run, check), so a hung one
// (an endless loop, a barrier not every member reaches) cannot be interrupted: a watchdog thread
// prints what probably happened and ends the process with _exit. Nothing is saved after that.
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "cli.hpp"

namespace kpz::cli {

// The exit code when the limit ends a run (as timeout(1) does).
constexpr int kExitTimeLimit = 124;
constexpr double kDefaultTimeLimit = 60;

// --time-limit S: seconds, fractions allowed, 0 for none; kDefaultTimeLimit when absent.
double time_limit_from(const ParsedFlags& flags);

// First words of the message (watch recognises a check stopped by its limit by them).
inline constexpr const char* kTimeLimitPrefix = "kpuzzles: TIMED OUT: ";

class TimeLimit {
 public:
  // The message names the case running when the limit is reached, as a crash report would
  // (running_case(), crash_report.hpp: "conv1d --general --size 10007 --kernel-size 33
  // (exercise, openmp)"), else `what` ("conv1d --general": its race check, between cases);
  // 0 seconds: no limit.
  TimeLimit(double seconds, std::string what);
  ~TimeLimit();  // the run finished in time
  TimeLimit(const TimeLimit&) = delete;
  TimeLimit& operator=(const TimeLimit&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace kpz::cli
