#include <gtest/gtest.h>

#include <cmath>

#include "kpz/json.hpp"

namespace {

TEST(Json, DumpsOrderedObjectsAndArrays) {
  kpz::Json j = kpz::Json::object();
  j.set("b", 1).set("a", "x\"y").set("c", kpz::Json::array_of(std::vector<int>{1, 2}));
  EXPECT_EQ(j.dump(), R"({"b":1,"a":"x\"y","c":[1,2]})");
  j.set("b", true);
  EXPECT_EQ(j.dump(), R"({"b":true,"a":"x\"y","c":[1,2]})");
  EXPECT_EQ(j.size(), 3u);
}

TEST(Json, NonFiniteBecomesNull) {
  kpz::Json j = kpz::Json::array_of(std::vector<double>{1.5, std::nan(""), INFINITY});
  EXPECT_EQ(j.dump(), "[1.5,null,null]");
}

TEST(Json, EscapesControlCharacters) {
  EXPECT_EQ(kpz::Json(std::string("a\nb\x01")).dump(), R"("a\nb\u0001")");
}

TEST(Json, FloatsRoundTrip) {
  EXPECT_EQ(kpz::Json(0.1f).dump(), "0.100000001");
  EXPECT_EQ(kpz::Json(-3).dump(), "-3");
}

}  // namespace

namespace {

TEST(JsonParse, RoundTripsWhatDumpWrites) {
  const std::string text =
      R"({"a":1,"b":[true,false,null,-2.5,"x\"y\n"],"c":{"d":"\u00e9\ud83d\ude00"},"e":12345678901})";
  const kpz::Json j = kpz::Json::parse(text);
  EXPECT_EQ(j["a"].as_int(), 1);
  EXPECT_TRUE(j["b"].items()[0].as_bool());
  EXPECT_TRUE(j["b"].items()[2].is_null());
  EXPECT_DOUBLE_EQ(j["b"].items()[3].as_double(), -2.5);
  EXPECT_EQ(j["b"].items()[4].as_string(), "x\"y\n");
  EXPECT_EQ(j["c"]["d"].as_string(), "\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(j["e"].as_int(), 12345678901LL);
  EXPECT_TRUE(j["missing"].is_null());
  EXPECT_EQ(kpz::Json::parse(j.dump()).dump(), j.dump());
  EXPECT_EQ(kpz::Json::parse(" [ ] ").size(), 0u);
}

TEST(JsonParse, RejectsBrokenText) {
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "tru", "\"open", "1 2", "{\"a\":01x}", "\"\\q\""})
    EXPECT_THROW(kpz::Json::parse(bad), kpz::JsonError) << bad;
}

TEST(JsonParse, TypedReadsFallBack) {
  const kpz::Json j = kpz::Json::parse(R"({"s":"x","n":3})");
  EXPECT_EQ(j["s"].as_int(7), 7);
  EXPECT_EQ(j["n"].as_string("none"), "none");
  EXPECT_FALSE(j["n"].as_bool(false));
  kpz::Json m = j;
  EXPECT_TRUE(m.erase("s"));
  EXPECT_FALSE(m.erase("s"));
  EXPECT_EQ(m.dump(), R"({"n":3})");
}

}  // namespace
