// `kpuzzles watch` on an 80 x 24 terminal. The header and the keys stay on
// screen whatever the body holds (a long compile error, the tests, the list of 38 exercises);
// the body pages (j / k), and the list opens at the current exercise.
#include <gtest/gtest.h>

#include <string>

#include "text.hpp"
#include "watch_screen.hpp"

namespace {

using kpz::cli::display_rows;
using kpz::cli::fit_screen;
using kpz::cli::ScreenParts;
using kpz::cli::ScreenSize;
using kpz::cli::split_lines;

const ScreenSize k80x24{24, 80};

std::string numbered(int n, const std::string& what) {
  std::string s;
  for (int i = 1; i <= n; ++i) s += what + " " + std::to_string(i) + "\n";
  return s;
}

int rows(const std::string& screen, int cols = 80) {
  int r = 0;
  for (const auto& l : split_lines(screen)) r += display_rows(l, cols);
  return r;
}

ScreenParts parts(const std::string& body) {
  return {
      "kpuzzles watch · openmp · build tree /work/main/build/openmp\n\nconv1d --simple  (exercise 1 of 38)\n"
      "edit exercises/conv1d/conv1d.cpp, function simple\n\n",
      body,
      "\nprogress [#####-----] 3/38 solved\nn next · h hint · l list · r re-run · t tests · q quit   "
      "watching exercises/ for saves (inotify)\n"};
}

TEST(WatchScreen, RowsOfALine) {
  EXPECT_EQ(display_rows("", 80), 1);
  EXPECT_EQ(display_rows(std::string(80, 'x'), 80), 1);
  EXPECT_EQ(display_rows(std::string(81, 'x'), 80), 2);
  EXPECT_EQ(display_rows("\033[31m" + std::string(80, 'x') + "\033[0m", 80), 1) << "escapes take no room";
  EXPECT_EQ(display_rows("progress \u2588\u2588\u2591", 12), 1) << "a block character is one column";
}

TEST(WatchScreen, AShortBodyIsShownWhole) {
  int first = 5;
  const ScreenParts p = parts("PASS  conv1d --simple: it passes\n");
  EXPECT_EQ(fit_screen(p, k80x24, first), p.header + p.body + p.footer);
  EXPECT_EQ(first, 0);
}

TEST(WatchScreen, ALongBodyKeepsTheHeaderAndTheKeysIn24Rows) {
  const ScreenParts p = parts(numbered(60, "error line"));
  int first = 0;
  const std::string s = fit_screen(p, k80x24, first);
  EXPECT_LE(rows(s), 23) << "the 24th row is the cursor's: a 24th line would scroll the header away\n" << s;
  EXPECT_EQ(s.rfind(p.header, 0), 0u) << s;
  EXPECT_NE(s.find("q quit"), std::string::npos) << s;
  EXPECT_NE(s.find("error line 1\n"), std::string::npos);
  EXPECT_EQ(s.find("error line 60\n"), std::string::npos);
  EXPECT_NE(s.find("-- lines 1-"), std::string::npos) << s;
  EXPECT_NE(s.find("of 60: j/k scroll --"), std::string::npos) << s;
  // Scrolled past the end: the last full page.
  first = 1000;
  const std::string end = fit_screen(p, k80x24, first);
  EXPECT_NE(end.find("error line 60\n"), std::string::npos) << end;
  EXPECT_EQ(end.find("error line 1\n"), std::string::npos) << end;
  EXPECT_LT(first, 60);
  EXPECT_LE(rows(end), 23);
  EXPECT_NE(end.find("-- lines " + std::to_string(first + 1) + "-60 of 60"), std::string::npos) << end;
}

TEST(WatchScreen, WrappedLinesCountAsTheRowsTheyTake) {
  std::string body;
  for (int i = 0; i < 10; ++i) body += std::string(200, 'a' + i) + "\n";  // 3 rows each at 80 columns
  int first = 0;
  const std::string s = fit_screen(parts(body), k80x24, first);
  EXPECT_LE(rows(s), 23) << s;
  EXPECT_NE(s.find("q quit"), std::string::npos);
  // A narrow terminal: the header and footer wrap too; the body still gets its row.
  const std::string narrow = fit_screen(parts(body), ScreenSize{24, 40}, first);
  EXPECT_LE(rows(narrow, 40), 23 + 1) << narrow;  // at least one body row even when cramped
  EXPECT_NE(narrow.find("q quit"), std::string::npos);
}

TEST(WatchScreen, TheListOpensAtTheCurrentExercise) {
  // 38 exercises, the current one 30th: centred in the room left by the header and footer.
  const ScreenParts p = parts(numbered(38, "exercise") + "(l: back)\n");
  int first = kpz::cli::centred_first(29, 12);
  const std::string s = fit_screen(p, k80x24, first);
  EXPECT_NE(s.find("exercise 30\n"), std::string::npos) << s;
  EXPECT_LE(rows(s), 23);
  EXPECT_EQ(kpz::cli::centred_first(2, 12), 0);
}

}  // namespace
