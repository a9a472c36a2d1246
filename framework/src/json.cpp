#include "kpz/json.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace kpz {

std::string json_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

Json& Json::set(const std::string& key, Json v) {
  auto* obj = std::get_if<Object>(&value_);
  if (!obj) throw std::logic_error("Json::set on a non-object");
  for (auto& [k, existing] : *obj) {
    if (k == key) {
      existing = std::move(v);
      return *this;
    }
  }
  obj->emplace_back(key, std::move(v));
  return *this;
}

Json& Json::push(Json v) {
  auto* arr = std::get_if<Array>(&value_);
  if (!arr) throw std::logic_error("Json::push on a non-array");
  arr->push_back(std::move(v));
  return *this;
}

const Json* Json::find(const std::string& key) const {
  const auto* obj = std::get_if<Object>(&value_);
  if (!obj) return nullptr;
  for (const auto& [k, v] : *obj)
    if (k == key) return &v;
  return nullptr;
}

Json* Json::find(const std::string& key) {
  return const_cast<Json*>(static_cast<const Json&>(*this).find(key));
}

std::size_t Json::size() const {
  if (const auto* a = std::get_if<Array>(&value_)) return a->size();
  if (const auto* o = std::get_if<Object>(&value_)) return o->size();
  return 0;
}

std::string Json::dump() const {
  std::string out;
  dump_to(out);
  return out;
}

void Json::dump_to(std::string& out) const {
  struct Visitor {
    std::string& out;
    void operator()(std::monostate) const { out += "null"; }
    void operator()(bool b) const { out += b ? "true" : "false"; }
    void operator()(std::int64_t i) const { out += std::to_string(i); }
    void operator()(double d) const {
      if (!std::isfinite(d)) {  // JSON has no NaN/Inf
        out += "null";
        return;
      }
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.9g", d);
      out += buf;
    }
    void operator()(const std::string& s) const { out += "\"" + json_escape(s) + "\""; }
    void operator()(const Array& a) const {
      out += '[';
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (i) out += ',';
        a[i].dump_to(out);
      }
      out += ']';
    }
    void operator()(const Object& o) const {
      out += '{';
      for (std::size_t i = 0; i < o.size(); ++i) {
        if (i) out += ',';
        out += "\"" + json_escape(o[i].first) + "\":";
        o[i].second.dump_to(out);
      }
      out += '}';
    }
  };
  std::visit(Visitor{out}, value_);
}

bool Json::as_bool(bool fallback) const {
  const auto* b = std::get_if<bool>(&value_);
  return b ? *b : fallback;
}

std::int64_t Json::as_int(std::int64_t fallback) const {
  if (const auto* i = std::get_if<std::int64_t>(&value_)) return *i;
  if (const auto* d = std::get_if<double>(&value_)) return static_cast<std::int64_t>(*d);
  return fallback;
}

double Json::as_double(double fallback) const {
  if (const auto* d = std::get_if<double>(&value_)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&value_)) return static_cast<double>(*i);
  return fallback;
}

std::string Json::as_string(const std::string& fallback) const {
  const auto* s = std::get_if<std::string>(&value_);
  return s ? *s : fallback;
}

const Json::Array& Json::items() const {
  static const Array empty;
  const auto* a = std::get_if<Array>(&value_);
  return a ? *a : empty;
}

const Json::Object& Json::members() const {
  static const Object empty;
  const auto* o = std::get_if<Object>(&value_);
  return o ? *o : empty;
}

const Json& Json::operator[](const std::string& key) const {
  static const Json null;
  const Json* j = find(key);
  return j ? *j : null;
}

bool Json::erase(const std::string& key) {
  auto* obj = std::get_if<Object>(&value_);
  if (!obj) return false;
  for (auto it = obj->begin(); it != obj->end(); ++it) {
    if (it->first == key) {
      obj->erase(it);
      return true;
    }
  }
  return false;
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Json document() {
    Json j = value(0);
    skip_space();
    if (pos_ != s_.size()) fail("unexpected text after the value");
    return j;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw JsonError("invalid JSON at byte " + std::to_string(pos_) + ": " + what);
  }

  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }

  bool eat(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }

  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Json value(int depth) {
    if (depth > 200) fail("nested too deeply");
    skip_space();
    if (pos_ >= s_.size()) fail("unexpected end");
    const char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      Json obj = Json::object();
      if (eat('}')) return obj;
      do {
        skip_space();
        if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a member name");
        std::string key = string();
        expect(':');
        obj.set(key, value(depth + 1));
      } while (eat(','));
      expect('}');
      return obj;
    }
    if (c == '[') {
      ++pos_;
      Json arr = Json::array();
      if (eat(']')) return arr;
      do arr.push(value(depth + 1));
      while (eat(','));
      expect(']');
      return arr;
    }
    if (c == '"') return Json(string());
    if (literal("true")) return Json(true);
    if (literal("false")) return Json(false);
    if (literal("null")) return Json();
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) return number();
    fail(std::string("unexpected character '") + c + "'");
  }

  Json number() {
    const std::size_t start = pos_;
    bool integral = true;
    if (s_[pos_] == '-') ++pos_;
    auto digits = [&] {
      const std::size_t d = pos_;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (pos_ == d) fail("expected a digit");
    };
    digits();
    if (pos_ < s_.size() && s_[pos_] == '.') {
      integral = false;
      ++pos_;
      digits();
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      integral = false;
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      digits();
    }
    const std::string text(s_.substr(start, pos_ - start));
    errno = 0;
    if (integral) {
      const long long v = std::strtoll(text.c_str(), nullptr, 10);
      if (errno != ERANGE) return Json(v);
    }
    return Json(std::strtod(text.c_str(), nullptr));
  }

  static void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  unsigned hex4() {
    if (pos_ + 4 > s_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = s_[pos_++];
      v <<= 4;
      if (h >= '0' && h <= '9')
        v |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        v |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        v |= static_cast<unsigned>(h - 'A' + 10);
      else
        fail("bad \\u escape");
    }
    return v;
  }

  std::string string() {
    ++pos_;  // opening quote
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated escape");
      const char e = s_[pos_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            const unsigned lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) fail("bad surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          append_utf8(out, cp);
          break;
        }
        default:
          fail(std::string("bad escape '\\") + e + "'");
      }
    }
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

Json Json::parse(std::string_view text) {
  return Parser(text).document();
}

}  // namespace kpz
