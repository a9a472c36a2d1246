#include "compile_errors.hpp"

#include <regex>

#include "text.hpp"

namespace kpz::cli {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string relative(std::string line, const std::string& source_dir) {
  if (source_dir.empty()) return line;
  const std::string prefix = source_dir.back() == '/' ? source_dir : source_dir + "/";
  for (std::size_t p = line.find(prefix); p != std::string::npos; p = line.find(prefix, p))
    line.erase(p, prefix.size());
  return line;
}

}  // namespace

TrimmedError trim_compile_errors(const std::string& output, const std::vector<std::string>& learner_files,
                                 const std::string& source_dir, int max_lines) {
  // g++/clang: file:line:col: error: ...   nvcc (EDG front end): file(line): error: ...
  static const std::regex diag_re(R"(^(.+?)(?::(\d+):\d+:|\((\d+)\):) (?:fatal |catastrophic )?error: .*)");
  static const std::regex required_re(R"(^(.+?):(\d+):(\d+):\s+required from .*)");
  const std::vector<std::string> lines = split_lines(output);
  auto is_learner = [&](const std::string& path) {
    for (const auto& f : learner_files) {
      if (path == f || ends_with(path, "/" + f) || ends_with(f, "/" + path)) return true;
    }
    return false;
  };
  TrimmedError r;
  std::size_t first_any = lines.size(), first_mine = lines.size();
  std::string learner_origin;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (std::regex_match(lines[i], m, diag_re)) {
      ++r.errors;
      if (first_any == lines.size()) first_any = i;
      if (first_mine == lines.size() && is_learner(m[1].str())) first_mine = i;
    } else if (learner_origin.empty() && first_any == lines.size() && std::regex_match(lines[i], m, required_re) &&
               is_learner(m[1].str())) {
      learner_origin = relative(m[1].str(), source_dir) + ":" + m[2].str();
    }
  }
  auto block = [&](std::size_t at) {
    std::string text = relative(lines[at], source_dir) + "\n";
    int n = 1;
    for (std::size_t k = at + 1; k < lines.size() && n < max_lines; ++k, ++n) {
      const std::string& l = lines[k];
      if (l.empty() || (l[0] != ' ' && l[0] != '\t')) break;  // the excerpt and caret lines are indented
      text += relative(l, source_dir) + "\n";
    }
    return text;
  };
  const std::size_t at = first_mine != lines.size() ? first_mine : first_any;
  if (at != lines.size()) {
    std::smatch m;
    std::regex_match(lines[at], m, diag_re);
    r.file = relative(m[1].str(), source_dir);
    r.line = std::stoi(m[2].matched ? m[2].str() : m[3].str());
    r.in_learner_file = first_mine != lines.size();
    r.text = block(at);
    // A deleted function usually says at its declaration why it is deleted (the trace build's
    // element proxy does): show that declaration too.
    if (lines[at].find("use of deleted function") != std::string::npos)
      for (std::size_t k = at + 1; k < lines.size() && k < at + 40; ++k)
        if (lines[k].find("note: declared here") != std::string::npos) {
          r.text += block(k);
          break;
        }
    if (!r.in_learner_file && !learner_origin.empty()) r.text += "  (reached from " + learner_origin + ")\n";
    if (r.errors > 1)
      r.text += "(" + std::to_string(r.errors - 1) + " more error" + (r.errors > 2 ? "s" : "") + " not shown)\n";
    return r;
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("undefined reference") != std::string::npos || lines[i].find("error:") != std::string::npos) {
      r.errors = 1;
      r.text = relative(lines[i], source_dir) + "\n";
      return r;
    }
  }
  const std::size_t from = lines.size() > static_cast<std::size_t>(max_lines) ? lines.size() - max_lines : 0;
  for (std::size_t i = from; i < lines.size(); ++i) r.text += relative(lines[i], source_dir) + "\n";
  return r;
}

}  // namespace kpz::cli
