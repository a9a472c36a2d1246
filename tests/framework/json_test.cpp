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
