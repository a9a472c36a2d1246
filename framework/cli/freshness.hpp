#pragma once
// Whether this program runs the learner's current code. kpuzzles holds the
// exercises compiled in: after a failed build, or from a copy of the binary, `run`, `check` and
// `list` would report on old code without a word; and `watch` from a copy would rebuild the
// build tree's kpuzzles but re-check with the copy.
#include <string>
#include <vector>

namespace kpz::cli {

// Set by kpuzzles on the children it starts (a check per exercise, a puzzle's ranks): the note is
// this process's to give, once.
inline constexpr const char* kStaleNoteGiven = "KPZ_STALE_NOTE_GIVEN";

// Prints one line to stderr, "kpuzzles: note: ...", when an exercise file of `puzzles` (all
// puzzles when empty) was saved after this program was built, or when the build tree holds a
// newer kpuzzles than this copy; nothing when kStaleNoteGiven is set.
void announce_stale_binary(const std::vector<std::string>& puzzles = {});

// `watch` rebuilds the build tree's kpuzzles: when this program is another file (a copy, an
// install), it executes that one with the same arguments instead (one line on stderr says so);
// when that one does not exist, UsageError. Returns when this program is the build tree's.
void run_watch_from_build_tree(const std::vector<std::string>& watch_args);

}  // namespace kpz::cli
