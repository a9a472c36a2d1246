// The trace build's runtime: sessions and recording (the team executor: team_executor.cpp).
#include "kpz/trace/runtime.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

#include "kpz/lookup.hpp"
#include "kpz/trace/analysis.hpp"
#include "kpz/trace/source.hpp"
#include "runtime_internal.hpp"

namespace kpz::trace {

const char* to_string(Distribution d) {
  return d == Distribution::cyclic ? "cyclic" : "blockwise";
}

const char* to_string(SyncKind k) {
  return by_enum<SyncKind::broadcast>({"team_barrier", "team reduction", "team_scan", "team_broadcast"}, k);
}

namespace {

Session* g_session = nullptr;
thread_local MemberCore* tl_member = nullptr;
thread_local std::vector<std::pair<void (*)(void*), void*>> tl_deferred;

}  // namespace

namespace executor {

std::string where(Loc loc) {
  return loc.file ? display_path(loc.file) + ":" + std::to_string(loc.line) : std::string("?");
}

void set_current_member(MemberCore* m) {
  tl_member = m;
}
void drop_deferred() {
  tl_deferred.clear();
}

}  // namespace executor

using executor::where;

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

Session* Session::active() {
  return g_session;
}

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

std::int32_t Session::begin_flat_kernel(const std::string& label, const FlatShape& shape) {
  const std::int64_t n = shape.iterations();
  KernelInfo k{label, 1, static_cast<int>(std::min<std::int64_t>(n, std::numeric_limits<int>::max())), 1, shape};
  rec_.kernels.push_back(std::move(k));
  return static_cast<std::int32_t>(rec_.kernels.size() - 1);
}

void Session::record(const Event& e) {
  if (rec_.events.size() >= max_events_)
    throw TooLarge("more than " + std::to_string(max_events_) + " recorded accesses");
  rec_.events.push_back(e);
}

Distribution current_distribution() {
  return g_session ? g_session->distribution() : Distribution::cyclic;
}

MemberCore* current_member() {
  return tl_member;
}

void defer_flush(void (*fn)(void*), void* obj) {
  tl_deferred.emplace_back(fn, obj);
}

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
    if (is_scratch && (info.name.empty() || info.name == "view")) info.name = "scratch";
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
  // Code of a member outside its vector loops and outside Kokkos::single runs on every vector
  // lane of the member (on a GPU, every thread of the member's warp slice): with more than one
  // lane, a plain write there is written by all of them. Recorded as lanes 0 and 1, it is the
  // race it is on the GPU, where the values may agree and the answer still look right.
  if (kind == Access::write && m->vector_length > 1 && m->vector_depth == 0 && m->team_vector_depth == 0 &&
      m->single_depth == 0 && m->thread_single_depth == 0) {
    e.every_lane = true;
    e.lane = 0;
    s->record(e);
    e.lane = 1;
  }
  s->record(e);
  if (m->scan_prefix_pass && kind != Access::read)
    throw KernelError("parallel_scan: " + m->flat->iteration(m->rank) + " writes " + cell_name(rec, view, offset) +
                      " at " + where(loc) +
                      " in a call with final == false. Kokkos calls the functor with final == false to add up "
                      "partial sums (on a GPU once per block, before the final pass) and requires those calls to "
                      "have no side effects: write only when final is true");
}

namespace {

std::string scratch_short(int level, const std::string& need, const std::string& which, std::size_t requested,
                          bool null_pointer) {
  return "scratch level " + std::to_string(level) + ": the scratch views need " + need +
         " bytes per team (the sum of their shmem_size; " + which + "), the launch requested " +
         std::to_string(requested) + ": set_scratch_size asks for too little (" +
         (null_pointer ? "Kokkos hands out a null pointer silently; on a GPU the kernel reads and writes memory it "
                         "does not own"
                       : "every view fit here only because Kokkos pads a view no further than its address needs and "
                         "may round the request up: with other sizes or on a GPU one gets a null pointer, silently") +
         ")";
}

}  // namespace

// What a view needs is what Kokkos' bump allocator may take for it: its bytes (times the team
// size for thread_scratch) plus up to its alignment to pad the start, which is the padding its
// shmem_size adds. The sum over the views, in the order they are carved, is the request Kokkos
// documents as safe; the allocator itself pads only as far as the address needs, and the host
// backends round the request up, so an undersized request often fits here: the check is this
// sum, not a null pointer. An empty view never fails in Kokkos and needs nothing.
void* note_scratch_view(const void* data, const std::vector<std::int64_t>& extents,
                        const std::vector<std::int64_t>& strides, std::size_t bytes, std::size_t padding, Loc loc) {
  MemberCore* m = tl_member;
  if (!m) return const_cast<void*>(data);
  const int level = m->scratch_level == 1 ? 1 : 0;
  if (bytes > 0) {
    const std::size_t copies = m->scratch_per_thread ? static_cast<std::size_t>(m->team_size) : 1;
    m->scratch_needed[level] += bytes * copies + padding;
    if (m->scratch_needed[level] > m->scratch_requested[level] && !m->scratch_short_at[level].file)
      m->scratch_short_at[level] = loc;
    if (!data) {
      m->scratch_null[level] = true;
      char* block = static_cast<char*>(executor::scratch_stand_in(*m, bytes * copies));
      if (!block)
        throw KernelError(scratch_short(level, "at least " + std::to_string(m->scratch_needed[level]),
                                        "up to the view at " + where(loc) + ", which does not fit",
                                        m->scratch_requested[level], true));
      data = block + (m->scratch_per_thread ? static_cast<std::size_t>(m->rank) * bytes : 0);
    }
  }
  Session* s = g_session;
  if (!s || m->launch < 0) return const_cast<void*>(data);
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
  if (index.scratch.count(key)) return const_cast<void*>(data);
  ViewInfo info;
  info.name = scratch_view_name(loc.file ? loc.file : "", loc.line, occurrence);
  info.scratch = true;
  info.extents = extents;
  info.strides = strides;
  Recording& rec = s->data();
  rec.views.push_back(std::move(info));
  index.scratch.emplace(key, static_cast<std::int32_t>(rec.views.size() - 1));
  return const_cast<void*>(data);
}

void MemberCore::check_scratch_request() const {
  for (int level = 0; level < 2; ++level)
    if (scratch_needed[level] > scratch_requested[level])
      throw KernelError(
          scratch_short(level, std::to_string(scratch_needed[level]),
                        "the view at " + where(scratch_short_at[level]) + " is the first that does not fit",
                        scratch_requested[level], scratch_null[level]));
}

void not_traceable(const std::string& what, Loc loc) {
  throw NotTraceable(what + (loc.line > 0 ? " at " + where(loc) : std::string()));
}

void throw_out_of_bounds(const void* data, const std::string& label, bool scratch, std::size_t dim, std::int64_t index,
                         std::int64_t extent, Loc loc) {
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
  if (tl_member && tl_member->flat)
    who = " (" + tl_member->flat->iteration(tl_member->rank) + " of a flat kernel)";
  else if (tl_member)
    who = " (team " + std::to_string(tl_member->league) + ", member " + std::to_string(tl_member->rank) + ")";
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

}  // namespace kpz::trace
