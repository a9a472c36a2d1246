#include "ctest_run.hpp"

#include <cctype>
#include <cstring>

#include "text.hpp"

namespace kpz::cli {
namespace {

// "12: text" -> "text"; false for lines without the prefix (ctest's own).
bool strip_test_prefix(const std::string& line, std::string& text) {
  std::size_t i = 0;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
  if (i == 0 || line.compare(i, 2, ": ") != 0) return false;
  text = line.substr(i + 2);
  return true;
}

}  // namespace

std::string learner_test_name(const std::string& puzzle) {
  return puzzle + "/learner";
}

std::string ctest_exact_regex(const std::string& test_name) {
  std::string re = "^";
  for (const char c : test_name) {
    if (std::strchr("\\^$.|?*+()[]{}", c)) re += '\\';
    re += c;
  }
  return re + "$";
}

std::string ctest_beside(const std::string& cmake) {
  const auto slash = cmake.rfind('/');
  return slash == std::string::npos ? "ctest" : cmake.substr(0, slash + 1) + "ctest";
}

std::vector<std::string> ctest_command(const std::string& ctest, const std::string& test_dir,
                                       const std::string& test_name) {
  return {ctest, "--test-dir", test_dir, "-R", ctest_exact_regex(test_name), "-V", "--no-tests=error"};
}

bool ctest_found_no_test(const std::string& output) {
  return output.find("No tests were found!!!") != std::string::npos;
}

std::string ctest_test_output(const std::string& output) {
  std::string all, after_header;
  bool header_seen = false;
  for (const auto& line : split_lines(output)) {
    std::string text;
    if (!strip_test_prefix(line, text)) continue;
    all += text + "\n";
    if (header_seen) after_header += text + "\n";
    // The last line ctest prints before it starts the test.
    if (!header_seen && text.rfind("Test timeout computed to be:", 0) == 0) {
      header_seen = true;
      after_header.clear();
    }
  }
  return header_seen ? after_header : all;
}

}  // namespace kpz::cli
