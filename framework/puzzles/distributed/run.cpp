// distributed's run: one case of a variant on every rank of the MPI world. Each rank draws the
// global inputs from the seed, takes its slice, runs the kernel; rank 0 gathers the slices of the
// output, compares them with the oracle and tells every rank the verdict.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "distributed/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/convolution_oracle.hpp"
#include "kpz/spaces.hpp"
#include "kpz/transfer.hpp"

namespace kpz::distributed {
namespace {

struct World {
  MPI_Comm comm;
  int rank;
  int size;
};

World this_world() {
  const MPI_Comm comm = world();
  return {comm, world_rank(), world_size()};
}

// Elements [first, first + count) of a host vector, on the device, with poisoned guard elements
// after them in the same allocation: a kernel that reads past its slice's end gets the poison and
// a wrong answer on every run, not whatever the memory after a tight allocation holds (often 0,
// which a sum would not notice). No race check traces this puzzle, so the guard stands in for
// its bounds check.
template <class Space, class T>
View<T*, Space> slice_on(const Space& space, const char* label, const std::vector<T>& all, const Partition& part,
                         int rank) {
  constexpr std::int64_t kGuard = 16;
  const auto from = all.begin() + part.first(rank);
  std::vector<T> padded(from, from + part.count(rank));
  padded.resize(padded.size() + kGuard, poison_value<T>());
  const View<T*, Space> guarded = to_device(space, label, padded);
  return Kokkos::subview(guarded, std::pair<std::int64_t, std::int64_t>(0, part.count(rank)));
}

// The verdict: rank 0 gathers every rank's slice of the output and `judge`s it; every rank
// returns rank 0's pass, the others as followers (kpuzzles prints rank 0's report only). Every
// rank's report holds the global inputs (`set_inputs`, when the request keeps arrays), so that a
// test that compares two runs' inputs takes the same path on every rank.
template <class T, class Judge, class SetInputs>
RunReport verdict(const RunRequest& req, const World& w, const std::vector<T>& mine, const Judge& judge,
                  const SetInputs& set_inputs) {
  const std::vector<T> all = gather_slices(w.comm, mine);
  RunReport report;
  if (w.rank == 0) judge(report, all);
  const bool pass = share_verdict(w.comm, w.rank == 0 && report.pass);
  if (w.rank != 0) report = RunReport{.pass = pass, .follower = true};
  report.pass = pass;
  if (req.keep_arrays) set_inputs(report.inputs);
  return report;
}

void set_config(RunReport& report, const RunRequest& req, const World& w, const Partition& part) {
  report.config.set("size", part.size()).set("ranks", w.size).set("uneven", req.params.get("uneven"));
  report.notes.push_back("slices: " + describe_slices(part));
}

template <class Space>
RunReport run_global_sum(const Space& space, const RunRequest& req, const World& w) {
  const std::int64_t n = req.params.get("size");
  const Partition part = checked_partition(n, w.size, req.params.get("uneven") != 0, req.seed);
  const bool worked = !req.params.given("size");
  const std::vector<std::int64_t> values = sum_inputs(n, req.seed, worked);
  const View<const std::int64_t*, Space> slice = slice_on(space, "slice", values, part, w.rank);
  std::int64_t total = poison_value<std::int64_t>();
  kernels<Space>(req.impl).global_sum(space, w.comm, slice, total);
  return verdict(
      req, w, std::vector<std::int64_t>{total},
      [&](RunReport& report, const std::vector<std::int64_t>& got) {
        set_config(report, req, w, part);
        report.config.set("worked_example", worked);
        const std::vector<std::int64_t> expected(static_cast<std::size_t>(w.size), sum_oracle(values));
        report.notes.push_back("out[r]: the total rank r holds");
        compare_exact(report, req, got, expected, [](std::size_t r) { return "rank " + std::to_string(r); });
      },
      [&](Json& inputs) { inputs.set("values", Json::array_of(values)); });
}

// "rank 1 -> rank 0: a[8, 11)", every message of the exchange, for the run's notes.
std::string describe_messages(const Partition& part, int taps) {
  std::string s;
  for (int r = 0; r < part.ranks(); ++r)
    for (const HaloPiece& p : halo_plan(part, r, taps).receives)
      s += (s.empty() ? "" : ", ") + std::string("rank ") + std::to_string(p.peer) + " -> rank " + std::to_string(r) +
           ": a[" + std::to_string(p.first) + ", " + std::to_string(p.first + p.count) + ")";
  return s.empty() ? "none" : s;
}

template <class Space>
RunReport run_halo(const Space& space, const RunRequest& req, const World& w) {
  const std::int64_t n = req.params.get("size");
  const int taps = static_cast<int>(req.params.get("kernel-size"));
  const Partition part = checked_partition(n, w.size, req.params.get("uneven") != 0, req.seed);
  const bool worked = !req.params.given("size");  // a = 0..N-1, b = 0..K-1: exact in floats
  const ConvolutionInputs in =
      convolution_inputs(static_cast<std::size_t>(n), static_cast<std::size_t>(taps), req.seed, worked);
  const HaloPlan plan = halo_plan(part, w.rank, taps);
  // ext: the slice, then the halo, poisoned until it arrives.
  View<float*, Space> ext(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ext"), plan.count + plan.halo);
  Kokkos::deep_copy(space, Kokkos::subview(ext, std::pair<std::int64_t, std::int64_t>(0, plan.count)),
                    slice_on(space, "slice", in.a, part, w.rank));
  Kokkos::deep_copy(space, Kokkos::subview(ext, std::pair(plan.count, plan.count + plan.halo)),
                    std::numeric_limits<float>::quiet_NaN());
  const View<const float*, Space> b = to_device(space, "b", in.b);
  const auto out = poisoned_output<float>(space, "out", static_cast<std::size_t>(plan.count));
  const auto parts = Kokkos::Experimental::partition_space(space, 1, 1);
  space.fence();
  kernels<Space>(req.impl).halo_conv(parts[0], parts[1], w.comm, plan, ext, b, out);
  space.fence();
  return verdict(
      req, w, to_host(out),
      [&](RunReport& report, const std::vector<float>& got) {
        set_config(report, req, w, part);
        report.config.set("kernel_size", taps).set("worked_example", worked);
        report.notes.push_back("messages: " + describe_messages(part, taps));
        report.notes.push_back(MpiBuffer<float, Space>::path());
        std::vector<double> expected, bound;
        convolution_oracle(in.a, in.b, expected, bound);
        compare_within(report, got, expected, bound, slice_owner(part));
        keep_arrays(report, req, got, expected);
      },
      [&](Json& inputs) { inputs.set("a", Json::array_of(in.a)).set("b", Json::array_of(in.b)); });
}

template <class Space>
RunReport run_segmented_scan(const Space& space, const RunRequest& req, const World& w) {
  const std::int64_t n = req.params.get("size");
  const Partition part = checked_partition(n, w.size, req.params.get("uneven") != 0, req.seed);
  const bool worked = !req.params.given("size");
  const ScanInputs in = scan_inputs(n, req.seed, worked);
  const View<const std::int64_t*, Space> values = slice_on(space, "values", in.values, part, w.rank);
  const View<const std::uint8_t*, Space> heads = slice_on(space, "heads", in.heads, part, w.rank);
  const auto out = poisoned_output<std::int64_t>(space, "out", static_cast<std::size_t>(part.count(w.rank)));
  space.fence();
  kernels<Space>(req.impl).segmented_scan(space, w.comm, values, heads, out);
  space.fence();
  return verdict(
      req, w, to_host(out),
      [&](RunReport& report, const std::vector<std::int64_t>& got) {
        set_config(report, req, w, part);
        report.config.set("worked_example", worked);
        const std::vector<std::int64_t> expected = scan_oracle(in);
        if (n <= 64) {
          std::string sums;
          for (const std::int64_t s : segment_sums(in, got)) sums += (sums.empty() ? "" : " ") + std::to_string(s);
          report.notes.push_back("segment sums (out at each segment's end): " + sums);
        }
        compare_exact(report, req, got, expected, slice_owner(part));
      },
      [&](Json& inputs) { inputs.set("values", Json::array_of(in.values)).set("heads", Json::array_of(in.heads)); });
}

template <class Space>
RunReport run_on(const Space& space, const RunRequest& req) {
  const World w = this_world();
  switch (req.variant_as<Variant>()) {
    case Variant::global_sum:
      return run_global_sum(space, req, w);
    case Variant::halo:
      return run_halo(space, req, w);
    case Variant::segmented_scan:
      return run_segmented_scan(space, req, w);
  }
  throw std::logic_error("distributed: unknown variant");
}

}  // namespace

RunReport run(const RunRequest& req) {
  return with_space(req.space, [&](const auto& space) { return run_on(space, req); });
}

}  // namespace kpz::distributed
