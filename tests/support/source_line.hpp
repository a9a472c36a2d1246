#pragma once
// The line of a source file that holds a statement: the planted-bug tests expect a race report to
// name their own lines, which move whenever the file is edited.
#include <fstream>
#include <string>

namespace kpz::test {

// 1-based; -1 when no line of `file` (a test's __FILE__) holds `statement`.
inline int line_of(const char* file, const char* statement) {
  std::ifstream in(file);
  std::string l;
  for (int n = 1; std::getline(in, l); ++n)
    if (l.find(statement) != std::string::npos) return n;
  return -1;
}

}  // namespace kpz::test
