#pragma once
// The learner skeleton of a reference file: the one generator, used by `kpuzzles reset` and by
// kpz-skeletons (skeletons_main.cpp: CI's check of exercises/, .ci/format, contributors).
#include <stdexcept>
#include <string>
#include <vector>

namespace kpz::cli {

struct SkeletonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The comment that replaces the reference's leading comment; it names bug hunts only in a file
// that has one, and the race check only for a puzzle it traces.
std::string skeleton_header(const std::string& puzzle, bool has_bug_hunt = false, bool race_checked = true);

// Each `// KPZ-TODO(roughly N lines): text` ... `// KPZ-END` block becomes
// `// TODO(roughly N lines): text` and the text's continuation lines (the lines right after it at
// its indentation that start with `//   `); a `// KPZ-BUG(...)` ... `// KPZ-BUGGY:` ... `// KPZ-END` block
// (a bug hunt) becomes its buggy lines, uncommented, with no marker; kpz::<ns>::reference becomes
// kpz::<ns>::exercise. Throws
// SkeletonError (naming `source` and the line) for unbalanced or missing markers.
std::string skeleton_from_reference(const std::string& text, const std::string& puzzle, const std::string& source);

// The reference with its namespace renamed so that it compiles as the exercise (what a learner
// who solved everything would have). Used by the end-to-end test.
std::string solved_exercise_from_reference(const std::string& text, const std::string& puzzle);

// The text of the top-level function `name` in a source file: from the line at column 0 that
// declares it to the first line at column 0 that starts with `}`. "" when there is none.
std::string function_section(const std::string& text, const std::string& name);

// True when the learner's file still has the skeleton's version of `function` (trailing spaces
// ignored). With an empty or unknown function, compares whole files.
bool function_untouched(const std::string& learner, const std::string& skeleton, const std::string& function);

// A reference file and the exercise file generated from it.
struct SkeletonPair {
  std::string reference;  // path
  std::string exercise;   // path
};
// reference/<puzzle>/*.cpp under `source_dir`, sorted, with their exercises/<puzzle>/ twins.
std::vector<SkeletonPair> skeleton_pairs(const std::string& source_dir, const std::string& puzzle);

}  // namespace kpz::cli
