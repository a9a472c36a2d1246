// The trace build's flat kernels (flat.hpp): the iteration space, and a launch whose members are
// its iterations, run one after another on the calling thread.
#include <algorithm>
#include <limits>
#include <utility>

#include "kpz/trace/flat.hpp"
#include "runtime_internal.hpp"

namespace kpz::trace {

std::int64_t FlatShape::iterations() const {
  if (extent.empty()) return 0;
  std::int64_t n = 1;
  for (const std::int64_t e : extent) n *= std::max<std::int64_t>(e, 0);
  return n;
}

std::string FlatShape::iteration(std::int64_t linear) const {
  if (extent.size() <= 1) return "iteration " + std::to_string((begin.empty() ? 0 : begin[0]) + linear);
  // Row-major: the last index varies fastest.
  std::vector<std::int64_t> index(extent.size());
  for (std::size_t d = extent.size(); d-- > 0;) {
    const std::int64_t e = std::max<std::int64_t>(extent[d], 1);
    index[d] = begin[d] + linear % e;
    linear /= e;
  }
  std::string s = "iteration (";
  for (std::size_t d = 0; d < index.size(); ++d) s += (d ? ", " : "") + std::to_string(index[d]);
  return s + ")";
}

std::string FlatShape::describe() const {
  std::string s = policy + " ";
  for (std::size_t d = 0; d < extent.size(); ++d)
    s += (d ? " x [" : "[") + std::to_string(begin[d]) + ", " + std::to_string(begin[d] + extent[d]) + ")";
  return s;
}

FlatLaunch::FlatLaunch(const std::string& label, FlatShape shape) : shape_(std::move(shape)) {
  if (current_member())
    throw KernelError("a " + shape_.policy + " kernel (\"" + label +
                      "\") launched inside another kernel: Kokkos launches kernels from host code only");
  flush_deferred();  // the host code's accesses before the launch are not the kernel's
  count_ = shape_.iterations();
  Session* s = Session::active();
  core_.launch = s ? s->begin_flat_kernel(label, shape_) : -1;
  first_event_ = s ? s->recording().events.size() : 0;
  core_.team_size = static_cast<int>(std::min<std::int64_t>(count_, std::numeric_limits<int>::max()));
  core_.distribution = current_distribution();
  core_.flat = &shape_;
  executor::set_current_member(&core_);
}

FlatLaunch::~FlatLaunch() {
  if (!finished_) executor::drop_deferred();  // an iteration failed: the run stops here
  executor::set_current_member(nullptr);
  // The launch's "team", for the diagrams; Kokkos' own launches (deep_copy, a ScatterView's
  // reset and contribute) touch only plain Kokkos::Views and record nothing: they are not drawn.
  Session* s = Session::active();
  if (!s || core_.launch < 0 || s->recording().events.size() == first_event_) return;
  try {
    s->data().teams.push_back(TeamInfo{core_.launch, 0, core_.team_size, 1});
  } catch (...) {  // out of memory while unwinding: the diagram goes without this launch
  }
}

void FlatLaunch::iteration(std::int64_t linear) {
  flush_deferred();  // the previous iteration's element accesses are its own
  core_.rank = static_cast<int>(std::min<std::int64_t>(linear, std::numeric_limits<int>::max()));
}

void FlatLaunch::scan_pass(bool final) {
  flush_deferred();
  core_.scan_prefix_pass = !final;
}

void FlatLaunch::finish() {
  flush_deferred();
  core_.scan_prefix_pass = false;
  finished_ = true;
}

}  // namespace kpz::trace
