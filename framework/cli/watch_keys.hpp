#pragma once
// The keys of `kpuzzles watch` (single keys on a terminal, lines on a pipe): n next exercise,
// h hint, l list, r re-run, t tests, j / k scroll, q (or Ctrl-D) quit.
#include <string>

namespace kpz::cli {

struct WatchSession;

// The footer's line of keys.
std::string key_help();

// Reads what stdin has and acts on each key; false once stdin is closed.
bool read_keys(WatchSession& s);

}  // namespace kpz::cli
