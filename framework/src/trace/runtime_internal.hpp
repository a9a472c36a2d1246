#pragma once
// What the recording half of the trace runtime (runtime.cpp) shares with the team executor
// (team_executor.cpp); private to src/trace/.
#include <string>

#include "kpz/trace/runtime.hpp"

namespace kpz::trace::executor {

// "exercises/conv1d/conv1d.cpp:22", or "?".
std::string where(Loc loc);
// The member the calling thread runs (nullptr: none), as current_member() reports it.
void set_current_member(MemberCore* m);
// Forgets the calling thread's deferred accesses (its member failed or was aborted).
void drop_deferred();

}  // namespace kpz::trace::executor
