#include <gtest/gtest.h>

#include "cli.hpp"
#include "kpz/errors.hpp"

namespace {

using kpz::cli::parse_flags;
using kpz::cli::parse_int;

const std::vector<kpz::cli::Flag> kFlags{{"size", true, ""}, {"json", false, ""}, {"simple", false, ""}};

TEST(Flags, FormsAreEquivalent) {
  const auto a = parse_flags({"--size", "12", "--json"}, kFlags, "t");
  const auto b = parse_flags({"--size=12", "--json"}, kFlags, "t");
  EXPECT_EQ(a.values.at("size"), "12");
  EXPECT_EQ(b.values.at("size"), "12");
  EXPECT_TRUE(a.has("json") && b.has("json"));
}

TEST(Flags, RejectsUnknownRepeatedAndMissingValues) {
  EXPECT_THROW(parse_flags({"--bogus"}, kFlags, "t"), kpz::UsageError);
  EXPECT_THROW(parse_flags({"-x"}, kFlags, "t"), kpz::UsageError);
  EXPECT_THROW(parse_flags({"--json", "--json"}, kFlags, "t"), kpz::UsageError);
  EXPECT_THROW(parse_flags({"--size"}, kFlags, "t"), kpz::UsageError);
  EXPECT_THROW(parse_flags({"--json=1"}, kFlags, "t"), kpz::UsageError);
}

TEST(Flags, UnknownFlagMessageListsAllowed) {
  try {
    parse_flags({"--sise", "3"}, kFlags, "'kpuzzles run conv1d'");
    FAIL();
  } catch (const kpz::UsageError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("--sise"), std::string::npos);
    EXPECT_NE(msg.find("--size V"), std::string::npos);
  }
}

TEST(Flags, IntegersAreStrictAndRanged) {
  EXPECT_EQ(parse_int("size", "42", 1, 100), 42);
  EXPECT_THROW(parse_int("size", "0", 1, 100), kpz::UsageError);
  EXPECT_THROW(parse_int("size", "-3", 1, 100), kpz::UsageError);
  EXPECT_THROW(parse_int("size", "101", 1, 100), kpz::UsageError);
  EXPECT_THROW(parse_int("size", "12abc", 1, 100), kpz::UsageError);
  EXPECT_THROW(parse_int("size", "", 1, 100), kpz::UsageError);
  EXPECT_THROW(parse_int("size", "99999999999999999999999", 1, 100), kpz::UsageError);
  EXPECT_THROW(parse_int("size", "1e3", 1, 10000), kpz::UsageError);
}

}  // namespace
