#include "watch_render.hpp"

#include <sstream>

#include "race_check.hpp"

namespace kpz::cli {

std::string render_check_result(const Style& style, const std::string& label, const std::string& puzzle,
                                const Json& ex) {
  const auto& cases = ex["cases"].items();
  const Json& race = ex["race_check"];
  if (ex["pass"].as_bool()) {
    std::string out = style.green("PASS") + "  " + label + ": " +
                      (cases.size() > 2   ? "the defaults and " + std::to_string(cases.size() - 1) + " more cases pass"
                       : cases.size() > 1 ? std::string("the defaults and 1 more case pass")
                                          : std::string("it passes")) +
                      (race["state"].as_string() == "clean" ? ", race-free" : "") + "\n";
    if (const std::string caveat = race_check_caveat(race); !caveat.empty()) out += "  " + caveat + "\n";
    for (const auto& note : race["notes"].items()) out += "  note: " + note.as_string() + "\n";
    return out;
  }
  if (const std::string text = race_check_text(race); ex["failed_by"].as_string() == "race_check" && !text.empty())
    return style.red("FAIL") + "  " + label + ": the race check found a bug (every run finds it)\n" + text;
  if (cases.empty()) return style.red("FAIL") + "\n";
  const Json& c = cases.back();
  const std::string cmd = "kpuzzles run " + puzzle + " " + c["args"].as_string();
  if (!c["usage_error"].is_null())
    return style.yellow("CANNOT RUN HERE") + "  " + cmd + "\n  " + c["usage_error"].as_string() + "\n";
  std::string out = style.red("FAIL") + "  " + cmd + "\n";
  if (cases.size() > 1)
    out += "  (" + std::to_string(cases.size() - 1) + " earlier case" + (cases.size() > 2 ? "s" : "") + " passed)\n";
  out += "  config " + c["config"].dump() + "\n";
  if (c["expected"].size() > 0 && c["expected"].size() <= 64) {
    out += "  out:      " + c["output"].dump() + "\n";
    out += "  expected: " + c["expected"].dump() + "\n";
  }
  out += "  " + std::to_string(c["mismatch_count"].as_int()) + " of " + std::to_string(c["checked"].as_int()) +
         " values wrong\n";
  int shown = 0;
  for (const auto& m : c["mismatches"].items()) {
    if (++shown > 5) break;
    out += "  [" + std::to_string(m["index"].as_int()) + "] expected " + m["expected"].as_string() + ", got " +
           m["actual"].as_string();
    if (!m["owner"].as_string().empty()) out += "  (" + m["owner"].as_string() + ")";
    out += "\n";
  }
  return out;
}

std::string render_test_run(const Style& style, const std::string& puzzle, const std::string& output, bool pass) {
  std::istringstream in(output);
  std::string summary, failed, first_failure;
  int failure_lines = 0, failed_count = 0;
  bool captured = false;
  for (std::string line; std::getline(in, line);) {
    if (line.find("[  PASSED  ]") != std::string::npos || line.find("[==========]") != std::string::npos)
      summary += "  " + line + "\n";
    if (line.find("[  FAILED  ]") != std::string::npos && line.find(" listed below") == std::string::npos &&
        line.find(" FAILED TEST") == std::string::npos) {
      if (++failed_count <= 6) failed += "  " + line + "\n";
    }
    if (!captured && line.find("Failure") != std::string::npos) {
      captured = true;
      failure_lines = 8;
    }
    if (failure_lines > 0) {
      first_failure += "  " + line + "\n";
      --failure_lines;
    }
  }
  if (failed_count > 6) failed += "  ... and " + std::to_string(failed_count - 6) + " more\n";
  return (pass ? style.green("TESTS PASS") : style.red("TESTS FAIL")) + "  the full test suite of " + puzzle +
         " against your code\n" + summary + (pass ? "" : failed + first_failure);
}

}  // namespace kpz::cli
