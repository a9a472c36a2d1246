// The CLI's shared text helpers (framework/cli/text.hpp).
#include <gtest/gtest.h>

#include "text.hpp"

namespace {

using namespace kpz::cli;

TEST(Text, SplitLines) {
  using Lines = std::vector<std::string>;
  EXPECT_EQ(split_lines(""), Lines{});
  EXPECT_EQ(split_lines("a"), Lines{"a"});
  EXPECT_EQ(split_lines("a\n"), Lines{"a"});  // a final '\n' starts no new line
  EXPECT_EQ(split_lines("a\n\nb"), (Lines{"a", "", "b"}));
  EXPECT_EQ(split_lines("a\r\nb\r\n"), (Lines{"a", "b"}));  // files written on Windows
}

TEST(Text, SplitList) {
  using Items = std::vector<std::string>;
  EXPECT_EQ(split_list(""), Items{});
  EXPECT_EQ(split_list("a"), Items{"a"});
  EXPECT_EQ(split_list(",a,,b,"), (Items{"a", "b"}));  // CMake's lists may end in a separator
}

TEST(Text, TailLinesAndSeconds) {
  EXPECT_EQ(tail_lines("1\n2\n3\n", 2), "  2\n  3\n");
  EXPECT_EQ(tail_lines("1\n", 5), "  1\n");
  EXPECT_EQ(fixed1(2.46), "2.5");
  EXPECT_EQ(fixed1(0), "0.0");
}

}  // namespace
