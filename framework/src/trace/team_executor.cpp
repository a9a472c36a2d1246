// The trace build's deterministic team executor: one thread per member, one token per team.
#include <condition_variable>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <thread>

#include "kpz/trace/runtime.hpp"
#include "runtime_internal.hpp"

namespace kpz::trace {

namespace {

using executor::where;

// Unwinds a member thread after another member failed.
struct Aborted {};

// Scratch, filled with 0xFF bytes (NaN floats, -1 integers) so stale reads stand out.
struct ScratchBlock {
  std::size_t bytes;
  void* p;
  explicit ScratchBlock(std::size_t n) : bytes(n), p(n ? ::operator new(n, std::align_val_t(64)) : nullptr) {
    if (p) std::memset(p, 0xFF, n);
  }
  ScratchBlock(const ScratchBlock&) = delete;
  ScratchBlock& operator=(const ScratchBlock&) = delete;
  ~ScratchBlock() {
    if (p) ::operator delete(p, std::align_val_t(64));
  }
};

// A stand-in bigger than this is a size gone wrong, not a request a few bytes short.
constexpr std::size_t kMaxStandIn = std::size_t{64} << 20;

}  // namespace

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
  std::vector<std::unique_ptr<ScratchBlock>> stand_ins;  // scratch_stand_in, in the order carved

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

void MemberCore::collective(SyncKind kind, Loc loc, void* slot,
                            const std::function<void(const std::vector<void*>&)>& combine) {
  flush_deferred();
  const char* what = to_string(kind);
  if (range_depth > 0)
    throw KernelError(std::string(what) + " at " + where(loc) +
                      " inside a TeamThreadRange/TeamVectorRange body: members reach it a different number of times. "
                      "Move it after the loop.");
  if (vector_depth > 0) throw KernelError(std::string(what) + " at " + where(loc) + " inside a ThreadVectorRange body");
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
    if (Session* s = Session::active(); s && launch >= 0)
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

void* executor::scratch_stand_in(MemberCore& m, std::size_t bytes) {
  if (!m.team || bytes > kMaxStandIn) return nullptr;
  TeamCore& t = *m.team;
  std::lock_guard<std::mutex> lk(t.m);
  const std::size_t k = static_cast<std::size_t>(m.scratch_stand_ins++);
  if (k == t.stand_ins.size()) t.stand_ins.push_back(std::make_unique<ScratchBlock>(bytes));
  return k < t.stand_ins.size() && t.stand_ins[k]->bytes == bytes ? t.stand_ins[k]->p : nullptr;
}

void run_team(const TeamSetup& setup, const std::function<void(MemberCore&, void*, void*)>& body) {
  TeamCore team(setup);
  const ScratchBlock l0(setup.scratch_bytes[0]), l1(setup.scratch_bytes[1]);

  Session* session = Session::active();
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
    executor::set_current_member(&me);
    try {
      {
        std::unique_lock<std::mutex> lk(team.m);
        team.wait_turn(lk, rank);
      }
      body(me, l0.p, l1.p);
      flush_deferred();
      me.check_scratch_request();
      std::unique_lock<std::mutex> lk(team.m);
      team.state[rank] = TeamCore::kFinished;
      ++team.finished;
      if (team.arrived > 0 && team.arrived + team.finished == setup.team_size) team.divergence(lk);
      team.pass_after(rank);
    } catch (const Aborted&) {
      executor::drop_deferred();
    } catch (...) {
      executor::drop_deferred();
      std::lock_guard<std::mutex> lk(team.m);
      if (!team.error) team.error = std::current_exception();
      team.aborted = true;
      for (auto& c : team.cv) c.notify_all();
    }
    executor::set_current_member(nullptr);
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
