#include "state.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace kpz::cli {

namespace fs = std::filesystem;

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

LearnerState LearnerState::load(const std::string& path, std::string* warning) {
  LearnerState s;
  s.path_ = path;
  std::ifstream in(path);
  if (!in) return s;
  std::stringstream text;
  text << in.rdbuf();
  try {
    Json j = Json::parse(text.str());
    if (!j.is_object()) throw JsonError("the top level is not an object");
    s.data_ = std::move(j);
  } catch (const JsonError& e) {
    std::error_code ec;
    fs::rename(path, path + ".corrupt", ec);
    if (warning)
      *warning = "the progress file " + path + " was unreadable (" + e.what() + "); moved it to " + path +
                 ".corrupt and started afresh";
  }
  return s;
}

void LearnerState::save() const {
  if (path_.empty()) throw std::runtime_error("no progress file to write");
  Json out = data_;
  out.set("version", 1);
  const fs::path p(path_);
  std::error_code ec;
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  const std::string tmp = path_ + ".tmp";
  {
    std::ofstream f(tmp, std::ios::trunc);
    if (!f) throw std::runtime_error("cannot write the progress file " + tmp + ": " + std::strerror(errno));
    f << out.dump() << '\n';
    if (!f) throw std::runtime_error("cannot write the progress file " + tmp);
  }
  if (std::rename(tmp.c_str(), path_.c_str()) != 0)
    throw std::runtime_error("cannot replace the progress file " + path_ + ": " + std::strerror(errno));
}

Json& LearnerState::section(const std::string& name) {
  if (!data_.find(name) || !data_[name].is_object()) data_.set(name, Json::object());
  return *data_.find(name);
}

const Json& LearnerState::section(const std::string& name) const { return data_[name]; }

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

void LearnerState::set_hints_shown(const std::string& key, int tiers) { section("hints").set(key, tiers); }

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
  if (forced) e.set("forced_at", utc_timestamp());
  else if (!old["forced_at"].is_null()) e.set("forced_at", old["forced_at"]);
  section("solutions").set(puzzle, std::move(e));
}

std::string LearnerState::current() const { return data_["current"].as_string(); }

void LearnerState::set_current(const std::string& exercise) { data_.set("current", exercise); }

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
