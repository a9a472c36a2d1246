#pragma once
// An exclusive flock on one file, held while the object lives: the progress file's lock and the
// lock that keeps two kpuzzles from building in one tree at once.
#include <functional>
#include <string>

namespace kpz::cli {

class FileLock {
 public:
  // Takes the lock on `path` (created if need be): at once when it is free; else `waiting` is
  // called once and the lock is retried until `timeout_s` has passed (< 0: no limit; 0: no retry),
  // after which busy() says that another process holds it. Where the file cannot be made or
  // opened (a read-only tree) or the file system has no locks, nothing is locked: held() and
  // busy() are both false, and whoever asked goes on unlocked.
  FileLock(const std::string& path, double timeout_s, const std::function<void()>& waiting = {});
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool held() const { return fd_ >= 0; }
  bool busy() const { return busy_; }

 private:
  int fd_ = -1;
  bool busy_ = false;
};

}  // namespace kpz::cli
