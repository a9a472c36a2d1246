#include "crash_report.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace kpz::cli {

namespace {

// Written before a run, read by the handler: fixed buffers (nothing may allocate in a handler).
// The mutex orders the writes with running_case() on the watchdog's thread; the handler cannot
// take it, and the thread that crashed is not writing.
char g_what[512] = "";
char g_next[512] = "";
std::mutex g_mutex;

void put(const char* text) {
  (void)!write(STDERR_FILENO, text, std::strlen(text));
}

void copy(char* to, const std::string& from) {
  const std::size_t n = std::min(from.size(), std::size_t{511});
  std::memcpy(to, from.data(), n);
  to[n] = '\0';
}

const char* signal_text(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "signal 11 (segmentation fault: memory this process does not own was read or written)";
    case SIGBUS:
      return "SIGBUS (a misaligned or unmapped memory access)";
    case SIGFPE:
      return "SIGFPE (an arithmetic error: an integer division or modulo by zero)";
    case SIGILL:
      return "SIGILL (an illegal instruction)";
    case SIGABRT:
      return "SIGABRT (the program aborted itself)";
    default:
      return "a signal";
  }
}

const char* likely_causes(int sig) {
  switch (sig) {
    case SIGSEGV:
    case SIGBUS:
      return "  likely causes: an index past the end of a View or of a scratch view (a loop past its tile or past "
             "n); a scratch request (set_scratch_size / PerTeam) smaller than the scratch views the kernel carves: "
             "Kokkos then hands out a null pointer; a raw pointer (View::data()) used past its extent.\n";
    case SIGABRT:
      return "  likely causes: memory written past the end of an allocation, found later by the allocator's checks "
             "(a loop past its tile or past n: the message above may say malloc() or free()); Kokkos::abort or an "
             "exception escaping a kernel (its message is above). On a GPU, \"an illegal memory access\" above has "
             "a segmentation fault's causes: an index past a View's end, or a scratch request (set_scratch_size / "
             "PerTeam) smaller than the scratch views the kernel carves (Kokkos then hands out a null pointer).\n";
    case SIGFPE:
      return "  likely causes: an integer division or modulo by zero (a tile, a team size or a count that is 0).\n";
    case SIGILL:
      return "  likely causes: a build for another processor (Kokkos_ARCH_NATIVE on a different machine), or "
             "undefined behaviour the compiler turned into a trap.\n";
    default:
      return "";
  }
}

extern "C" void on_crash(int sig) {
  put("\n");
  put(kCrashPrefix);
  put(g_what[0] ? g_what : "kpuzzles");
  put(" ended with ");
  put(signal_text(sig));
  put("\n");
  put(likely_causes(sig));
  if (g_next[0]) {
    put("  next: ");
    put(g_next);
    put("\n");
  }
  _exit(3);
}

}  // namespace

std::string crash_next_step(const std::string& puzzle, const std::string& args, Impl impl) {
  const std::string variant = args.substr(0, args.find(' '));
  const std::string ref = impl == Impl::reference ? " --reference" : "";
  return "kpuzzles trace " + puzzle + " " + variant + ref +
         " (the traced run names an index past a View's end or a scratch request too small); or, in the "
         "openmp-debug build (cmake --preset openmp-debug: Kokkos checks every View index), kpuzzles run " +
         puzzle + " " + args + ref;
}

void install_crash_report() {
  struct sigaction sa {};
  sa.sa_handler = on_crash;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;  // a crash inside the handler ends the process the default way
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

std::string running_case() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  return g_what;
}

CrashContext::CrashContext(const std::string& what, const std::string& next) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  saved_what_ = g_what;
  saved_next_ = g_next;
  copy(g_what, what);
  copy(g_next, next);
}

CrashContext::~CrashContext() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  copy(g_what, saved_what_);
  copy(g_next, saved_next_);
}

std::string crash_line(const std::string& output) {
  const std::size_t at = output.find(kCrashPrefix);
  return at == std::string::npos ? "" : output.substr(at, output.find('\n', at) - at);
}

}  // namespace kpz::cli
