#pragma once
// Compiler output trimmed for the learner: the first error in their own file, with its source
// line and caret, instead of pages of template instantiation context.
#include <string>
#include <vector>

namespace kpz::cli {

struct TrimmedError {
  std::string text;  // a few lines; paths relative to `source_dir`
  std::string file;  // the file of the error shown ("" when none was found)
  int line = 0;
  int errors = 0;  // error lines in the whole output
  bool in_learner_file = false;
};

// `learner_files`: paths (absolute or relative to the source tree) of the files the learner
// edits. Takes the first error in one of them; failing that the first error anywhere (with the
// learner's line that led to it, if the output names one); failing that a linker error or the
// output's last lines.
TrimmedError trim_compile_errors(const std::string& output, const std::vector<std::string>& learner_files,
                                 const std::string& source_dir, int max_lines = 12);

}  // namespace kpz::cli
