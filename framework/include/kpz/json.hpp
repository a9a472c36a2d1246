#pragma once
// A small ordered JSON value: enough for `--json` output and the tests that read it.
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace kpz {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() = default;
  Json(bool v) : value_(v) {}
  Json(int v) : value_(static_cast<std::int64_t>(v)) {}
  Json(long v) : value_(static_cast<std::int64_t>(v)) {}
  Json(long long v) : value_(static_cast<std::int64_t>(v)) {}
  Json(unsigned v) : value_(static_cast<std::int64_t>(v)) {}
  Json(unsigned long v) : value_(static_cast<std::int64_t>(v)) {}
  Json(unsigned long long v) : value_(static_cast<std::int64_t>(v)) {}
  Json(double v) : value_(v) {}
  Json(float v) : value_(static_cast<double>(v)) {}
  Json(std::string v) : value_(std::move(v)) {}
  Json(const char* v) : value_(std::string(v)) {}

  static Json object() { Json j; j.value_ = Object{}; return j; }
  static Json array() { Json j; j.value_ = Array{}; return j; }
  template <class Range>
  static Json array_of(const Range& values) {
    Json j = array();
    for (const auto& v : values) j.push(Json(v));
    return j;
  }

  // Object: sets (or replaces) key. Array: appends.
  Json& set(const std::string& key, Json v);
  Json& push(Json v);
  const Json* find(const std::string& key) const;

  bool is_null() const { return std::holds_alternative<std::monostate>(value_); }
  // The value of a number (integer or floating point); `fallback` for anything else.
  double number_or(double fallback) const;
  // Elements of an array or members of an object; 0 for scalars.
  std::size_t size() const;
  std::string dump() const;

 private:
  void dump_to(std::string& out) const;
  std::variant<std::monostate, bool, std::int64_t, double, std::string, Array, Object> value_;
};

std::string json_escape(const std::string& s);

}  // namespace kpz
