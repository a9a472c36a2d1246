#pragma once
// The terminal for `kpuzzles watch`: single keys without Enter (raw mode, restored on exit and
// on SIGINT/SIGTERM/SIGHUP), the window width, and styling that is off when not on a TTY or
// when NO_COLOR is set.
#include <string>

namespace kpz::cli {

class RawMode {
 public:
  // Switches stdin to non-canonical, no-echo mode when it is a terminal.
  RawMode();
  ~RawMode();
  RawMode(const RawMode&) = delete;
  RawMode& operator=(const RawMode&) = delete;

 private:
  bool active_ = false;
};

bool stdin_is_terminal();
int terminal_columns();  // 80 when unknown

struct Style {
  bool color = false;
  std::string bold(const std::string& s) const { return color ? "\033[1m" + s + "\033[0m" : s; }
  std::string dim(const std::string& s) const { return color ? "\033[2m" + s + "\033[0m" : s; }
  std::string green(const std::string& s) const { return color ? "\033[32m" + s + "\033[0m" : s; }
  std::string red(const std::string& s) const { return color ? "\033[31m" + s + "\033[0m" : s; }
  std::string yellow(const std::string& s) const { return color ? "\033[33m" + s + "\033[0m" : s; }
};

// "[#########-----------] 3/9" (drawn with block characters on a colour terminal).
std::string progress_bar(int done, int total, int width, bool fancy);

}  // namespace kpz::cli
