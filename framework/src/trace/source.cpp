#include "kpz/trace/source.hpp"

#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <vector>

#ifndef KPZ_SOURCE_DIR
#define KPZ_SOURCE_DIR ""
#endif

namespace kpz::trace {
namespace {

const std::vector<std::string>& lines_of(const std::string& file) {
  static std::mutex m;
  static std::map<std::string, std::vector<std::string>> cache;
  std::lock_guard<std::mutex> lk(m);
  auto it = cache.find(file);
  if (it != cache.end()) return it->second;
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return cache.emplace(file, std::move(lines)).first->second;
}

}  // namespace

std::string display_path(const std::string& file) {
  std::string root = KPZ_SOURCE_DIR;
  if (!root.empty() && root.back() != '/') root += '/';
  if (!root.empty() && file.rfind(root, 0) == 0) return file.substr(root.size());
  return file;
}

std::string source_line(const std::string& file, int line) {
  const auto& lines = lines_of(file);
  return line >= 1 && line <= static_cast<int>(lines.size()) ? lines[line - 1] : std::string();
}

std::string scratch_view_name(const std::string& file, int line, int occurrence) {
  // `name(team.team_scratch(0), ...)` or `name{...}`, as in declarations and member initialisers.
  static const std::regex decl(
      R"(([A-Za-z_][A-Za-z_0-9]*)\s*[({]\s*[A-Za-z_][A-Za-z_0-9]*\s*\.\s*(team_scratch|thread_scratch|team_shmem)\s*\()");
  static const std::regex assign(R"(([A-Za-z_][A-Za-z_0-9]*)\s*=[^=;]*(team_scratch|thread_scratch|team_shmem)\s*\()");
  for (int back = 0; back < 3 && line - back >= 1; ++back) {
    const std::string text = source_line(file, line - back) + (back ? " " + source_line(file, line) : std::string());
    for (const std::regex* re : {&decl, &assign}) {
      std::vector<std::string> names;
      for (auto it = std::sregex_iterator(text.begin(), text.end(), *re); it != std::sregex_iterator(); ++it)
        names.push_back((*it)[1].str());
      if (!names.empty()) return names[static_cast<std::size_t>(occurrence) % names.size()];
    }
  }
  std::string base = display_path(file);
  if (auto slash = base.rfind('/'); slash != std::string::npos) base = base.substr(slash + 1);
  return "scratch@" + base + ":" + std::to_string(line);
}

}  // namespace kpz::trace
