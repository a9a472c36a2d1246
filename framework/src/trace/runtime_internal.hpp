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
// Stands in for a scratch view Kokkos could not fit (it handed out a null pointer), so that the
// member runs on and the end of its kernel reports everything its views need: the team's next
// such block of `bytes` (filled like team scratch), shared by its members as the scratch it
// replaces would be. nullptr when it would be too large or the members carve different views.
void* scratch_stand_in(MemberCore& m, std::size_t bytes);

}  // namespace kpz::trace::executor
