#pragma once
// Source files as the trace shows them: paths relative to the project, scratch views named after
// their variables.
#include <string>

namespace kpz::trace {

// `file` relative to the project's source directory when it lies inside it.
std::string display_path(const std::string& file);

// The name of the `occurrence`-th scratch view carved out on line `line` of `file`: the variable
// declared there (`Scratch s_a(team.team_scratch(0), n);` -> "s_a"), else "scratch@file:line".
std::string scratch_view_name(const std::string& file, int line, int occurrence);

// One line of a source file ("" when unreadable).
std::string source_line(const std::string& file, int line);

}  // namespace kpz::trace
