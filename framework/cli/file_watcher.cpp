#include "file_watcher.hpp"

#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "kpz/lookup.hpp"

namespace kpz::cli {

namespace fs = std::filesystem;

bool FileWatcher::relevant(const std::string& name) {
  if (name.empty() || name[0] == '.' || name[0] == '#') return false;
  const auto dot = name.rfind('.');
  if (dot == std::string::npos) return false;
  const std::string ext = name.substr(dot);
  return ext == ".cpp" || ext == ".hpp" || ext == ".h" || ext == ".inc";
}

FileWatcher::FileWatcher(const std::string& root, const std::vector<std::string>& puzzles, const std::string& forced)
    : root_(root), puzzles_(puzzles) {
  if (forced == "none") {
    why_not_ = "KPZ_WATCH=none";
    return;
  }
  if (forced != "poll") {
    fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd_ < 0) {
      why_not_ = std::string("inotify: ") + std::strerror(errno);
    } else {
      for (const auto& p : puzzles_) {
        const std::string dir = root_ + "/" + p;
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) continue;  // a puzzle without exercises here
        const int wd =
            inotify_add_watch(fd_, dir.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO | IN_ATTRIB | IN_DELETE | IN_CREATE);
        if (wd < 0) {
          why_not_ = "inotify on " + dir + ": " + std::strerror(errno);
          close(fd_);
          fd_ = -1;
          wd_puzzle_.clear();
          break;
        }
        wd_puzzle_[wd] = p;
      }
      if (fd_ >= 0) {
        backend_ = Backend::inotify;
        return;
      }
    }
  } else {
    why_not_ = "KPZ_WATCH=poll";
  }
  std::error_code ec;
  if (!fs::is_directory(root_, ec)) {
    why_not_ += (why_not_.empty() ? "" : "; ") + std::string("cannot read ") + root_;
    return;
  }
  stamps_ = scan();
  last_scan_ = std::chrono::steady_clock::now();
  backend_ = Backend::polling;
}

FileWatcher::~FileWatcher() {
  if (fd_ >= 0) close(fd_);
}

std::string FileWatcher::describe() const {
  return by_enum<Backend::none>({"inotify", "polling every 0.7 s", "none"}, backend_);
}

std::map<std::string, FileWatcher::Stamp> FileWatcher::scan() const {
  std::map<std::string, Stamp> out;
  std::error_code ec;
  for (const auto& p : puzzles_) {
    for (const auto& entry : fs::directory_iterator(root_ + "/" + p, ec)) {
      if (!relevant(entry.path().filename().string())) continue;
      std::error_code e2;
      const auto t = fs::last_write_time(entry.path(), e2);
      const auto size = fs::file_size(entry.path(), e2);
      out[p + "/" + entry.path().filename().string()] = {static_cast<long long>(t.time_since_epoch().count()),
                                                         static_cast<long long>(e2 ? 0 : size)};
    }
  }
  return out;
}

std::set<std::string> FileWatcher::collect() {
  std::set<std::string> changed;
  if (backend_ == Backend::inotify) {
    alignas(inotify_event) char buf[16384];
    while (true) {
      const ssize_t n = read(fd_, buf, sizeof buf);
      if (n <= 0) break;
      for (ssize_t off = 0; off < n;) {
        const auto* ev = reinterpret_cast<const inotify_event*>(buf + off);
        off += static_cast<ssize_t>(sizeof(inotify_event) + ev->len);
        if (ev->len == 0) continue;
        const auto it = wd_puzzle_.find(ev->wd);
        if (it != wd_puzzle_.end() && relevant(ev->name)) changed.insert(it->second);
      }
    }
  } else if (backend_ == Backend::polling) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_scan_ < std::chrono::milliseconds(poll_interval_ms())) return changed;
    last_scan_ = now;
    auto fresh = scan();
    for (const auto& [file, stamp] : fresh) {
      const auto it = stamps_.find(file);
      if (it == stamps_.end() || it->second != stamp) changed.insert(file.substr(0, file.find('/')));
    }
    for (const auto& [file, stamp] : stamps_)
      if (!fresh.count(file)) changed.insert(file.substr(0, file.find('/')));
    stamps_ = std::move(fresh);
  }
  return changed;
}

}  // namespace kpz::cli
