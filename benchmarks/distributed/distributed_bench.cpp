// `kpuzzles bench distributed --ranks R`: the three patterns at the world's size, each row timed
// on every rank between barriers (after a fence) and reported as the slowest rank's median: the
// halo conv1d with its interior overlapping the messages and without (the interior waits for
// them), the global sum, the segmented scan, and the same run's local copy. --size is the global
// size (strong scaling); --per-rank-size gives each rank that many (weak scaling).
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "distributed/distributed.hpp"
#include "distributed/spec.hpp"
#include "kpz/backend_traits.hpp"
#include "kpz/bench.hpp"
#include "kpz/convolution_oracle.hpp"
#include "kpz/errors.hpp"
#include "kpz/transfer.hpp"

namespace kpz::distributed {
namespace {

// The halo exchange without overlap: every message waited for before any output is computed.
template <class Space>
void halo_conv_waiting(const Space& space, MPI_Comm comm, const HaloPlan& plan, View<float*, Space> ext,
                       View<const float*, Space> b, View<float*, Space> out) {
  const MpiBuffer<float, Space> buffer(space, ext);
  for (const HaloPiece& piece : plan.sends) buffer.to_mpi(piece.offset, piece.count);
  std::vector<MPI_Request> requests;
  for (const HaloPiece& piece : plan.receives)
    MPI_Irecv(buffer.data() + plan.count + piece.offset, static_cast<int>(piece.count), MPI_FLOAT, piece.peer, 0, comm,
              &requests.emplace_back());
  for (const HaloPiece& piece : plan.sends)
    MPI_Isend(buffer.data() + piece.offset, static_cast<int>(piece.count), MPI_FLOAT, piece.peer, 0, comm,
              &requests.emplace_back());
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  buffer.from_mpi(plan.count, plan.halo);
  conv_outputs(space, View<const float*, Space>(ext), b, out, 0, plan.count, plan.count + plan.halo);
}

// Every rank times `launch` the same number of times, each run between a fence and a barrier
// (so that a rank waiting for a message counts it); the row keeps this rank's timing until
// slowest_rank() takes the maximum over the ranks.
template <class Space, class Launch>
Timing time_on_ranks(const Space& space, MPI_Comm comm, const BenchConfig& cfg, const Launch& launch) {
  const auto once = [&] {
    space.fence();
    MPI_Barrier(comm);
    Kokkos::Timer timer;
    launch();
    space.fence();
    return timer.seconds();
  };
  for (int i = 0; i < cfg.warmup; ++i) once();
  std::vector<double> seconds;
  for (int i = 0; i < cfg.runs; ++i) seconds.push_back(once());
  return summarize(std::move(seconds));
}

// MPI's own cost between ranks 0 and 1, for the page's alpha + m / beta: `reps` round trips of
// `bytes`-byte messages from host memory (what MpiBuffer hands MPI when it stages). The other
// ranks only meet the barriers.
void ping_pong(MPI_Comm comm, int rank, std::vector<char>& buffer, int reps) {
  if (rank > 1) return;
  const int n = static_cast<int>(buffer.size()), peer = 1 - rank;
  for (int i = 0; i < reps; ++i) {
    if (rank == 0) MPI_Send(buffer.data(), n, MPI_BYTE, peer, 7, comm);
    MPI_Recv(buffer.data(), n, MPI_BYTE, peer, 7, comm, MPI_STATUS_IGNORE);
    if (rank == 1) MPI_Send(buffer.data(), n, MPI_BYTE, peer, 7, comm);
  }
}

// Each row's median, minimum and maximum: the largest over the ranks, on rank 0.
void slowest_rank(MPI_Comm comm, BenchReport& report) {
  for (BenchRow& row : report.rows) {
    double mine[3] = {row.timing.median_s, row.timing.min_s, row.timing.max_s}, most[3] = {0, 0, 0};
    MPI_Reduce(mine, most, 3, MPI_DOUBLE, MPI_MAX, 0, comm);
    row.timing.median_s = most[0];
    row.timing.min_s = most[1];
    row.timing.max_s = most[2];
  }
}

// Every rank checks its own slice; all of them throw if any is wrong (none is left in a barrier).
void agree_or_throw(MPI_Comm comm, bool ok, const std::string& what) {
  int all_ok = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, comm);
  if (!all_ok) throw std::runtime_error(what + " gives a wrong result on some rank: refusing to time it");
}

template <class Space>
BenchReport bench_on(const Space& space, const BenchRequest& req) {
  const MPI_Comm comm = world();
  const int rank = world_rank(), ranks = world_size();
  const std::int64_t per_rank = req.params.get("per-rank-size");
  const std::int64_t n = per_rank                 ? per_rank * ranks
                         : req.params.get("size") ? req.params.get("size")
                         : is_gpu_v<Space>        ? std::int64_t{1} << 26
                                                  : std::int64_t{1} << 22;
  const int taps = static_cast<int>(req.params.get("kernel-size"));
  if (n > kMaxSize)
    throw UsageError("--per-rank-size " + std::to_string(per_rank) + " on " + std::to_string(ranks) +
                     " ranks is more than " + std::to_string(kMaxSize) + " elements in all; give a smaller one");
  const Partition part = checked_partition(n, ranks, false, req.seed);
  const std::int64_t count = part.count(rank), first = part.first(rank);
  BenchReport report = start_bench_report("distributed", space, req, static_cast<std::size_t>(count));
  // Every rank copies its slice at the same time, so a copy row moves all n elements: its % is
  // the bandwidth the ranks have together, which is what the kernels' rows share.
  add_copy_rows(
      report, space, static_cast<std::size_t>(count),
      [&](const auto& launch) { return time_on_ranks(space, comm, req.cfg, launch); },
      static_cast<double>(n) / static_cast<double>(count), "");
  report.config.set("size", n).set("ranks", ranks).set("kernel_size", taps).set("slice", count);
  report.config.set("scaling", per_rank ? "weak" : "strong");
  report.notes.push_back("every row: the slowest rank's median; the copy rows: every rank copying its slice at once");
  report.notes.push_back(MpiBuffer<float, Space>::path());
  const std::string group = std::to_string(ranks) + " ranks";
  const auto kern = kernels<Space>(req.impl);

  // The halo conv1d, with and without overlap.
  const HaloPlan plan = halo_plan(part, rank, taps);
  const ConvolutionInputs in =
      convolution_inputs(static_cast<std::size_t>(n), static_cast<std::size_t>(taps), req.seed, false);
  View<float*, Space> ext(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ext"), count + plan.halo);
  Kokkos::deep_copy(space, Kokkos::subview(ext, std::pair<std::int64_t, std::int64_t>(0, count)),
                    to_device(space, "slice", std::vector<float>(in.a.begin() + first, in.a.begin() + first + count)));
  const View<const float*, Space> b = to_device(space, "b", in.b);
  View<float*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), count);
  const auto parts = Kokkos::Experimental::partition_space(space, 1, 1);
  const auto check_conv = [&](const std::string& what) {
    const std::vector<float> got = to_host(out);
    bool ok = true;
    for (std::size_t k = 0; k < got.size(); k += got.size() / 4099 + 1) {
      double sum = 0, abs_sum = 0;
      for (std::int64_t j = 0; j < taps && first + static_cast<std::int64_t>(k) + j < n; ++j) {
        const double p = static_cast<double>(in.a[first + k + j]) * in.b[j];
        sum += p;
        abs_sum += std::fabs(p);
      }
      ok = ok && std::fabs(got[k] - sum) <= sum_error_bound(abs_sum, static_cast<std::size_t>(taps));
    }
    agree_or_throw(comm, ok, what);
  };
  const double conv_bytes = 2.0 * sizeof(float) * static_cast<double>(n);
  const auto add_row = [&](const std::string& name, double bytes, const auto& prepare, const auto& launch,
                           const auto& verify) {
    prepare();
    launch();
    space.fence();
    verify();
    report.rows.push_back({.name = name + ", " + group,
                           .kind = "puzzle",
                           .group = group,
                           .bytes = bytes,
                           .timing = time_on_ranks(space, comm, req.cfg, launch)});
  };
  const auto poison_out = [&] { poison(out); };
  const std::string k_text = " (K=" + std::to_string(taps) + ")";
  add_row(
      "halo conv1d, interior overlapping the messages" + k_text, conv_bytes, poison_out,
      [&] { kern.halo_conv(parts[0], parts[1], comm, plan, ext, b, out); }, [&] { check_conv("halo conv1d"); });
  add_row(
      "halo conv1d, interior after the messages" + k_text, conv_bytes, poison_out,
      [&] { halo_conv_waiting(space, comm, plan, ext, b, out); }, [&] { check_conv("halo conv1d (waiting)"); });

  // The global sum.
  const std::vector<std::int64_t> values = sum_inputs(n, req.seed, false);
  const View<const std::int64_t*, Space> slice =
      to_device(space, "values", std::vector<std::int64_t>(values.begin() + first, values.begin() + first + count));
  std::int64_t total = 0;
  add_row(
      "global sum (local reduction, MPI_Allreduce)", sizeof(std::int64_t) * static_cast<double>(n), [&] { total = 0; },
      [&] { kern.global_sum(space, comm, slice, total); },
      [&] { agree_or_throw(comm, total == sum_oracle(values), "global sum"); });

  // The segmented scan.
  const ScanInputs scan = scan_inputs(n, req.seed, false);
  const View<const std::int64_t*, Space> sv = to_device(
      space, "values", std::vector<std::int64_t>(scan.values.begin() + first, scan.values.begin() + first + count));
  const View<const std::uint8_t*, Space> sh = to_device(
      space, "heads", std::vector<std::uint8_t>(scan.heads.begin() + first, scan.heads.begin() + first + count));
  View<std::int64_t*, Space> scanned(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "scanned"), count);
  const std::vector<std::int64_t> want = scan_oracle(scan);
  add_row(
      "segmented scan (local scan, MPI_Exscan carry, fix-up)", 17.0 * static_cast<double>(n), [&] { poison(scanned); },
      [&] { kern.segmented_scan(space, comm, sv, sh, scanned); },
      [&] {
        const std::vector<std::int64_t> got = to_host(scanned);
        bool ok = true;
        for (std::size_t k = 0; k < got.size(); k += got.size() / 4099 + 1) ok = ok && got[k] == want[first + k];
        agree_or_throw(comm, ok, "segmented scan");
      });

  // The messages alone: one-way time = a round trip's half; alpha from the small message, beta
  // from the large one's time beyond alpha.
  struct Message {
    std::size_t bytes;
    int reps;
  };
  const Message small{.bytes = 8, .reps = 1000}, large{.bytes = std::size_t{4} << 20, .reps = 20};
  if (ranks > 1)
    for (const Message& m : {small, large}) {
      std::vector<char> buffer(m.bytes, static_cast<char>(rank));
      report.rows.push_back(
          {.name = "MPI ping-pong between ranks 0 and 1, " + std::to_string(m.bytes) + "-byte messages, " +
                   std::to_string(m.reps) + " round trips, " + group,
           .kind = "library",
           .group = "MPI messages, " + group,  // no baseline for the kernels' rows, no copy of their own
           .bytes = 2.0 * m.reps * static_cast<double>(m.bytes),
           .timing = time_on_ranks(space, comm, req.cfg, [&] { ping_pong(comm, rank, buffer, m.reps); })});
    }

  slowest_rank(comm, report);
  if (rank != 0) return BenchReport{.follower = true};
  if (ranks > 1) {
    const auto one_way = [&](std::size_t row, const Message& m) {
      return report.rows[report.rows.size() - 2 + row].timing.median_s / (2.0 * m.reps);
    };
    const double alpha = one_way(0, small), beta = static_cast<double>(large.bytes) / (one_way(1, large) - alpha);
    report.config.set("mpi_alpha_us", alpha * 1e6).set("mpi_beta_gbps", beta / 1e9);
    char line[160];
    std::snprintf(line, sizeof line,
                  "MPI between ranks 0 and 1 (host memory): alpha = %.2f us a message, beta = %.1f GB/s; a halo of "
                  "K - 1 floats costs about alpha",
                  alpha * 1e6, beta / 1e9);
    report.notes.push_back(line);
  }
  return report;
}

KPZ_REGISTER_BENCH("distributed",
                   {size_option("global N (0: 2^26 on a GPU, 2^22 on the host)", kMaxSize),
                    {"per-rank-size", "N per rank instead (weak scaling; 0: --size)", 0, 0, kMaxSize},
                    {"kernel-size", "K of the halo conv1d", 16, 1, 4096}},
                   "the halo conv1d with and without overlap, the global sum and the segmented scan across MPI ranks "
                   "(the slowest rank's median) vs a local copy");

}  // namespace
}  // namespace kpz::distributed
