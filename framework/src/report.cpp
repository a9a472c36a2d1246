#include "kpz/report.hpp"

#include <ostream>

#include "kpz/check.hpp"

namespace kpz {
namespace {

const char* paint(bool color, const char* code) {
  return color ? code : "";
}

void print_array_line(std::ostream& os, const char* label, const Json& array) {
  os << label << ' ' << array.dump() << '\n';
}

}  // namespace

void print_report(std::ostream& os, const std::string& puzzle, const RunRequest& request, const RunReport& report,
                  const PrintStyle& style) {
  os << puzzle << " --" << request.variant_name() << " (" << to_string(request.impl) << ", " << request.space << ") "
     << report.config.dump() << '\n';
  for (const auto& line : report.notes) os << line << '\n';
  if (report.expected.size() > 0 && report.expected.size() <= style.max_inline) {
    print_array_line(os, "out:", report.output);
    print_array_line(os, "expected:", report.expected);
  }
  if (report.pass) {
    os << paint(style.color, "\033[32m") << "PASS" << paint(style.color, "\033[0m") << ": " << report.checked
       << " values match\n";
    return;
  }
  os << paint(style.color, "\033[31m") << "FAIL" << paint(style.color, "\033[0m") << ": " << report.mismatch_count
     << " of " << report.checked << " values wrong\n";
  for (const auto& m : report.mismatches) {
    os << "  [" << m.index << "] expected " << m.expected << ", got " << m.actual;
    if (!m.owner.empty()) os << "  (" << m.owner << ")";
    os << '\n';
  }
  if (report.mismatch_count > report.mismatches.size())
    os << "  ... and " << report.mismatch_count - report.mismatches.size() << " more\n";
}

Json report_json(const std::string& puzzle, const RunRequest& request, const RunReport& report) {
  Json j = Json::object();
  j.set("puzzle", puzzle);
  j.set("variant", request.variant_name());
  j.set("impl", std::string(to_string(request.impl)));
  j.set("space", request.space);
  j.set("pass", report.pass);
  j.set("seed", static_cast<unsigned long long>(request.seed));
  j.set("config", report.config);
  j.set("inputs", report.inputs);
  j.set("output", report.output);
  j.set("expected", report.expected);
  j.set("results", report.extra);
  j.set("checked", report.checked);
  j.set("mismatch_count", report.mismatch_count);
  Json mm = Json::array();
  for (const auto& m : report.mismatches) {
    Json e = Json::object();
    e.set("index", m.index);
    e.set("expected", m.expected);
    e.set("actual", m.actual);
    e.set("owner", m.owner);
    mm.push(std::move(e));
  }
  j.set("mismatches", std::move(mm));
  if (!report.notes.empty()) {  // the lines print_report shows above out:/expected:
    Json notes = Json::array();
    for (const auto& line : report.notes) notes.push(line);
    j.set("notes", std::move(notes));
  }
  return j;
}

RunReport report_from_json(const Json& j) {
  RunReport report;
  report.pass = j["pass"].as_bool();
  report.config = j["config"];
  report.inputs = j["inputs"];
  report.output = j["output"];
  report.expected = j["expected"];
  report.extra = j["results"];
  for (const Json& line : j["notes"].items()) report.notes.push_back(line.as_string());
  for (const Json& m : j["mismatches"].items())
    report.mismatches.push_back({.index = static_cast<std::size_t>(m["index"].as_int()),
                                 .expected = m["expected"].as_string(),
                                 .actual = m["actual"].as_string(),
                                 .owner = m["owner"].as_string()});
  report.mismatch_count = static_cast<std::size_t>(j["mismatch_count"].as_int());
  report.checked = static_cast<std::size_t>(j["checked"].as_int());
  return report;
}

}  // namespace kpz
