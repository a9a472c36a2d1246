#include "process.hpp"

#include "cpu_affinity.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace kpz::cli {

Child::~Child() {
  kill_now();
}

bool Child::start(const std::vector<std::string>& argv, const EnvList& env) {
  if (argv.empty()) return false;
  // Everything the child needs is prepared here: between fork and exec a process with other
  // threads (OpenMP's) may only make async-signal-safe calls, so no allocation, no setenv.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string key = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& kv : env) replaced = replaced || kv.first == key;
    if (!replaced) env_strings.push_back(entry);
  }
  for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp, args;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::string failure = "cannot run " + argv[0] + ": ";
  const CpuMask cpus = startup_cpu_mask();
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    output_ = std::string("cannot create a pipe: ") + std::strerror(errno);
    return false;
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    output_ = std::string("cannot fork: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return false;
  }
  if (pid == 0) {
    setpgid(0, 0);
    // The child lives in a group of its own (so that its own children are killed with it), so a
    // kill of the parent's group misses it: it dies with its parent instead. Without this, `watch`
    // cancelling a check would leave that check's race check (a kernel that never ends) running.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(128 + SIGKILL);  // the parent died before prctl
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    restore_cpu_mask(cpus);
    execvpe(args[0], args.data(), envp.data());
    const char* why = strerror(errno);  // glibc: a static string for known errors
    (void)!write(STDERR_FILENO, failure.data(), failure.size());
    (void)!write(STDERR_FILENO, why, strlen(why));
    (void)!write(STDERR_FILENO, "\n", 1);
    _exit(127);
  }
  setpgid(pid, pid);  // also here, so that kill_now works even before the child ran
  close(fds[1]);
  fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  pid_ = pid;
  fd_ = fds[0];
  eof_ = false;
  output_.clear();
  return true;
}

bool Child::read_available() {
  if (fd_ < 0) return false;
  char buf[65536];
  while (true) {
    const ssize_t n = read(fd_, buf, sizeof buf);
    if (n > 0) {
      output_.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) {
      eof_ = true;
      close(fd_);
      fd_ = -1;
      return false;
    }
    if (errno == EINTR) continue;
    return true;  // EAGAIN: nothing more for now
  }
}

bool Child::finished(ProcessResult& result) {
  if (pid_ <= 0) return false;
  read_available();
  if (!eof_) return false;
  int status = 0;
  pid_t r;
  do r = waitpid(pid_, &status, 0);
  while (r < 0 && errno == EINTR);
  result = ProcessResult{};
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  result.output = output_;
  pid_ = -1;
  return true;
}

void Child::terminate(double grace_s) {
  if (pid_ > 0) {
    const pid_t group = pid_;
    ::kill(-group, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(grace_s);
    // The whole group, not only the child: a build tool cleaning up after cmake has gone must be
    // done before the next build starts in the same tree.
    while (std::chrono::steady_clock::now() < deadline) {
      int status;
      if (pid_ > 0) {
        const pid_t r = waitpid(pid_, &status, WNOHANG);
        if (r == pid_ || (r < 0 && errno != EINTR)) pid_ = -1;
      }
      if (pid_ < 0 && ::kill(-group, 0) != 0 && errno == ESRCH) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (pid_ < 0) ::kill(-group, SIGKILL);  // past the grace: what is left of the group
  }
  kill_now();  // the child, if it is still there, and the pipe
}

void Child::kill_now() {
  if (pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    int status;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  if (fd_ >= 0) {
    close(fd_);
    fd_ = -1;
  }
}

ProcessResult run_process(const std::vector<std::string>& argv, const EnvList& env, double timeout_s) {
  Child child;
  ProcessResult result;
  if (!child.start(argv, env)) {
    result.started = false;
    result.output = child.output();
    return result;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (!child.finished(result)) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.output = child.output();
      child.kill_now();
      result.timed_out = true;
      return result;
    }
    pollfd p{child.output_fd(), POLLIN, 0};
    if (p.fd >= 0) poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 200)));
  }
  return result;
}

void replace_process(const std::vector<std::string>& words) {
  std::vector<std::string> copies = words;
  std::vector<char*> argv;
  for (auto& w : copies) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::cout.flush();
  restore_cpu_mask(startup_cpu_mask());
  execv(argv[0], argv.data());
  throw std::runtime_error("cannot run " + words.front() + ": " + std::strerror(errno));
}

std::string describe_signal(int sig) {
  const char* name = strsignal(sig);
  return "signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : "");
}

std::string describe_exit(const ProcessResult& r) {
  if (!r.started) return "no start";
  if (r.timed_out) return "a time-out";
  return r.signal ? describe_signal(r.signal) : "exit " + std::to_string(r.exit_code);
}

}  // namespace kpz::cli
