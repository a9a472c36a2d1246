#pragma once
// The trace build's team policy and team member (KPZ_TRACE): what kpz::TeamPolicy and
// kpz::TeamMember become (team.hpp), with the member's own collectives (team_barrier,
// team_broadcast, team_reduce, team_scan) run by the team executor (runtime.hpp).
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

#include "kpz/trace/runtime.hpp"
#include "kpz/trace/view.hpp"

namespace kpz::trace {

template <class T>
inline constexpr bool dependent_false = false;

template <class Space>
class Member;

template <class Space>
class TeamPolicy {
 public:
  using execution_space = Space;
  using member_type = Member<Space>;

  TeamPolicy(const Space& space, int league, int team, int vector = 1) : space_(space) { init(league, team, vector); }
  TeamPolicy(const Space& space, int league, Kokkos::AUTO_t, int vector = 1) : space_(space) {
    init(league, kAutoTeamSize, vector);
  }
  TeamPolicy(const Space& space, int league, Kokkos::AUTO_t, Kokkos::AUTO_t) : space_(space) {
    init(league, kAutoTeamSize, 1);
  }
  TeamPolicy(const Space& space, int league, int team, Kokkos::AUTO_t) : space_(space) { init(league, team, 1); }
  TeamPolicy(int league, int team, int vector = 1) { init(league, team, vector); }
  TeamPolicy(int league, Kokkos::AUTO_t, int vector = 1) { init(league, kAutoTeamSize, vector); }
  TeamPolicy(int league, Kokkos::AUTO_t, Kokkos::AUTO_t) { init(league, kAutoTeamSize, 1); }
  TeamPolicy(int league, int team, Kokkos::AUTO_t) { init(league, team, 1); }

  TeamPolicy& set_scratch_size(int level, const Kokkos::Impl::PerTeamValue& team) {
    team_bytes_[check_level(level)] = team.value;
    return *this;
  }
  TeamPolicy& set_scratch_size(int level, const Kokkos::Impl::PerThreadValue& thread) {
    thread_bytes_[check_level(level)] = thread.value;
    return *this;
  }
  TeamPolicy& set_scratch_size(int level, const Kokkos::Impl::PerTeamValue& team,
                               const Kokkos::Impl::PerThreadValue& thread) {
    team_bytes_[check_level(level)] = team.value;
    thread_bytes_[level] = thread.value;
    return *this;
  }

  int league_size() const { return league_; }
  int team_size() const { return team_; }
  int impl_vector_length() const { return vector_; }
  const Space& space() const { return space_; }
  std::size_t team_scratch_size(int level) const { return team_bytes_[level]; }
  std::size_t thread_scratch_size(int level) const { return thread_bytes_[level]; }
  int scratch_size(int level, int team_size = -1) const {
    return static_cast<int>(team_bytes_[level] + thread_bytes_[level] * (team_size < 0 ? team_ : team_size));
  }
  template <class F, class Tag>
  int team_size_max(const F&, const Tag&) const {
    return kMaxTeamSize;
  }
  template <class F, class Tag>
  int team_size_recommended(const F&, const Tag&) const {
    return kAutoTeamSize;
  }
  static int scratch_size_max(int level) { return Kokkos::TeamPolicy<Space>::scratch_size_max(level); }

  // Kokkos::AUTO in the trace build.
  static constexpr int kAutoTeamSize = 4;

 private:
  void init(int league, int team, int vector);
  static int check_level(int level) {
    if (level != 0 && level != 1) throw KernelError("set_scratch_size: level must be 0 or 1");
    return level;
  }
  Space space_{};
  int league_ = 0, team_ = 1, vector_ = 1;
  std::size_t team_bytes_[2] = {0, 0}, thread_bytes_[2] = {0, 0};
};

void check_policy(int league, int team, int vector);

template <class Space>
void TeamPolicy<Space>::init(int league, int team, int vector) {
  check_policy(league, team, vector);
  league_ = league;
  team_ = team;
  int v = 1;  // as on CUDA: rounded down to a power of two
  while (v * 2 <= vector) v *= 2;
  vector_ = v;
}

template <class Space>
class Member {
 public:
  using execution_space = Space;
  using scratch_memory_space = typename Space::scratch_memory_space;
  using team_handle = Member;

  Member(MemberCore& core, void* s0, std::size_t n0, void* s1, std::size_t n1)
      : core_(&core), scratch_(s0, n0, s1, n1) {
    core.scratch_requested[0] = n0;
    core.scratch_requested[1] = n1;
  }
  Member(const Member&) = delete;
  Member& operator=(const Member&) = delete;

  int league_rank() const { return core_->league; }
  int league_size() const { return core_->league_size; }
  int team_rank() const { return core_->rank; }
  int team_size() const { return core_->team_size; }

  // The level is remembered for the scratch view built from the result (its overflow message).
  const scratch_memory_space& team_scratch(int level) const {
    core_->scratch_level = level;
    core_->scratch_per_thread = false;
    return scratch_.set_team_thread_mode(level, 1, 0);
  }
  const scratch_memory_space& thread_scratch(int level) const {
    core_->scratch_level = level;
    core_->scratch_per_thread = true;
    return scratch_.set_team_thread_mode(level, team_size(), team_rank());
  }
  const scratch_memory_space& team_shmem() const { return team_scratch(0); }

  void team_barrier(Loc loc = KPZ_TRACE_HERE) const { core_->collective(SyncKind::barrier, loc, nullptr, nullptr); }

  template <class T>
  void team_broadcast(T& value, const int root, Loc loc = KPZ_TRACE_HERE) const {
    check_root(root, loc);
    core_->collective(SyncKind::broadcast, loc, &value, [root](const std::vector<void*>& slots) {
      const T v = *static_cast<T*>(slots[root]);
      for (void* s : slots) *static_cast<T*>(s) = v;
    });
  }
  template <class F, class T>
  void team_broadcast(const F& f, T& value, const int root, Loc loc = KPZ_TRACE_HERE) const {
    check_root(root, loc);
    if (team_rank() == root) f(value);
    team_broadcast(value, root, loc);
  }

  template <class R>
  requires Kokkos::is_reducer<R>::value void team_reduce(const R& reducer, Loc loc = KPZ_TRACE_HERE) const {
    typename R::value_type& mine = reducer.reference();
    core_->collective(SyncKind::reduce, loc, &mine, [reducer](const std::vector<void*>& slots) {
      typename R::value_type total = *static_cast<typename R::value_type*>(slots[0]);
      for (std::size_t r = 1; r < slots.size(); ++r)
        reducer.join(total, *static_cast<typename R::value_type*>(slots[r]));
      for (void* s : slots) *static_cast<typename R::value_type*>(s) = total;
    });
  }
  template <class R>
  requires Kokkos::is_reducer<R>::value void team_reduce(const R& reducer, const typename R::value_type contribution,
                                                         Loc loc = KPZ_TRACE_HERE) const {
    reducer.reference() = contribution;
    team_reduce(reducer, loc);
  }

  // Exclusive prefix sum over team ranks (team_scan is sum-only in Kokkos).
  template <class T>
  T team_scan(const T& value, Loc loc = KPZ_TRACE_HERE) const {
    return scan_impl(
        value, [](T) { return T(); }, loc);
  }
  template <class T>
  T team_scan(const T& value, T* const global, Loc loc = KPZ_TRACE_HERE) const {
    return scan_impl(
        value,
        [global](T total) {
          if (!global) return T();
          const T old = *global;
          *global += total;
          return old;
        },
        loc);
  }
  template <class T, class P>
  T team_scan(const T& value, const Ptr<P>& global, Loc loc = KPZ_TRACE_HERE) const {
    return scan_impl(
        value, [global](T total) { return static_cast<T>(Kokkos::atomic_fetch_add(global, total)); }, loc);
  }

  MemberCore& core() const { return *core_; }

 private:
  void check_root(int root, Loc loc) const {
    if (root < 0 || root >= team_size())
      throw KernelError("team_broadcast from rank " + std::to_string(root) + " in a team of " +
                        std::to_string(team_size()) + " at " + (loc.file ? loc.file : "?") + ":" +
                        std::to_string(loc.line));
  }
  template <class T, class Global>
  T scan_impl(const T& value, Global global, Loc loc) const {
    struct Slot {
      T value, result;
    } mine{value, T()};
    core_->collective(SyncKind::scan, loc, &mine, [global](const std::vector<void*>& slots) {
      T sum = T();
      for (void* s : slots) {
        auto* slot = static_cast<Slot*>(s);
        slot->result = sum;
        sum += slot->value;
      }
      const T base = global(sum);
      for (void* s : slots) static_cast<Slot*>(s)->result += base;
    });
    return mine.result;
  }

  MemberCore* core_;
  scratch_memory_space scratch_;
};

}  // namespace kpz::trace
