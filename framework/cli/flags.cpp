#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "cli.hpp"
#include "kpz/errors.hpp"

namespace kpz::cli {

namespace {
std::string allowed_list(const std::vector<Flag>& allowed) {
  std::vector<std::string> names;
  for (const auto& f : allowed) names.push_back("--" + f.name + (f.takes_value ? " V" : ""));
  return names.empty() ? "none" : join(names, ", ");
}

// "unknown flag '--simpel' for 'kpuzzles run conv1d'; did you mean --simple? allowed: ...".
std::string unknown_flag(const std::string& given, const std::vector<Flag>& allowed, const std::string& context) {
  const auto start = given.find_first_not_of('-');
  const std::string name = start == std::string::npos ? "" : given.substr(start, given.find('=') - start);
  const std::string close = closest_name(name, allowed);
  return "unknown flag " + cli::quoted(given) + " for " + context +
         (close.empty() ? "; allowed: " : "; did you mean --" + close + "? allowed: ") + allowed_list(allowed);
}
}  // namespace

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // Levenshtein distance with a transposition counting one edit (--simpel -> --simple).
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string closest_name(const std::string& name, const std::vector<Flag>& allowed) {
  std::string best;
  std::size_t best_distance = 0;
  for (const auto& f : allowed) {
    const std::size_t d = edit_distance(name, f.name);
    if (best.empty() || d < best_distance) {
      best = f.name;
      best_distance = d;
    }
  }
  // A guess farther than a third of the longer name (at least one edit, at most three) is noise.
  const std::size_t longer = std::max(name.size(), best.size());
  return !best.empty() && best_distance <= std::clamp<std::size_t>(longer / 3, 1, 3) ? best : "";
}

ParsedFlags parse_flags(const std::vector<std::string>& tokens, const std::vector<Flag>& allowed,
                        const std::string& context) {
  ParsedFlags out;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t.rfind("--", 0) != 0 || t.size() == 2) {
      if (!t.empty() && t[0] == '-' && t.size() > 1) throw UsageError(unknown_flag(t, allowed, context));
      out.positional.push_back(t);
      continue;
    }
    std::string name = t.substr(2), value;
    bool has_value = false;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    const Flag* flag = nullptr;
    for (const auto& f : allowed)
      if (f.name == name) flag = &f;
    if (!flag) throw UsageError(unknown_flag("--" + name, allowed, context));
    if (out.present.count(name)) throw UsageError("flag '--" + name + "' given twice");
    if (flag->takes_value && !has_value) {
      if (i + 1 >= tokens.size()) throw UsageError("flag '--" + name + "' needs a value");
      value = tokens[++i];
      has_value = true;
    }
    if (!flag->takes_value && has_value) throw UsageError("flag '--" + name + "' takes no value");
    out.present.insert(name);
    if (has_value) out.values[name] = value;
  }
  return out;
}

std::int64_t parse_int(const std::string& flag, const std::string& text, std::int64_t min, std::int64_t max) {
  const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
  errno = 0;
  char* end = nullptr;
  const long long v = text.empty() ? 0 : std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE)
    throw UsageError("--" + flag + " expects an integer in " + range + ", got " + cli::quoted(text));
  if (v < min || v > max) throw UsageError("--" + flag + " must be in " + range + ", got " + printable(text));
  return v;
}

std::string printable(const std::string& text) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (u < 0x20 || u == 0x7f)
      out += std::string("\\x") + hex[u >> 4] + hex[u & 15];
    else
      out += c;
  }
  return out;
}

std::string quoted(const std::string& text) {
  return "'" + printable(text) + "'";
}

bool stdout_is_terminal() {
  return isatty(STDOUT_FILENO) != 0;
}

bool use_color() {
  return stdout_is_terminal() && std::getenv("NO_COLOR") == nullptr;
}

}  // namespace kpz::cli
