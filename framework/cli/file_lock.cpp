#include "file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>

namespace kpz::cli {

FileLock::FileLock(const std::string& path, double timeout_s, const std::function<void()>& waiting) {
  fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);  // flock needs no write access
  if (fd_ < 0) return;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  bool told = false;
  while (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    const bool held_elsewhere = errno == EWOULDBLOCK;
    if (!held_elsewhere || (timeout_s >= 0 && std::chrono::steady_clock::now() >= deadline)) {
      busy_ = held_elsewhere;
      close(fd_);
      fd_ = -1;
      return;
    }
    if (!told && waiting) waiting();
    told = true;
    // Polled, not a blocking flock: a timeout needs it, and a wait is for a build or a save, so
    // 10 ms more does not show.
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) close(fd_);  // closing releases the flock
}

}  // namespace kpz::cli
