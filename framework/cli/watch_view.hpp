#pragma once
// What `kpuzzles watch` prints: on a terminal a screen fitted to the window (the
// header and the keys stay, long output pages with j / k), redrawn when something changed,
// the window was resized, or once a second while a job runs; piped, every changed screen in
// full after a "----" line (a log for scripts); with --json nothing (the events say it all).
#include <chrono>
#include <string>

#include "watch_screen.hpp"

namespace kpz::cli {

struct WatchSession;

// What was drawn last.
struct DrawnScreen {
  ScreenSize size{};
  std::chrono::steady_clock::time_point at{};
  std::string text;
};

void draw(WatchSession& s);

}  // namespace kpz::cli
