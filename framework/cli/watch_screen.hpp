#pragma once
// Fitting `kpuzzles watch`'s screen to the terminal: the header (which
// exercise, which file) and the footer (message, progress, keys) always show; the body between
// them (the result, a compile error, the tests, a hint, the list) shows as much as fits from a
// scroll position, with one line saying which lines these are and how to scroll (j / k).
#include <string>
#include <vector>

namespace kpz::cli {

struct ScreenSize {
  int rows = 24;
  int cols = 80;
};

// The terminal of stdout (TIOCGWINSZ); 24 x 80 when unknown.
ScreenSize terminal_size();

// The rows one line (no '\n') takes on a terminal `cols` wide: escape sequences take none, a
// UTF-8 character one column, an empty line one row.
int display_rows(const std::string& line, int cols);

struct ScreenParts {
  std::string header, body, footer;  // each a run of lines ending in '\n' (or empty)
};

// header + the body's lines from `first` on, as many as fit, + footer, in at most size.rows - 1
// rows and the cursor's row below them (the header and footer take what they need first; the
// body gets at least one row). When the
// body does not fit, its last row says "-- lines A-B of N: j/k scroll --". `first` is clamped
// to the body (and so that the last page is full) and written back.
std::string fit_screen(const ScreenParts& parts, ScreenSize size, int& first);

// The first body line that shows line `focus` in a window of `room` lines, centred where it can.
int centred_first(int focus, int room);

}  // namespace kpz::cli
