#include "time_limit.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "crash_report.hpp"
#include "kpz/errors.hpp"

namespace kpz::cli {

namespace {

// "kpuzzles: TIMED OUT: conv1d --simple (exercise, openmp) did not finish within 60 s ...": one
// line, for the watchdog and the docs.
std::string time_limit_message(const std::string& what, double seconds) {
  std::ostringstream s;
  s << kTimeLimitPrefix << what << " did not finish within " << seconds
    << " s and was stopped: probably an endless loop (a loop whose counter never advances, e.g. a missing"
       " increment) or a team_barrier that not every member of the team reaches; if it is only slow, allow more"
       " with --time-limit S (0: no limit)";
  return s.str();
}

}  // namespace

double time_limit_from(const ParsedFlags& flags) {
  const auto it = flags.values.find("time-limit");
  if (it == flags.values.end()) return kDefaultTimeLimit;
  const std::string& text = it->second;
  errno = 0;
  char* end = nullptr;
  const double v = text.empty() ? -1 : std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v) || v < 0 || v > 86400)
    throw UsageError("--time-limit expects seconds in [0, 86400] (0: no limit), got " + cli::quoted(text));
  return v;
}

TimeLimit::TimeLimit(double seconds, std::string what) {
  if (seconds <= 0) return;
  thread_ = std::thread([this, seconds, what = std::move(what)] {
    std::unique_lock<std::mutex> lock(mutex_);
    if (cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; })) return;
    const std::string running = running_case();
    const std::string message = time_limit_message(running.empty() ? what : running, seconds) + "\n";
    (void)!write(STDERR_FILENO, message.data(), message.size());
    // The kernel's threads cannot be stopped one by one; neither exit handlers nor Kokkos'
    // finalisation may wait for them.
    _exit(kExitTimeLimit);
  });
}

TimeLimit::~TimeLimit() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

}  // namespace kpz::cli
