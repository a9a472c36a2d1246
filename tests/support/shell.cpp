#include "shell.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

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

}  // namespace kpz::test
