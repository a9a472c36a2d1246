#include "kpz/json.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace kpz {

std::string json_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
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

double Json::number_or(double fallback) const {
  if (const auto* i = std::get_if<std::int64_t>(&value_)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&value_)) return *d;
  return fallback;
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

}  // namespace kpz
