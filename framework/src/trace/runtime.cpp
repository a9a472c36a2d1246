// The trace build's runtime: sessions, recording, and the deterministic team executor.
#include "kpz/trace/runtime.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <new>
#include <regex>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "kpz/trace/source.hpp"

namespace kpz::trace {

const char* to_string(Distribution d) { return d == Distribution::cyclic ? "cyclic" : "blockwise"; }

const char* to_string(SyncKind k) {
  switch (k) {
    case SyncKind::barrier: return "team_barrier";
    case SyncKind::reduce: return "team reduction";
    case SyncKind::scan: return "team_scan";
    default: return "team_broadcast";
  }
}

namespace {

Session* g_session = nullptr;
Distribution g_fallback = Distribution::cyclic;
thread_local MemberCore* tl_member = nullptr;
thread_local std::vector<std::pair<void (*)(void*), void*>> tl_deferred;

// Unwinds a member thread after another member failed.
struct Aborted {};

std::string where(Loc loc) {
  return loc.file ? display_path(loc.file) + ":" + std::to_string(loc.line) : std::string("?");
}

}  // namespace

struct Session::Index {
  std::unordered_map<const void*, std::int32_t> global;
  std::map<std::tuple<std::int32_t, std::int32_t, const void*>, std::int32_t> scratch;
  std::map<std::pair<const char*, int>, std::int32_t> loc_by_ptr;
  std::map<std::pair<std::string, int>, std::int32_t> loc_by_name;
};

// Friend access for the free recording functions.
struct SessionAccess {
  static Session::Index& index(Session& s) { return *s.index_; }
};

Session::Session(Distribution d, std::size_t max_events) : max_events_(max_events), index_(std::make_unique<Index>()) {
  if (g_session) throw std::logic_error("kpz::trace::Session: only one session may record at a time");
  rec_.distribution = d;
  g_session = this;
}

Session::~Session() {
  if (g_session == this) g_session = nullptr;
}

Session* Session::active() { return g_session; }

Recording Session::take() {
  flush_deferred();
  if (g_session == this) g_session = nullptr;
  return std::move(rec_);
}

std::int32_t Session::location(Loc loc) {
  const auto key = std::make_pair(loc.file, loc.line);
  if (auto it = index_->loc_by_ptr.find(key); it != index_->loc_by_ptr.end()) return it->second;
  const auto name = std::make_pair(std::string(loc.file ? loc.file : "?"), loc.line);
  std::int32_t id;
  if (auto it = index_->loc_by_name.find(name); it != index_->loc_by_name.end()) {
    id = it->second;
  } else {
    id = static_cast<std::int32_t>(rec_.locations.size());
    rec_.locations.push_back({name.first, name.second});
    index_->loc_by_name.emplace(name, id);
  }
  index_->loc_by_ptr.emplace(key, id);
  return id;
}

std::int32_t Session::begin_kernel(const std::string& label, int league_size, int team_size, int vector_length) {
  rec_.kernels.push_back({label, league_size, team_size, vector_length});
  return static_cast<std::int32_t>(rec_.kernels.size() - 1);
}

void Session::record(const Event& e) {
  if (rec_.events.size() >= max_events_)
    throw TooLarge("more than " + std::to_string(max_events_) + " recorded accesses");
  rec_.events.push_back(e);
}

Distribution current_distribution() { return g_session ? g_session->distribution() : g_fallback; }
void set_fallback_distribution(Distribution d) { g_fallback = d; }

MemberCore* current_member() { return tl_member; }

void defer_flush(void (*fn)(void*), void* obj) { tl_deferred.emplace_back(fn, obj); }

void flush_deferred() {
  if (tl_deferred.empty()) return;
  std::vector<std::pair<void (*)(void*), void*>> now;
  now.swap(tl_deferred);
  for (auto& [fn, obj] : now) fn(obj);
}

void record_access(const void* view_data, bool scratch, const void* elem, std::int64_t offset, Access kind, Loc loc,
                   DescribeFn describe, const void* view_object) {
  flush_deferred();  // earlier accesses first
  Session* s = g_session;
  if (!s) return;
  MemberCore* m = tl_member;
  if (!m || m->launch < 0) {
    ++s->data().untraced;
    return;
  }
  auto& index = SessionAccess::index(*s);
  Recording& rec = s->data();
  std::int32_t view;
  auto create = [&](bool is_scratch) {
    ViewInfo info;
    if (describe) describe(view_object, info);
    info.scratch = is_scratch;
    if (is_scratch) {
      info.launch = m->launch;
      info.league = m->league;
      if (info.name.empty() || info.name == "view") info.name = "scratch";
    }
    info.data = view_data;
    info.first_event = static_cast<std::int32_t>(rec.events.size());
    rec.views.push_back(std::move(info));
    return static_cast<std::int32_t>(rec.views.size() - 1);
  };
  if (scratch) {
    const auto key = std::make_tuple(m->launch, static_cast<std::int32_t>(m->league), view_data);
    auto it = index.scratch.find(key);
    view = it != index.scratch.end() ? it->second : index.scratch.emplace(key, create(true)).first->second;
  } else {
    auto it = index.global.find(view_data);
    view = it != index.global.end() ? it->second : index.global.emplace(view_data, create(false)).first->second;
  }
  if (rec.views[view].first_event < 0) rec.views[view].first_event = static_cast<std::int32_t>(rec.events.size());
  Event e;
  e.addr = reinterpret_cast<std::uintptr_t>(elem);
  e.offset = offset;
  e.view = view;
  e.launch = m->launch;
  e.league = m->league;
  e.rank = m->rank;
  e.lane = m->lane;
  e.epoch = m->epoch;
  e.vepoch = m->vepoch;
  e.loc = s->location(loc);
  e.kind = kind;
  s->record(e);
}

void note_scratch_view(const void* data, std::size_t elem_size, const std::vector<std::int64_t>& extents,
                       const std::vector<std::int64_t>& strides, std::size_t bytes_requested, Loc loc) {
  MemberCore* m = tl_member;
  if (!m) return;
  if (!data && bytes_requested > 0)
    throw KernelError("the scratch view at " + where(loc) + " needs " + std::to_string(bytes_requested) +
                      " more bytes than the team's scratch has left: the policy's set_scratch_size asks for too "
                      "little (Kokkos would hand out a null pointer silently)");
  Session* s = g_session;
  if (!s || m->launch < 0) return;
  const std::int32_t loc_id = s->location(loc);
  int occurrence = 0;
  bool found = false;
  for (auto& [id, count] : m->scratch_on_line)
    if (id == loc_id) {
      occurrence = count++;
      found = true;
    }
  if (!found) m->scratch_on_line.emplace_back(loc_id, 1);
  auto& index = SessionAccess::index(*s);
  const auto key = std::make_tuple(m->launch, static_cast<std::int32_t>(m->league), data);
  if (index.scratch.count(key)) return;
  ViewInfo info;
  info.name = scratch_view_name(loc.file ? loc.file : "", loc.line, occurrence);
  info.scratch = true;
  info.launch = m->launch;
  info.league = m->league;
  info.data = data;
  info.elem_size = elem_size;
  info.extents = extents;
  info.strides = strides;
  Recording& rec = s->data();
  rec.views.push_back(std::move(info));
  index.scratch.emplace(key, static_cast<std::int32_t>(rec.views.size() - 1));
}

void not_traceable(const std::string& what, Loc loc) {
  throw NotTraceable(what + (loc.line > 0 ? " at " + where(loc) : std::string()));
}

void throw_out_of_bounds(const void* data, const std::string& label, bool scratch, std::size_t dim,
                         std::int64_t index, std::int64_t extent, Loc loc) {
  std::string name = label;
  if (scratch) {
    name = "a scratch view";
    if (Session* s = g_session; s && tl_member) {
      auto& idx = SessionAccess::index(*s).scratch;
      auto it = idx.find(std::make_tuple(tl_member->launch, static_cast<std::int32_t>(tl_member->league), data));
      if (it != idx.end()) name = s->recording().views[it->second].name;
    }
  }
  std::string who;
  if (tl_member) who = " (team " + std::to_string(tl_member->league) + ", member " + std::to_string(tl_member->rank) + ")";
  throw KernelError("out of bounds: index " + std::to_string(index) + " of dimension " + std::to_string(dim) + " of " +
                    (name.empty() ? std::string("a view") : name) + " (extent " + std::to_string(extent) + ") at " +
                    where(loc) + who);
}

void check_policy(int league, int team, int vector) {
  if (league < 0) throw KernelError("TeamPolicy with a negative league size");
  if (team < 1 || team > kMaxTeamSize)
    throw KernelError("TeamPolicy team size " + std::to_string(team) + ": the trace build runs 1.." +
                      std::to_string(kMaxTeamSize));
  if (vector < 1 || vector > kMaxVectorLength)
    throw KernelError("TeamPolicy vector length " + std::to_string(vector) + ": allowed 1.." +
                      std::to_string(kMaxVectorLength));
}

// ---- The team executor ---------------------------------------------------------------------

class TeamCore {
 public:
  explicit TeamCore(const TeamSetup& s)
      : setup(s),
        cv(static_cast<std::size_t>(s.team_size)),
        state(static_cast<std::size_t>(s.team_size), kRunnable),
        slots(static_cast<std::size_t>(s.team_size), nullptr),
        kinds(static_cast<std::size_t>(s.team_size), SyncKind::barrier),
        locs(static_cast<std::size_t>(s.team_size), Loc{nullptr, 0}) {}

  static constexpr int kRunnable = 0, kWaiting = 1, kFinished = 2;

  const TeamSetup& setup;
  std::mutex m;
  std::vector<std::condition_variable> cv;
  std::vector<int> state;
  std::vector<void*> slots;
  std::vector<SyncKind> kinds;
  std::vector<Loc> locs;
  int running = 0, arrived = 0, finished = 0, epoch = 0, barriers = 0, collectives = 0;
  bool aborted = false;
  std::exception_ptr error;

  std::string team_name() const {
    return "team " + std::to_string(setup.league) + " (league rank " + std::to_string(setup.league) + ")";
  }

  // Hands the token to the next runnable member after `from` (in rank order, wrapping).
  bool pass_after(int from) {
    const int t = setup.team_size;
    for (int k = 1; k <= t; ++k) {
      const int r = (from + k) % t;
      if (state[r] == kRunnable) {
        running = r;
        cv[r].notify_one();
        return true;
      }
    }
    return false;
  }

  void wait_turn(std::unique_lock<std::mutex>& lk, int rank) {
    cv[rank].wait(lk, [&] { return running == rank || aborted; });
    if (aborted) throw Aborted{};
  }

  [[noreturn]] void fail(std::unique_lock<std::mutex>& lk, const std::string& message) {
    if (!error) error = std::make_exception_ptr(KernelError(message));
    aborted = true;
    for (auto& c : cv) c.notify_all();
    lk.unlock();
    throw Aborted{};
  }

  std::string members_in(int st) const {
    std::string out;
    for (int r = 0; r < setup.team_size; ++r)
      if (state[r] == st) out += (out.empty() ? "" : ", ") + std::to_string(r);
    return out;
  }

  void divergence(std::unique_lock<std::mutex>& lk) {
    int first = 0;
    while (state[first] != kWaiting) ++first;
    fail(lk, team_name() + ": members " + members_in(kWaiting) + " wait at " + to_string(kinds[first]) + " (" +
                 where(locs[first]) + ") but members " + members_in(kFinished) +
                 " returned without reaching it. Every member must reach every collective: is it inside an `if` "
                 "that not every member takes?");
  }
};

void MemberCore::collective(SyncKind kind, Loc loc,
                            void* slot, const std::function<void(const std::vector<void*>&)>& combine) {
  flush_deferred();
  const char* what = to_string(kind);
  if (range_depth > 0)
    throw KernelError(std::string(what) + " at " + where(loc) +
                      " inside a TeamThreadRange/TeamVectorRange body: members reach it a different number of times. "
                      "Move it after the loop.");
  if (vector_depth > 0)
    throw KernelError(std::string(what) + " at " + where(loc) + " inside a ThreadVectorRange body");
  if (single_depth > 0)
    throw KernelError(std::string(what) + " at " + where(loc) +
                      " inside Kokkos::single(PerTeam): only member 0 reaches it");
  TeamCore& t = *team;
  std::unique_lock<std::mutex> lk(t.m);
  t.state[rank] = TeamCore::kWaiting;
  t.slots[rank] = slot;
  t.kinds[rank] = kind;
  t.locs[rank] = loc;
  ++t.arrived;
  if (t.arrived + t.finished == team_size) {
    if (t.finished > 0) t.divergence(lk);
    for (int r = 1; r < team_size; ++r)
      if (t.kinds[r] != t.kinds[0])
        t.fail(lk, t.team_name() + ": members reached different collectives: member 0 " + to_string(t.kinds[0]) +
                       " at " + where(t.locs[0]) + ", member " + std::to_string(r) + " " + to_string(t.kinds[r]) +
                       " at " + where(t.locs[r]));
    if (combine) combine(t.slots);
    ++t.epoch;
    (t.kinds[0] == SyncKind::barrier ? t.barriers : t.collectives) += 1;
    if (Session* s = g_session; s && launch >= 0)
      s->data().syncs.push_back({launch, league, t.epoch, t.kinds[0], s->location(t.locs[0])});
    for (int r = 0; r < team_size; ++r)
      if (t.state[r] == TeamCore::kWaiting) t.state[r] = TeamCore::kRunnable;
    t.arrived = 0;
    t.running = -1;
    t.pass_after(team_size - 1);  // rank 0 first
  } else if (!t.pass_after(rank)) {
    t.fail(lk, "internal error: no runnable member");
  }
  t.wait_turn(lk, rank);
  epoch = t.epoch;
}

void run_team(const TeamSetup& setup, const std::function<void(MemberCore&, void*, void*)>& body) {
  TeamCore team(setup);
  // Scratch, filled with 0xFF bytes (NaN floats, -1 integers) so stale reads stand out.
  struct Buffer {
    std::size_t bytes;
    void* p;
    explicit Buffer(std::size_t n) : bytes(n), p(n ? ::operator new(n, std::align_val_t(64)) : nullptr) {
      if (p) std::memset(p, 0xFF, n);
    }
    ~Buffer() {
      if (p) ::operator delete(p, std::align_val_t(64));
    }
  } l0(setup.scratch_bytes[0]), l1(setup.scratch_bytes[1]);

  Session* session = g_session;
  const Distribution dist = current_distribution();
  std::vector<MemberCore> cores(static_cast<std::size_t>(setup.team_size));
  for (int r = 0; r < setup.team_size; ++r) {
    MemberCore& c = cores[r];
    c.team = &team;
    c.launch = session ? setup.launch : -1;
    c.league = setup.league;
    c.league_size = setup.league_size;
    c.rank = r;
    c.team_size = setup.team_size;
    c.vector_length = setup.vector_length;
    c.distribution = dist;
  }
  auto member_main = [&](int rank) {
    MemberCore& me = cores[rank];
    tl_member = &me;
    try {
      {
        std::unique_lock<std::mutex> lk(team.m);
        team.wait_turn(lk, rank);
      }
      body(me, l0.p, l1.p);
      flush_deferred();
      std::unique_lock<std::mutex> lk(team.m);
      team.state[rank] = TeamCore::kFinished;
      ++team.finished;
      if (team.arrived > 0 && team.arrived + team.finished == setup.team_size) team.divergence(lk);
      team.pass_after(rank);
    } catch (const Aborted&) {
      tl_deferred.clear();
    } catch (...) {
      tl_deferred.clear();
      std::lock_guard<std::mutex> lk(team.m);
      if (!team.error) team.error = std::current_exception();
      team.aborted = true;
      for (auto& c : team.cv) c.notify_all();
    }
    tl_member = nullptr;
  };
  std::vector<std::thread> threads;
  threads.reserve(cores.size());
  for (int r = 0; r < setup.team_size; ++r) threads.emplace_back(member_main, r);
  for (auto& th : threads) th.join();
  if (session && setup.launch >= 0) {
    TeamInfo info{setup.launch, setup.league, setup.team_size, setup.vector_length};
    info.epochs = team.epoch + 1;
    info.barriers = team.barriers;
    info.collectives = team.collectives;
    session->data().teams.push_back(info);
  }
  if (team.error) std::rethrow_exception(team.error);
}

}  // namespace kpz::trace
