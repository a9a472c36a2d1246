#pragma once
// The trace build's runtime (compiled only with KPZ_TRACE; see docs/tracing.md).
//
// A traced team kernel runs each team member on its own std::thread, but a token lets exactly one
// member run at a time: members run in rank order until they reach a collective (team_barrier,
// team_reduce, ...) or finish, and a collective releases the team, in rank order again, once every
// member has reached it. Nothing depends on the OS scheduler, so a run and its trace are the same
// every time. Every access through a traced View records (view, element, launch, league rank, team
// rank, lane, barrier epoch, read/write/atomic, source line) into the active Session.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kpz::trace {

// A source location, filled in by default arguments at the call site (like std::source_location).
struct Loc {
  const char* file;
  int line;
  // As a default argument, the caller's location. (GCC 12 gives the callee's location for
  // `Loc{__builtin_FILE(), __builtin_LINE()}` written directly as a default argument of a member
  // of a class template; going through a function's own default arguments is right everywhere.)
  static Loc here(const char* file = __builtin_FILE(), int line = __builtin_LINE()) { return Loc{file, line}; }
};
#define KPZ_TRACE_HERE ::kpz::trace::Loc::here()

// How TeamThreadRange hands out indices: cyclic as on CUDA (i = rank, rank + T, ...) or in
// contiguous blocks as on the host backends (Kokkos' OpenMP and Serial).
enum class Distribution { cyclic, blockwise };
const char* to_string(Distribution d);

enum class Access : std::uint8_t { read, write, atomic };

// The synchronisations that end a barrier epoch.
enum class SyncKind : std::uint8_t { barrier, reduce, scan, broadcast };
const char* to_string(SyncKind k);

// The kernel misuses the team API in a way the trace detects (a team_barrier that not every
// member reaches, a collective inside a TeamThreadRange body, a scratch request overflow, ...).
struct KernelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The kernel uses something the trace build does not model.
struct NotTraceable : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The configuration records more accesses than a trace keeps.
struct TooLarge : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Event {
  std::uintptr_t addr;  // element address (cells are keyed by it, so aliasing views agree)
  std::int64_t offset;  // element offset in its view
  std::int32_t view;    // index into Recording::views
  std::int32_t launch;  // index into Recording::kernels
  std::int32_t league, rank;
  std::int32_t lane;    // -1 outside ThreadVectorRange / TeamVectorRange bodies
  std::int32_t epoch;   // barrier epoch of the team: 0 before the first synchronisation
  std::int32_t vepoch;  // the member's vector-loop epoch (a vector loop's end syncs its lanes)
  std::int32_t loc;     // index into Recording::locations
  Access kind;
  bool every_lane = false;  // a write every vector lane of the member makes (runtime.cpp)
};

struct ViewInfo {
  std::string name;
  bool scratch = false;
  std::vector<std::int64_t> extents, strides;
};

struct SyncInfo {
  std::int32_t launch, league;
  std::int32_t epoch;  // the epoch it starts
  SyncKind kind;
  std::int32_t loc;
};

struct TeamInfo {
  std::int32_t launch, league;
  int team_size, vector_length;
  int epochs = 1;       // barrier epochs the team went through
  int barriers = 0;     // explicit team_barrier() calls
  int collectives = 0;  // other synchronisations: team_reduce, team_scan, broadcasts, nested reduces/scans
};

// The iteration space of a flat kernel (RangePolicy, MDRangePolicy; flat.hpp): per dimension,
// the first index and the count. A flat kernel runs as one team of league size 1 whose members are
// its iterations, numbered row-major from 0 (the rank); there are no barriers.
struct FlatShape {
  std::string policy;  // "RangePolicy" or "MDRangePolicy"; empty: a team kernel
  std::vector<std::int64_t> begin, extent;
  bool flat() const { return !policy.empty(); }
  std::int64_t iterations() const;
  // The iteration of rank `linear` by its indices: "iteration 7", "iteration (1, 3)".
  std::string iteration(std::int64_t linear) const;
  // "RangePolicy [0, 128)", "MDRangePolicy [0, 3) x [0, 4)".
  std::string describe() const;
};

struct KernelInfo {
  std::string label;
  int league_size, team_size, vector_length;
  FlatShape flat = {};  // set for flat kernels
};

struct SourceLoc {
  std::string file;  // as the compiler saw it
  int line;
};

// Everything one traced run recorded.
struct Recording {
  Distribution distribution = Distribution::cyclic;
  std::vector<Event> events;
  std::vector<ViewInfo> views;
  std::vector<SourceLoc> locations;
  std::vector<SyncInfo> syncs;
  std::vector<TeamInfo> teams;
  std::vector<KernelInfo> kernels;
  std::size_t untraced = 0;  // accesses through traced views outside kernels (host code) while recording
};

// Records every traced team kernel launched while it is alive (one Session at a time).
class Session {
 public:
  explicit Session(Distribution d, std::size_t max_events = 2'000'000);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  static Session* active();
  Distribution distribution() const { return rec_.distribution; }
  const Recording& recording() const { return rec_; }
  Recording take();  // stops recording and hands the data over

  // Used by the traced types.
  std::int32_t location(Loc loc);
  std::int32_t begin_kernel(const std::string& label, int league_size, int team_size, int vector_length);
  std::int32_t begin_flat_kernel(const std::string& label, const FlatShape& shape);
  void record(const Event& e);
  Recording& data() { return rec_; }

 private:
  Recording rec_;
  std::size_t max_events_;
  struct Index;
  std::unique_ptr<Index> index_;
  friend struct SessionAccess;
};

// The distribution a traced kernel uses: the active Session's, else cyclic (`kpuzzles run` in a
// trace build).
Distribution current_distribution();

class TeamCore;

// Accesses whose kind is decided later (elements of class type: read, or written through a
// member): recorded at the next traced event on this thread, by flush_deferred().
void defer_flush(void (*fn)(void*), void* obj);
void flush_deferred();

// One member's state; lives on the member's thread while a team runs.
struct MemberCore {
  TeamCore* team = nullptr;
  std::int32_t launch = -1;
  int league = 0, league_size = 1, rank = 0, team_size = 1, vector_length = 1;
  int epoch = 0, vepoch = 0, lane = -1;
  int range_depth = 0;          // inside TeamThreadRange / TeamVectorRange bodies
  int vector_depth = 0;         // inside ThreadVectorRange bodies
  int team_vector_depth = 0;    // inside TeamVectorRange bodies
  int single_depth = 0;         // inside Kokkos::single(PerTeam)
  int thread_single_depth = 0;  // inside Kokkos::single(PerThread)
  Distribution distribution = Distribution::cyclic;
  // A flat kernel's iteration (rank: its linear index; flat.hpp), else nullptr. In the pass of a
  // parallel_scan with final == false a write to a View stops the run (Kokkos requires those calls
  // to be free of side effects).
  const FlatShape* flat = nullptr;
  bool scan_prefix_pass = false;
  // Scratch per level: what the launch requested for the team, what this member's views need so
  // far (each view's shmem_size, as Kokkos' bump allocator carves them in order), the first view
  // that did not fit in the request, and the level and mode of the last team_scratch /
  // thread_scratch call (the next view's).
  std::size_t scratch_requested[2] = {0, 0};
  std::size_t scratch_needed[2] = {0, 0};
  Loc scratch_short_at[2] = {};
  int scratch_level = 0;
  bool scratch_per_thread = false;
  bool scratch_null[2] = {false, false};  // Kokkos handed out a null pointer
  int scratch_stand_ins = 0;              // views given the trace's own memory instead
  // Per (file, line): scratch views constructed so far on that line (to name them).
  std::vector<std::pair<std::int32_t, int>> scratch_on_line;

  // A collective: blocks until every member of the team reaches it; `combine` runs once, on the
  // last member to arrive, with every member's `slot` (in rank order), before anyone resumes.
  void collective(SyncKind kind, Loc loc, void* slot, const std::function<void(const std::vector<void*>&)>& combine);
  // Ends a vector loop (its lanes synchronise).
  void end_vector_loop() {
    flush_deferred();
    ++vepoch;
  }
  // At the end of the member's kernel: a request below what its scratch views need stops the run,
  // even where Kokkos' rounding let every view fit.
  void check_scratch_request() const;
};

// The member running on this thread (a flat kernel's iteration included), or nullptr outside
// traced kernels.
MemberCore* current_member();

struct TeamSetup {
  std::int32_t launch;
  int league, league_size, team_size, vector_length;
  std::size_t scratch_bytes[2];  // per level, the whole team's buffer (team + per-thread parts)
};

// Runs one team: `body` once per member, each on its own thread, one at a time. Rethrows the
// first error a member raised (KernelError, NotTraceable, TooLarge, or the kernel's own).
void run_team(const TeamSetup& setup, const std::function<void(MemberCore&, void* scratch0, void* scratch1)>& body);

// Recording hooks of the traced views. `describe` fills a ViewInfo from `view_object` the first
// time a view is seen.
using DescribeFn = void (*)(const void* view_object, ViewInfo& out);
void record_access(const void* view_data, bool scratch, const void* elem, std::int64_t offset, Access kind, Loc loc,
                   DescribeFn describe, const void* view_object);
// A scratch view was carved: `bytes` of elements (per member for thread_scratch) and `padding`,
// what its shmem_size adds for Kokkos' alignment. Returns where the view's elements are: `data`,
// or the trace's own memory where Kokkos handed out a null pointer.
void* note_scratch_view(const void* data, const std::vector<std::int64_t>& extents,
                        const std::vector<std::int64_t>& strides, std::size_t bytes, std::size_t padding, Loc loc);
// Thrown when traced code does something only possible outside team kernels (e.g. View::data()).
[[noreturn]] void not_traceable(const std::string& what, Loc loc);

// Largest team the trace build runs (any size works; this bounds thread counts).
inline constexpr int kMaxTeamSize = 256;
inline constexpr int kMaxVectorLength = 32;

}  // namespace kpz::trace
