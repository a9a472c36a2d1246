#pragma once
// A small ordered JSON value: enough for `--json` output, the learner's state file, and the
// tests and commands that read them back (Json::parse).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
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

  static Json object() {
    Json j;
    j.value_ = Object{};
    return j;
  }
  static Json array() {
    Json j;
    j.value_ = Array{};
    return j;
  }
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
  Json* find(const std::string& key);

  bool is_null() const { return std::holds_alternative<std::monostate>(value_); }
  bool is_bool() const { return std::holds_alternative<bool>(value_); }
  bool is_number() const {
    return std::holds_alternative<std::int64_t>(value_) || std::holds_alternative<double>(value_);
  }
  bool is_string() const { return std::holds_alternative<std::string>(value_); }
  bool is_array() const { return std::holds_alternative<Array>(value_); }
  bool is_object() const { return std::holds_alternative<Object>(value_); }
  // Elements of an array or members of an object; 0 for scalars.
  std::size_t size() const;
  std::string dump() const;

  // Typed reads; `fallback` when the value has another type (or is null).
  bool as_bool(bool fallback = false) const;
  std::int64_t as_int(std::int64_t fallback = 0) const;
  double as_double(double fallback = 0.0) const;
  std::string as_string(const std::string& fallback = "") const;
  const Array& items() const;     // an array's elements (empty for other types)
  const Object& members() const;  // an object's members (empty for other types)
  // find(key) on an object, else a null value.
  const Json& operator[](const std::string& key) const;
  // Removes key from an object; false when it was not there.
  bool erase(const std::string& key);

  // Parses one JSON text (RFC 8259; numbers without fraction or exponent become integers).
  // Throws JsonError with the byte offset of the first problem.
  static Json parse(std::string_view text);

 private:
  void dump_to(std::string& out) const;
  std::variant<std::monostate, bool, std::int64_t, double, std::string, Array, Object> value_;
};

struct JsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string json_escape(const std::string& s);

}  // namespace kpz
