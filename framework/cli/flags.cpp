#include <unistd.h>

#include <cerrno>
#include <cstdio>
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
}  // namespace

ParsedFlags parse_flags(const std::vector<std::string>& tokens, const std::vector<Flag>& allowed,
                        const std::string& context) {
  ParsedFlags out;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t.rfind("--", 0) != 0 || t.size() == 2) {
      if (!t.empty() && t[0] == '-' && t.size() > 1)
        throw UsageError("unknown flag " + cli::quoted(t) + " for " + context + "; allowed: " + allowed_list(allowed));
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
    if (!flag)
      throw UsageError("unknown flag " + cli::quoted("--" + name) + " for " + context +
                       "; allowed: " + allowed_list(allowed));
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
