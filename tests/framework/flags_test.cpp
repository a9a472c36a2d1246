#include <gtest/gtest.h>

#include "cli.hpp"
#include "kpz/errors.hpp"

namespace {

using kpz::cli::parse_flags;
using kpz::cli::parse_int;

const std::vector<kpz::cli::Flag> kFlags{{"size", true}, {"json", false}, {"simple", false}};

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

// A typo gets the closest allowed flag (edit distance, a swap of two letters one edit); a word
// near none gets no guess. Either way the allowed flags follow, on the same line.
TEST(Flags, UnknownFlagSuggestsTheClosest) {
  EXPECT_EQ(kpz::cli::edit_distance("simpel", "simple"), 1u);
  EXPECT_EQ(kpz::cli::edit_distance("", "json"), 4u);
  EXPECT_EQ(kpz::cli::edit_distance("size", "sise"), 1u);
  EXPECT_EQ(kpz::cli::closest_name("simpel", kFlags), "simple");
  EXPECT_EQ(kpz::cli::closest_name("jsno", kFlags), "json");
  EXPECT_EQ(kpz::cli::closest_name("bogus", kFlags), "");
  const auto message = [](const std::vector<std::string>& args) {
    try {
      parse_flags(args, kFlags, "'kpuzzles run conv1d'");
    } catch (const kpz::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({"--simpel"}),
            "unknown flag '--simpel' for 'kpuzzles run conv1d'; did you mean --simple? allowed: --size V, --json, "
            "--simple");
  EXPECT_NE(message({"--sise=3"}).find("'--sise' for 'kpuzzles run conv1d'; did you mean --size? allowed:"),
            std::string::npos)
      << message({"--sise=3"});
  EXPECT_NE(message({"-simple"}).find("'-simple' for 'kpuzzles run conv1d'; did you mean --simple? allowed:"),
            std::string::npos)
      << message({"-simple"});
  EXPECT_EQ(message({"--bogus"}),
            "unknown flag '--bogus' for 'kpuzzles run conv1d'; allowed: --size V, --json, --simple");
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
