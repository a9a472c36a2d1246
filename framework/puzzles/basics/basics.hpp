#pragma once
// basics: the on-ramp, one small kernel per Kokkos concept (Views and deep_copy, DualView,
// RangePolicy, MDRangePolicy, subviews, reducers and a custom reducer, scans, atomics and
// ScatterView, TeamPolicy, team scratch, vector lanes, Kokkos Tools). The kernel signatures
// (signatures.inc) are implemented twice, with the same text: by the learner in exercises/basics/
// (namespace kpz::basics::exercise) and in reference/basics/ (namespace kpz::basics::reference).
#include <Kokkos_Core.hpp>
#include <Kokkos_DualView.hpp>
#include <Kokkos_ScatterView.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "basics/signatures.inc"
#include "kpz/kernel_table.hpp"
#include "kpz/spaces.hpp"
#include "kpz/types.hpp"

namespace kpz::basics {

// A View in host memory: `--views` hands its kernel the host's data in these.
template <class DataType>
using HostView = Kokkos::View<DataType, Kokkos::HostSpace>;

// What `--dualview`'s DualView has been told, kept on every backend (the flags below).
struct DualRecord {
  // Kokkos' two "modified" counters (0: the host side, 1: the device side), kept as Kokkos keeps
  // them where host and device memory differ: the side with the larger count holds newer data.
  unsigned modified[2] = {0, 0};
  // Which write each side holds (a modify starts a new one, a sync copies it across): a side
  // whose version is below the other's is stale, whatever the counters say.
  int version[2] = {0, 0};
  int writes = 0;
  std::vector<std::string> calls;  // every modify, sync and clear_sync_state call, in order
  std::string conflict;            // a modify of one side while the other's changes were unsynced
};

// `--dualview`'s DualView: a Kokkos::DualView, the same members, that also keeps a DualRecord.
// Kokkos::DualView keeps its flags only where host and device memory differ (a GPU): on a host
// backend its two Views are one, and modify_host, sync_device and need_sync_device do nothing
// (Kokkos 5.0.2 returns at once when both sides have one device type). A missing sync costs
// nothing there and breaks on a GPU, so this one also keeps the flags itself, on every backend,
// and the checker judges them. Copies share the record, as they share the Views.
template <class DataType, class Space>
class DualView : public Kokkos::DualView<DataType, Space> {
  using Base = Kokkos::DualView<DataType, Space>;

 public:
  DualView() = default;
  DualView(const std::string& label, std::size_t n) : Base(label, n), record_(std::make_shared<DualRecord>()) {}
  // Over two Views the caller made (one View where the host can reach the device's memory).
  DualView(const typename Base::t_dev& device, const typename Base::t_host& host)
      : Base(device, host), record_(std::make_shared<DualRecord>()) {}

  const DualRecord& record() const { return *record_; }

  // Mark one side's data as newer than the other's.
  void modify_host() {
    if (mark(0, "modify_host")) Base::modify_host();
  }
  void modify_device() {
    if (mark(1, "modify_device")) Base::modify_device();
  }
  // Copy the newer side over the other, if the other is the one named; without an instance the
  // copy is finished on return, with one it runs on that instance.
  void sync_host() {
    copy_to(0, "sync_host");
    Base::sync_host();
  }
  template <class ExecSpace>
  void sync_host(const ExecSpace& exec) {
    copy_to(0, "sync_host");
    Base::sync_host(exec);
  }
  void sync_device() {
    copy_to(1, "sync_device");
    Base::sync_device();
  }
  template <class ExecSpace>
  void sync_device(const ExecSpace& exec) {
    copy_to(1, "sync_device");
    Base::sync_device(exec);
  }
  bool need_sync_host() const { return record_->modified[0] < record_->modified[1]; }
  bool need_sync_device() const { return record_->modified[1] < record_->modified[0]; }
  void clear_sync_state() {
    record_->calls.push_back("clear_sync_state");
    record_->modified[0] = record_->modified[1] = 0;
    Base::clear_sync_state();
  }
  // The forms that name a device type cannot tell the sides apart on a host backend, where both
  // have one type: say modify_host / modify_device and sync_host / sync_device instead.
  template <class Device>
  void modify() = delete;
  template <class Device, class... ExecSpace>
  void sync(const ExecSpace&...) = delete;
  template <class Device>
  bool need_sync() const = delete;

 private:
  // False (and recorded) where Kokkos would abort: both sides modified since the last sync.
  bool mark(int side, const char* call) {
    DualRecord& r = *record_;
    r.calls.push_back(call);
    if (r.modified[1 - side] != 0) {
      r.conflict = std::string(call) + " while the " + (side ? "host" : "device") +
                   " side's changes were not synced (Kokkos aborts: concurrent modification)";
      return false;
    }
    r.modified[side] = (r.modified[0] > r.modified[1] ? r.modified[0] : r.modified[1]) + 1;
    r.version[side] = ++r.writes;
    return true;
  }
  void copy_to(int side, const char* call) {
    DualRecord& r = *record_;
    r.calls.push_back(call);
    if (r.modified[1 - side] > r.modified[side]) {
      r.version[side] = r.version[1 - side];
      r.modified[0] = r.modified[1] = 0;
    }
  }

  std::shared_ptr<DualRecord> record_;
};

// `--tools`: what the learner's callbacks count, per kernel label: its launches and their time.
struct KernelStat {
  int launches = 0;
  double seconds = 0;
};
using KernelTimes = std::map<std::string, KernelStat>;

// `--tools`' workload, given: it launches the kernels to be timed on the space it is given.
template <class Space>
using Workload = std::function<void(const Space&)>;

// A matrix stored row by row on every backend (a plain 2D View takes its space's default layout,
// LayoutLeft on a GPU): row r is contiguous, column c has a stride of cols elements.
template <class T, class Space>
using RowMajor = Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space>;

// Any rank-1 View in Space's memory, contiguous or not (LayoutStride keeps a stride per index): a
// row and a column of a RowMajor matrix both convert to it.
template <class T, class Space>
using Strided = Kokkos::View<T*, Kokkos::LayoutStride, typename Space::memory_space>;

// Given to `subviews` (a 1D routine, as a library offers one): total() becomes the sum of v, on
// `space`, without waiting. total is a single element (a rank-0 View).
template <class Space>
void sum_1d(const Space& space, Strided<const float, Space> v,
            Kokkos::View<float, typename Space::memory_space> total) {
  Kokkos::parallel_reduce(
      "basics::sum_1d", Kokkos::RangePolicy<Space>(space, 0, v.extent(0)),
      KOKKOS_LAMBDA(int i, float& sum) { sum += v(i); }, total);
}

// Where `subviews`' block starts in its matrix.
struct Corner {
  int row;
  int col;
};

// What `reduce` finds: one built-in reduction (the maximum) and one min-loc reduction.
struct Extremes {
  float max;
  float min;
  int min_index;
};

// A summary of some values that two summaries can be merged into (Welford, Chan et al.): how many
// values, their mean and m2, the sum of their squared deviations from the mean (the variance is
// m2 / count). The summary of no values is {0, 0, 0}.
struct Moments {
  int count;
  float mean;
  float m2;
};

// `axpy` launches whole blocks of kBlock indices, as a CUDA grid of kBlock-thread blocks
// would: the indices past N are the ones its guard must skip.
inline constexpr int kBlock = 128;
inline int padded_range(int n) {
  return (n + kBlock - 1) / kBlock * kBlock;
}

// What the host decides before a team launch (CUDA: the block size and the elements per block).
struct Launch {
  int team_size;          // team members per team
  int tile;               // elements (row_dots: rows) owned by one team
  int vector_length = 1;  // vector lanes per member (CUDA: threadIdx.x of a block of lanes x members)
};

// Level-0 scratch one team of `scratch_reverse` asks for: its tile of floats.
template <class Space>
std::size_t scratch_bytes(int tile) {
  return ScratchView<float*, Space>::shmem_size(tile);
}

// `histogram_levels`: the most bins of a table of int counters that level-0 scratch holds on Space
// (CUDA: 48 KiB a block, less what Kokkos keeps; host backends: 32 KiB), at most `bins`.
template <class Space>
int level0_bins_max(int bins) {
  int fit = 0;
  for (int step = 1 << 30; step > 0; step /= 2)
    if (fit + step <= bins && ScratchView<int*, Space>::shmem_size(fit + step) <= scratch_size_max<Space>(0))
      fit += step;
  return fit;
}

// The kernels of signatures.inc: declarations in exercise:: and reference::, Kernels, kernels().
KPZ_KERNELS(KPZ_BASICS_KERNELS)

}  // namespace kpz::basics
