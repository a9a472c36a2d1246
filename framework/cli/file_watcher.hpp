#pragma once
// Notices saves under exercises/: inotify where the kernel offers it, else polling the files'
// modification times, else nothing (the caller then offers a manual re-run). KPZ_WATCH=inotify,
// poll or none forces one (the tests use it).
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kpz::cli {

class FileWatcher {
 public:
  enum class Backend { inotify, polling, none };

  // Watches root/<puzzle>/ for each puzzle. `forced`: "", "inotify", "poll" or "none".
  FileWatcher(const std::string& root, const std::vector<std::string>& puzzles, const std::string& forced = "");
  ~FileWatcher();
  FileWatcher(const FileWatcher&) = delete;
  FileWatcher& operator=(const FileWatcher&) = delete;

  Backend backend() const { return backend_; }
  std::string describe() const;                            // "inotify", "polling every 0.7 s", "none"
  const std::string& why_not() const { return why_not_; }  // why a better backend is not used
  int fd() const { return fd_; }                           // inotify: poll() it for POLLIN; else -1
  int poll_interval_ms() const { return 700; }

  // The puzzles with a changed source file since the last call (inotify: drains the events;
  // polling: rescans, at most once per interval).
  std::set<std::string> collect();

  // Files the loop cares about: *.cpp, *.hpp, *.h, *.inc, not hidden (editor swap files,
  // backups such as conv1d.cpp.bak-20260101-120000 and conv1d.cpp~ are ignored).
  static bool relevant(const std::string& file_name);

 private:
  using Stamp = std::pair<long long, long long>;  // mtime (ns), size
  std::map<std::string, Stamp> scan() const;

  std::string root_;
  std::vector<std::string> puzzles_;
  Backend backend_ = Backend::none;
  std::string why_not_;
  int fd_ = -1;
  std::map<int, std::string> wd_puzzle_;
  std::map<std::string, Stamp> stamps_;
  std::chrono::steady_clock::time_point last_scan_{};
};

}  // namespace kpz::cli
