#include "terminal.hpp"

#include <signal.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

namespace kpz::cli {
namespace {

termios g_saved;
volatile sig_atomic_t g_raw = 0;

void restore_terminal() {
  if (g_raw) {
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved);
    g_raw = 0;
  }
  static const char show_cursor[] = "\033[?25h";
  if (isatty(STDOUT_FILENO)) (void)!write(STDOUT_FILENO, show_cursor, sizeof show_cursor - 1);
}

void on_signal(int sig) {
  restore_terminal();
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

bool stdin_is_terminal() {
  return isatty(STDIN_FILENO) != 0;
}

RawMode::RawMode() {
  if (!stdin_is_terminal() || tcgetattr(STDIN_FILENO, &g_saved) != 0) return;
  termios raw = g_saved;
  raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) != 0) return;
  g_raw = 1;
  active_ = true;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) signal(sig, on_signal);
}

RawMode::~RawMode() {
  if (active_) restore_terminal();
}

int terminal_columns() {
  winsize w{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 20) return w.ws_col;
  return 80;
}

std::string progress_bar(int done, int total, int width, bool fancy) {
  const int filled = total > 0 ? done * width / total : 0;
  std::string bar;
  for (int i = 0; i < width; ++i) bar += i < filled ? (fancy ? "\u2588" : "#") : (fancy ? "\u2591" : "-");
  return "[" + bar + "] " + std::to_string(done) + "/" + std::to_string(total);
}

}  // namespace kpz::cli
