#include "watch_screen.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>

#include "text.hpp"

namespace kpz::cli {

ScreenSize terminal_size() {
  ScreenSize s;
  winsize w{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_row > 0 && w.ws_col > 0) {
    s.rows = w.ws_row;
    s.cols = w.ws_col;
  }
  return s;
}

int display_rows(const std::string& line, int cols) {
  int width = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    if (c == 0x1b) {  // CSI ... final byte
      if (i + 1 < line.size() && line[i + 1] == '[') {
        i += 2;
        while (i < line.size() && !(line[i] >= 0x40 && line[i] <= 0x7e)) ++i;
      }
      continue;
    }
    if ((c & 0xc0) == 0x80) continue;  // a UTF-8 continuation byte
    width += c == '\t' ? 8 - width % 8 : 1;
  }
  cols = std::max(cols, 1);
  return std::max(1, (width + cols - 1) / cols);
}

namespace {

int rows_of(const std::vector<std::string>& lines, int cols) {
  int rows = 0;
  for (const auto& l : lines) rows += display_rows(l, cols);
  return rows;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

// The longest prefix of `line` that fits in `rows` rows (escape sequences kept whole).
std::string cut_to_rows(const std::string& line, int rows, int cols) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    out += line[i];
    if (display_rows(out, cols) > rows) {
      out.pop_back();
      while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xc0) == 0x80) out.pop_back();
      if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0x80)) out.pop_back();
      break;
    }
  }
  return out + "\033[0m";
}

}  // namespace

std::string fit_screen(const ScreenParts& parts, ScreenSize size, int& first) {
  const int cols = std::max(size.cols, 1);
  const std::vector<std::string> header = split_lines(parts.header), body = split_lines(parts.body),
                                 footer = split_lines(parts.footer);
  const int fixed = rows_of(header, cols) + rows_of(footer, cols);
  // The screen ends with '\n': the cursor's row is the last one, so rows - 1 hold the text (a
  // screen of `rows` lines would scroll the header away).
  const int room = std::max(1, size.rows - 1 - fixed);
  const int n = static_cast<int>(body.size());
  if (rows_of(body, cols) <= room) {
    first = 0;
    return parts.header + joined(body) + parts.footer;
  }
  const int view = std::max(1, room - 1);  // one row says where we are
  // The first line of the last full page: scrolling stops there.
  int last_first = n, used = 0;
  while (last_first > 0 && used + display_rows(body[static_cast<std::size_t>(last_first - 1)], cols) <= view) {
    --last_first;
    used += display_rows(body[static_cast<std::size_t>(last_first)], cols);
  }
  if (last_first == n) last_first = n - 1;  // one line longer than the view
  first = std::clamp(first, 0, last_first);
  std::string shown;
  int rows = 0, end = first;
  while (end < n) {
    const std::string& l = body[static_cast<std::size_t>(end)];
    const int r = display_rows(l, cols);
    if (rows + r > view) {
      if (rows == 0) {  // a single line taller than the view: its start
        shown += cut_to_rows(l, view, cols) + "\n";
        ++end;
      }
      break;
    }
    shown += l + "\n";
    rows += r;
    ++end;
  }
  const std::string where = "-- lines " + std::to_string(first + 1) + "-" + std::to_string(end) + " of " +
                            std::to_string(n) + ": j/k scroll --";
  return parts.header + shown + where + "\n" + parts.footer;
}

int centred_first(int focus, int room) {
  return std::max(0, focus - std::max(room, 1) / 2);
}

}  // namespace kpz::cli
