#include "docs_text.hpp"

#include <algorithm>
#include <cctype>
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

std::string render_inline(const std::string& text) {
  // Code spans are set aside first (as \x01<n>\x02), so that neither emphasis nor link rules touch
  // `a * b`, `__global__` or a lambda's `[&](int i)`; a backslash escape is set aside the same way.
  std::vector<std::string> kept;
  std::string work;
  const auto keep = [&](std::string piece) {
    kept.push_back(std::move(piece));
    work += "\x01" + std::to_string(kept.size() - 1) + "\x02";
  };
  const auto run_end = [&](std::size_t i) {
    while (i < text.size() && text[i] == '`') ++i;
    return i;
  };
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '\\' && i + 1 < text.size() && std::ispunct(static_cast<unsigned char>(text[i + 1]))) {
      keep(text.substr(i + 1, 1));
      i += 2;
      continue;
    }
    if (text[i] != '`') {
      work += text[i++];
      continue;
    }
    // A run of n backticks opens a span that the next run of exactly n closes.
    const std::size_t open_end = run_end(i), ticks = open_end - i;
    std::size_t close = text.find('`', open_end);
    while (close != std::string::npos && run_end(close) - close != ticks) close = text.find('`', run_end(close));
    if (close == std::string::npos) {
      work += text.substr(i, ticks);  // never closed: literal backticks
      i = open_end;
      continue;
    }
    keep(text.substr(i, close + ticks - i));
    i = close + ticks;
  }
  static const std::regex image_re(R"(!\[([^\]]*)\]\([^)\s]*(?:\s+"[^"]*")?\))");
  static const std::regex link_re(R"(\[([^\]]+)\]\(([^)\s]*)(?:\s+"[^"]*")?\))");
  static const std::regex ref_link_re(R"(\[([^\]]+)\]\[[^\]]*\])");
  static const std::regex autolink_re(R"(<((?:https?|mailto):[^>\s]+)>)");
  static const std::regex strong_re(R"(\*\*([^\s*](?:[^*]*[^\s*])?)\*\*)");
  static const std::regex strong_under_re(R"((^|[^A-Za-z0-9_])__([^\s_](?:[^_]*[^\s_])?)__(?![A-Za-z0-9_]))");
  static const std::regex em_re(R"((^|[^A-Za-z0-9*])\*([^\s*](?:[^*]*[^\s*])?)\*(?![A-Za-z0-9*]))");
  static const std::regex em_under_re(R"((^|[^A-Za-z0-9_])_([^\s_](?:[^_]*[^\s_])?)_(?![A-Za-z0-9_]))");
  static const std::regex strike_re(R"(~~([^\s~](?:[^~]*[^\s~])?)~~)");
  work = std::regex_replace(work, image_re, "$1");
  // A link within the book is its text (the terminal cannot follow it); one to the web keeps
  // its address, which the learner can open.
  std::string linked;
  auto at = work.cbegin();
  for (std::sregex_iterator m(work.begin(), work.end(), link_re), end; m != end; ++m) {
    linked.append(at, (*m)[0].first);
    const std::string label = (*m)[1], target = (*m)[2];
    const bool web = target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0;
    linked += web && label != target ? label + " (" + target + ")" : label;
    at = (*m)[0].second;
  }
  linked.append(at, work.cend());
  work = std::regex_replace(linked, ref_link_re, "$1");
  work = std::regex_replace(work, autolink_re, "$1");
  work = std::regex_replace(work, strong_re, "$1");
  work = std::regex_replace(work, strong_under_re, "$1$2");
  work = std::regex_replace(work, em_re, "$1$2");
  work = std::regex_replace(work, em_under_re, "$1$2");
  work = std::regex_replace(work, strike_re, "$1");
  std::string out;
  for (std::size_t i = 0; i < work.size(); ++i) {
    if (work[i] != '\x01') {
      out += work[i];
      continue;
    }
    const std::size_t close = work.find('\x02', i);
    out += kept[static_cast<std::size_t>(std::stoul(work.substr(i + 1, close - i - 1)))];
    i = close;
  }
  return out;
}

std::string render_markdown(const std::string& markdown) {
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
      text = render_inline(line.substr(static_cast<std::size_t>(level) + 1));
    } else {
      text = render_inline(line);
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
