#pragma once
// Child processes for the learner loop: the rebuild (cmake --build) and the freshly built
// kpuzzles that checks the learner's code. stdout and stderr come back through one pipe; the
// child runs in its own process group so that a kill reaches the compilers under cmake.
#include <string>
#include <utility>
#include <vector>

namespace kpz::cli {

using EnvList = std::vector<std::pair<std::string, std::string>>;

struct ProcessResult {
  int exit_code = -1;  // when it exited normally
  int signal = 0;      // when a signal ended it
  bool timed_out = false;
  bool started = true;  // false: it could not be started (output says why)
  std::string output;
  bool ok() const { return started && !timed_out && signal == 0 && exit_code == 0; }
};

class Child {
 public:
  Child() = default;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child();

  // Starts argv (argv[0] is looked up in PATH when it has no '/'); stdin is /dev/null.
  // `env` sets variables on top of this process's environment.
  bool start(const std::vector<std::string>& argv, const EnvList& env = {});
  bool running() const { return pid_ > 0; }
  int output_fd() const { return fd_; }
  // Reads what the pipe has now; returns false once the pipe is at end of file.
  bool read_available();
  // Non-blocking: true (and `result` filled) when the child has exited and its output is read.
  bool finished(ProcessResult& result);
  // Kills the whole process group and reaps it.
  void kill_now();
  // Asks the whole process group to stop (SIGTERM: make and ninja then delete the files they were
  // writing, which a SIGKILL would leave half written), waits up to `grace_s`, then kills it.
  void terminate(double grace_s = 10);
  const std::string& output() const { return output_; }

 private:
  int pid_ = -1;
  int fd_ = -1;
  bool eof_ = false;
  std::string output_;
};

// Runs argv to completion (or `timeout_s`, then kills it).
ProcessResult run_process(const std::vector<std::string>& argv, const EnvList& env = {}, double timeout_s = 600);

// "signal 11 (segmentation fault)"
std::string describe_signal(int sig);
// How a child ended, for a message: "exit 3", "signal 11 (...)", "a time-out", "no start".
std::string describe_exit(const ProcessResult& r);

// This process becomes words[0] (a path) with the arguments words[1..] and the same environment
// and standard streams (stdout is flushed first); throws std::runtime_error when it cannot.
[[noreturn]] void replace_process(const std::vector<std::string>& words);

}  // namespace kpz::cli
