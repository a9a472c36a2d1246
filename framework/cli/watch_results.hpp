#pragma once
// What a finished job of `kpuzzles watch` means: the build's compile error or the checks that
// follow it, the statuses of `kpuzzles list`, and a check's verdict, status and message.
#include "process.hpp"

namespace kpz::cli {

struct WatchSession;

// Called once per job, with the child's result (or a result with started = false).
void job_done(WatchSession& s, const ProcessResult& r);

}  // namespace kpz::cli
