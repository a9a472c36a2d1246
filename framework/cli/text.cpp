#include "text.hpp"

#include <cstdio>
#include <ctime>
#include <sstream>

namespace kpz::cli {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> items;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

bool last_json_line(const std::string& out, Json& j) {
  bool found = false;
  for (const std::string& line : split_lines(out)) {
    if (line.empty() || line[0] != '{') continue;
    try {
      j = Json::parse(line);
      found = true;
    } catch (const JsonError&) {
    }
  }
  return found;
}

std::string tail_lines(const std::string& text, int n) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::string out;
  const std::size_t keep = static_cast<std::size_t>(n);
  for (std::size_t i = lines.size() > keep ? lines.size() - keep : 0; i < lines.size(); ++i)
    out += "  " + lines[i] + "\n";
  return out;
}

std::string fixed1(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", seconds);
  return buf;
}

std::string time_now(const char* format, Zone zone) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  if (zone == Zone::utc)
    gmtime_r(&now, &tm);
  else
    localtime_r(&now, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

}  // namespace kpz::cli
