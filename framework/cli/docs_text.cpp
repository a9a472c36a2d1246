#include "docs_text.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>

#include "text.hpp"

namespace kpz::cli {
namespace {

bool is_fence(const std::string& line) {
  const auto p = line.find_first_not_of(' ');
  return p != std::string::npos && line.compare(p, 3, "```") == 0;
}

// Heading level of a markdown line outside code (0: not a heading).
int heading_level(const std::string& line) {
  int level = 0;
  while (level < static_cast<int>(line.size()) && line[level] == '#') ++level;
  return level > 0 && level <= 6 && static_cast<int>(line.size()) > level && line[level] == ' ' ? level : 0;
}

std::string trim_blank_lines(std::string s) {
  const auto first = s.find_first_not_of('\n');
  if (first == std::string::npos) return "";
  s.erase(0, first);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

std::string read_text_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string unwrap_details(const std::string& markdown, bool titles_as_headings) {
  static const std::regex open_re(R"re(^( *)\?\?\?\+? +[A-Za-z-]+(?: +"([^"]*)")?\s*$)re");
  std::string out;
  std::vector<std::size_t> body_indent;  // of each open block, innermost last
  bool in_fence = false;
  for (const auto& line : split_lines(markdown)) {
    const auto first = line.find_first_not_of(' ');
    if (first == std::string::npos) {
      out += "\n";
      continue;
    }
    // A block ends at the first non-blank line indented less than its body.
    while (!body_indent.empty() && first < body_indent.back()) body_indent.pop_back();
    const std::string text = body_indent.empty() ? line : line.substr(body_indent.back());
    std::smatch m;
    if (!in_fence && std::regex_match(text, m, open_re)) {
      // A nested block's title stays as bold text: a heading would end the hint tier it is in.
      if (!body_indent.empty() && m[2].length() > 0)
        out += "**" + m[2].str() + "**\n";
      else if (titles_as_headings)
        out += "#### " + m[2].str() + "\n";
      body_indent.push_back((body_indent.empty() ? 0 : body_indent.back()) + m[1].length() + 4);
      continue;
    }
    if (is_fence(text)) in_fence = !in_fence;
    out += text + "\n";
  }
  return out;
}

std::vector<HintTodo> parse_hints(const std::string& markdown) {
  static const std::regex todo_re(R"(^### TODO (\d+): (.*?)(?: \(`([^`]+)`\))?\s*$)");
  static const std::regex hint_re(R"(^#### Hint (\d+)(?:[^\d].*)?$)");
  std::vector<HintTodo> todos;
  bool in_hints = false, in_fence = false;
  std::string* body = nullptr;
  for (const auto& line : split_lines(unwrap_details(markdown, true))) {
    if (is_fence(line)) in_fence = !in_fence;
    const int level = in_fence || is_fence(line) ? 0 : heading_level(line);
    if (level == 2) {
      in_hints = line == "## Hints";
      body = nullptr;
      continue;
    }
    if (!in_hints) continue;
    std::smatch m;
    if (level == 3) {
      body = nullptr;
      if (std::regex_match(line, m, todo_re)) {
        HintTodo t;
        t.number = std::stoi(m[1]);
        t.title = m[2];
        t.function = m[3];
        todos.push_back(std::move(t));
      }
      continue;
    }
    if (level == 4) {
      body = nullptr;
      if (!todos.empty() && std::regex_match(line, m, hint_re)) {
        todos.back().tiers.emplace_back();
        body = &todos.back().tiers.back();
      }
      continue;
    }
    if (body) *body += line + "\n";
  }
  for (auto& t : todos)
    for (auto& tier : t.tiers) tier = trim_blank_lines(tier);
  return todos;
}

std::vector<HintTodo> hints_for(const std::vector<HintTodo>& todos, const std::vector<std::string>& functions) {
  const auto named = [&](const HintTodo& t) {
    return std::find(functions.begin(), functions.end(), t.function) != functions.end();
  };
  if (std::none_of(todos.begin(), todos.end(), named)) return todos;
  std::vector<HintTodo> out;
  std::copy_if(todos.begin(), todos.end(), std::back_inserter(out), named);
  return out;
}

int tier_count(const std::vector<HintTodo>& todos) {
  std::size_t n = 0;
  for (const auto& t : todos) n = std::max(n, t.tiers.size());
  return static_cast<int>(n);
}

std::string tier_name(int tier) {
  switch (tier) {
    case 1:
      return "a nudge";
    case 2:
      return "the concept";
    case 3:
      return "nearly the solution";
    default:
      return "hint " + std::to_string(tier);
  }
}

std::string markdown_section(const std::string& markdown, const std::string& title) {
  std::string out;
  bool inside = false, in_fence = false;
  for (const auto& line : split_lines(markdown)) {
    const bool fence = is_fence(line);
    if (fence) in_fence = !in_fence;
    if (!in_fence && !fence && heading_level(line) == 2) {
      if (inside) break;
      inside = line.substr(3) == title;
      continue;
    }
    if (inside) out += line + "\n";
  }
  return trim_blank_lines(unwrap_details(out, false));
}

std::string render_markdown(const std::string& markdown) {
  static const std::regex link_re(R"(\[([^\]]+)\]\([^)\s]+\))");
  std::string out;
  bool in_fence = false;
  int blank = 0;
  for (const auto& line : split_lines(markdown)) {
    if (is_fence(line)) {
      in_fence = !in_fence;
      continue;
    }
    std::string text;
    if (in_fence) {
      text = "    " + line;
    } else if (const int level = heading_level(line)) {
      text = line.substr(static_cast<std::size_t>(level) + 1);
    } else {
      text = std::regex_replace(line, link_re, "$1");
    }
    if (text.find_first_not_of(' ') == std::string::npos) {
      if (++blank > 1 || out.empty()) continue;
      out += "\n";
      continue;
    }
    blank = 0;
    out += text + "\n";
  }
  return trim_blank_lines(out) + "\n";
}

}  // namespace kpz::cli
