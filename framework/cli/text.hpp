#pragma once
// Small text helpers shared by the CLI's readers of compiler output, docs pages, sources and
// child output, and by its writers of time stamps.
#include <string>
#include <vector>

#include "kpz/json.hpp"

namespace kpz::cli {

// The lines of `text` without their '\n' (and without a '\r' before it: files written on
// Windows); a final '\n' ends the last line, it starts no new one.
std::vector<std::string> split_lines(const std::string& text);

// The items of a comma-separated list, empty ones left out: "a,,b," -> {"a", "b"}.
std::vector<std::string> split_list(const std::string& list);

// The last `n` lines of `text`, each indented by two spaces and ended by '\n'.
std::string tail_lines(const std::string& text, int n);

// The last line of `out` that parses as a JSON object (a child's --json answer among its other
// output); false when there is none.
bool last_json_line(const std::string& out, Json& j);

// Seconds with one decimal: "2.5".
std::string fixed1(double seconds);

// The time now through strftime's `format`, in UTC or in the machine's time zone.
enum class Zone { utc, local };
std::string time_now(const char* format, Zone zone);

}  // namespace kpz::cli
