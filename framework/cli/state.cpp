#include "state.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "docs_text.hpp"
#include "kpz/errors.hpp"
#include "text.hpp"

namespace kpz::cli {

namespace fs = std::filesystem;

std::string utc_timestamp() {
  return time_now("%Y-%m-%dT%H:%M:%SZ", Zone::utc);
}

namespace {

std::string type_name(const Json& j) {
  if (j.is_null()) return "null";
  if (j.is_bool()) return "a boolean";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_array()) return "an array";
  return "an object";
}

std::string compact_timestamp() {
  std::string t = utc_timestamp();  // 2026-01-31T12:00:00Z -> 20260131T120000Z
  t.erase(std::remove(t.begin(), t.end(), '-'), t.end());
  t.erase(std::remove(t.begin(), t.end(), ':'), t.end());
  return t;
}

// What to do about a progress file that exists but cannot be read.
std::string unreadable(const std::string& path, int err) {
  std::string fix = "fix that, or set KPZ_STATE_FILE to another file";
  if (err == EACCES || err == EPERM)
    fix = "make it yours again (a `sudo kpuzzles` leaves it to root: sudo chown \"$USER\" " + path +
          "), or set KPZ_STATE_FILE to another file";
  return "cannot read the progress file " + path + " (" + std::strerror(err) + "); " + fix + ". Nothing was changed.";
}

// Keeps the file's current content as <path>.corrupt-<time>[-n], never over an earlier backup:
// a hard link claims the name atomically (EEXIST: try the next), and the old name is then left
// to the next save. Returns the backup's name, or "" with `error` set.
std::string keep_backup(const std::string& path, bool remove_original, std::string& error) {
  // A copy of a file that stays (wrong types: every command warns until the next save) is kept
  // once, not once per command.
  if (!remove_original) {
    std::error_code ec;
    const fs::path p(path);
    const std::string text = read_text_file(path), prefix = p.filename().string() + ".corrupt-";
    for (const auto& e : fs::directory_iterator(p.has_parent_path() ? p.parent_path() : fs::path("."), ec))
      if (e.path().filename().string().rfind(prefix, 0) == 0 && read_text_file(e.path().string()) == text)
        return e.path().string();
  }
  const std::string base = path + ".corrupt-" + compact_timestamp();
  for (int n = 0; n < 1000; ++n) {
    const std::string name = n == 0 ? base : base + "-" + std::to_string(n);
    if (link(path.c_str(), name.c_str()) == 0) {
      if (remove_original) unlink(path.c_str());
      return name;
    }
    if (errno == EEXIST) continue;
    // No hard links here (some network and FUSE file systems): a rename, checked first.
    const int link_errno = errno;
    std::error_code ec;
    if (fs::exists(name, ec)) continue;
    if (!remove_original) {
      if (fs::copy_file(path, name, fs::copy_options::none, ec)) return name;
      error = ec ? ec.message() : std::strerror(link_errno);
      return "";
    }
    if (std::rename(path.c_str(), name.c_str()) == 0) return name;
    error = std::strerror(errno);
    return "";
  }
  error = "a thousand backups with this time stamp exist";
  return "";
}

}  // namespace

LearnerState LearnerState::load(const std::string& path, std::string* warning) {
  LearnerState s;
  s.path_ = path;
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return s;  // no progress yet
    throw std::runtime_error(unreadable(path, errno));
  }
  if (!S_ISREG(st.st_mode))
    throw std::runtime_error("the progress file " + path +
                             " is not a regular file; remove what is there, or set KPZ_STATE_FILE to a file");
  std::string text;
  {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error(unreadable(path, errno));
    char buf[65536];
    while (true) {
      const ssize_t n = read(fd, buf, sizeof buf);
      if (n > 0)
        text.append(buf, static_cast<std::size_t>(n));
      else if (n == 0)
        break;
      else if (errno != EINTR) {
        const int err = errno;
        close(fd);
        throw std::runtime_error(unreadable(path, err));
      }
    }
    close(fd);
  }
  std::vector<std::string> notes;
  bool backed_up = false;
  try {
    Json j = Json::parse(text);
    if (!j.is_object()) throw JsonError("the top level is " + type_name(j) + ", not an object");
    s.data_ = std::move(j);
  } catch (const JsonError& e) {
    std::string error;
    const std::string backup = keep_backup(path, true, error);
    backed_up = !backup.empty();
    if (backed_up) {
      notes.push_back(std::string("it was not valid JSON (") + e.what() + "); kept it as " + backup +
                      " and started afresh");
    } else {
      s.no_save_ = "the progress file " + path + " is not valid JSON and could not be moved aside: fix or remove it";
      notes.push_back(std::string("it is not valid JSON (") + e.what() + ") and could not be moved aside (" + error +
                      "); left it as it is, and progress is not saved until it is fixed or removed");
    }
  }
  // Wrong types: ignored (the accessors would read them as empty), said, and kept in a backup
  // since the next save replaces them.
  for (const char* name : {"exercises", "hints", "solutions"})
    if (const Json* v = s.data_.find(name); v && !v->is_object()) {
      notes.push_back(std::string("its section '") + name + "' is " + type_name(*v) + ", not an object: ignored");
      s.data_.erase(name);
    }
  if (const Json* v = s.data_.find("current"); v && !v->is_string()) {
    notes.push_back("its 'current' is " + type_name(*v) + ", not a string: ignored");
    s.data_.erase("current");
  }
  if (Json* hints = s.data_.find("hints")) {
    Json fixed = Json::object();
    for (const auto& [k, v] : hints->members()) {
      if (v.is_number() && v.as_int(-1) >= 0) {
        fixed.set(k, v);
        continue;
      }
      notes.push_back("the hint count of '" + k + "' is " + (v.is_number() ? v.dump() : type_name(v)) +
                      ": counted as 0");
      fixed.set(k, 0);
    }
    s.data_.set("hints", std::move(fixed));
  }
  if (!notes.empty() && !backed_up && s.no_save_.empty()) {
    std::string error;
    const std::string backup = keep_backup(path, false, error);
    notes.push_back(backup.empty() ? "no copy of it could be kept (" + error + ")" : "a copy is kept as " + backup);
  }
  if (warning && !notes.empty()) *warning = "the progress file " + path + ": " + join(notes, "; ");
  return s;
}

void LearnerState::save() const {
  if (path_.empty()) throw std::runtime_error("no progress file to write");
  if (!no_save_.empty()) throw std::runtime_error(no_save_);
  Json out = data_;
  out.set("version", 1);
  const std::string text = out.dump() + "\n";
  const fs::path p(path_);
  std::error_code ec;
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  // A name of its own: two saves at once must never write into the same temporary file.
  std::string tmp = path_ + ".tmp-XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) throw std::runtime_error("cannot write the progress file " + path_ + ": " + std::strerror(errno));
  fchmod(fd, 0644);
  std::size_t done = 0;
  int err = 0;
  while (done < text.size() && err == 0) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n > 0)
      done += static_cast<std::size_t>(n);
    else if (errno != EINTR)
      err = errno;
  }
  if (err == 0 && fsync(fd) != 0) err = errno;
  if (close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && std::rename(tmp.c_str(), path_.c_str()) != 0) err = errno;
  if (err != 0) {
    unlink(tmp.c_str());
    throw std::runtime_error("cannot write the progress file " + path_ + ": " + std::strerror(err));
  }
}

StateLock::StateLock(const std::string& state_path, double timeout_s) {
  if (state_path.empty()) return;
  std::error_code ec;
  // Nothing beside what is not a file (/dev/null): load refuses it anyway.
  if (fs::exists(state_path, ec) && !fs::is_regular_file(state_path, ec)) return;
  const fs::path p(state_path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  const std::string lock = state_path + ".lock";
  lock_ = std::make_unique<FileLock>(lock, timeout_s);
  if (lock_->busy())
    throw std::runtime_error("the progress file " + state_path + " stayed locked for " +
                             std::to_string(static_cast<int>(timeout_s)) + " s by another kpuzzles (lock " + lock +
                             "); try again, or end the kpuzzles that hangs");
}

Json& LearnerState::section(const std::string& name) {
  if (!data_.find(name) || !data_[name].is_object()) data_.set(name, Json::object());
  return *data_.find(name);
}

const Json& LearnerState::section(const std::string& name) const {
  return data_[name];
}

bool LearnerState::solved(const std::string& puzzle, const std::string& variant) const {
  return !section("exercises")[puzzle + "/" + variant]["solved"].as_string().empty();
}

bool LearnerState::record_solved(const std::string& puzzle, const std::string& variant) {
  if (solved(puzzle, variant)) return false;
  Json e = Json::object();
  e.set("solved", utc_timestamp());
  section("exercises").set(puzzle + "/" + variant, std::move(e));
  return true;
}

int LearnerState::hints_shown(const std::string& key) const {
  return static_cast<int>(section("hints")[key].as_int(0));
}

void LearnerState::set_hints_shown(const std::string& key, int tiers) {
  section("hints").set(key, tiers < 0 ? 0 : tiers);
}

std::vector<std::string> LearnerState::hint_keys() const {
  std::vector<std::string> keys;
  for (const auto& [k, v] : section("hints").members())
    if (v.as_int(0) > 0) keys.push_back(k);
  return keys;
}

bool LearnerState::solution_shown(const std::string& puzzle) const {
  return !section("solutions")[puzzle]["shown"].as_string().empty();
}

bool LearnerState::solution_forced(const std::string& puzzle) const {
  return section("solutions")[puzzle]["forced"].as_bool(false);
}

void LearnerState::record_solution(const std::string& puzzle, bool forced) {
  Json e = Json::object();
  const Json& old = section("solutions")[puzzle];
  e.set("shown", utc_timestamp());
  // --force is remembered even when the solution is later shown after passing.
  e.set("forced", forced || old["forced"].as_bool(false));
  if (forced)
    e.set("forced_at", utc_timestamp());
  else if (!old["forced_at"].is_null())
    e.set("forced_at", old["forced_at"]);
  section("solutions").set(puzzle, std::move(e));
}

std::string LearnerState::current() const {
  return data_["current"].as_string();
}

void LearnerState::set_current(const std::string& exercise) {
  data_.set("current", exercise);
}

SolutionGate solution_gate(const LearnerState& state, const std::string& puzzle,
                           const std::vector<std::string>& variants,
                           const std::function<bool(const std::string&)>& passes_now, bool force) {
  SolutionGate g;
  for (const auto& v : variants)
    if (!state.solved(puzzle, v) && !(passes_now && passes_now(v))) g.unsolved.push_back(v);
  g.allowed = g.unsolved.empty() || force;
  g.forced = !g.unsolved.empty() && force;
  return g;
}

}  // namespace kpz::cli
