#include "shell.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "kpz/json.hpp"
#include "kpz/race_finding.hpp"

namespace kpz::test {

ShellResult shell(const std::string& command) {
  std::string pattern = testing::TempDir() + "kpz_shell_stderr_XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) {
    ADD_FAILURE() << "cannot create a temporary file from " << pattern;
    return {};
  }
  close(fd);
  const std::string err_file(name.data());
  ShellResult r;
  const auto start = std::chrono::steady_clock::now();
  FILE* p = popen((command + " 2>" + err_file).c_str(), "r");
  if (!p) {
    ADD_FAILURE() << "popen failed for: " << command;
    std::remove(err_file.c_str());
    return r;
  }
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) r.out += buf.data();
  const int status = pclose(p);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream in(err_file);
  std::stringstream text;
  text << in.rdbuf();
  r.err = text.str();
  std::remove(err_file.c_str());
  return r;
}

void expect_output(const ShellResult& r, int code, std::initializer_list<std::string> parts) {
  EXPECT_EQ(r.code, code) << r.out << r.err;
  for (const std::string& part : parts)
    EXPECT_NE(r.out.find(part), std::string::npos) << part << " missing in " << r.out;
}

int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

namespace {
std::string& race_check_verifier() {
  static std::string verifier;
  return verifier;
}
}  // namespace

void set_race_check_verifier(const std::string& verifier) {
  race_check_verifier() = verifier;
}

const std::string& race_findings(const std::string& variant, bool reference) {
  static std::map<std::string, std::string> cache;
  const std::string key = variant + (reference ? " --reference" : "");
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  std::string findings;
  if (const std::string& verifier = race_check_verifier(); !verifier.empty()) {
    const ShellResult r = shell(verifier + " " + key + " 2>/dev/null");
    // The verdict is the verifier's last line, one JSON object.
    std::string last = r.out;
    while (!last.empty() && last.back() == '\n') last.pop_back();
    last = last.substr(last.rfind('\n') == std::string::npos ? 0 : last.rfind('\n') + 1);
    // kpuzzles' rule (kpz::findings_stop_the_run, as RaceCheck::blocking applies it); a crash of
    // the traced run stops the run too; a verifier that gives no verdict stops nothing.
    bool stops = r.code >= 128;
    if (stops) findings = "\n  crash: the traced run died (exit " + std::to_string(r.code) + ")";
    try {
      const Json verdict = Json::parse(last);
      if (verdict.is_object() && verdict["judged"].is_bool() && verdict["judged"].as_bool()) {
        const std::vector<RaceFinding> found = findings_from_json(verdict["findings"]);
        stops = stops || findings_stop_the_run(found);
        for (const RaceFinding& f : found) findings += "\n  " + f.kind + ": " + f.headline;
      }
    } catch (const std::exception&) {
      // no verdict: nothing stops the run, as in kpuzzles
    }
    if (!stops) findings.clear();
  }
  return cache.emplace(key, findings).first->second;
}

}  // namespace kpz::test
