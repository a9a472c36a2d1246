// `kpuzzles bench instances`: the two jobs of `overlap` (axpy over N, the sum of squares over M)
// one after the other on one instance, overlapped on two instances of partition_space, and each
// alone; then the puzzle's whole overlap (partition, both jobs, copies to the host, fences).
//
// Every row here is timed by the host: fence, start, launch, fence each instance used, stop
// (kpz::time_fenced). CUDA events on one stream, as time_kernel takes them, would not see the work
// of the other instance. A launch's host cost is therefore in every row, as it is in a program.
#include <cmath>
#include <string>
#include <vector>

#include "instances/instances.hpp"
#include "kpz/backend_traits.hpp"
#include "kpz/bench.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::instances {
namespace {

template <class Space>
BenchReport bench_on(const Space& space, const BenchRequest& req) {
  // 2^28 and 2^26 floats for axpy, as the other benches, more than the last-level cache; the
  // sum over a quarter as many (the jobs are asymmetric, as two jobs of a program usually are).
  const std::size_t n = bench_size<Space>(req, std::size_t{1} << 28, std::size_t{1} << 26);
  const std::size_t m = req.params.get("sum-size") ? static_cast<std::size_t>(req.params.get("sum-size")) : n / 4;
  BenchReport report = open_bench_report("instances", space, req, n);
  report.config.set("sum_size", m);

  const float alpha = 1.5f;
  const std::vector<float> hx = random_floats(req.seed, n, -2.0, 3.0), hy = random_floats(req.seed + 1, n, -1.0, 2.0),
                           hw = random_floats(req.seed + 2, m, -1.5, 2.5);
  const View<const float*, Space> x = to_device(space, "x", hx), y = to_device(space, "y", hy),
                                  w = to_device(space, "w", hw);
  const View<float*, Space> z(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "z"), n);
  const View<double, Space> sum(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "sum"));
  const HostView<float*> z_host(Kokkos::view_alloc(Kokkos::WithoutInitializing, "z_host"), n);
  const HostView<double> sum_host("sum_host");
  const auto kern = kernels<Space>(req.impl);
  const auto parts = Kokkos::Experimental::partition_space(space, 1, 1);
  if (parts[0] == space)
    report.notes.push_back(std::string(space_name<Space>()) +
                           ": partition_space gave back the default instance (on OpenMP: nested parallelism is off), "
                           "so both jobs share it");

  double exact = 0;
  for (const float v : hw) exact += static_cast<double>(v) * v;
  const auto check_z = [&](const std::vector<float>& got, const std::string& what) {
    verify_sample(
        got,
        [&](std::size_t i, float v) {
          const double want = static_cast<double>(alpha) * hx[i] + hy[i];
          return std::fabs(v - want) <= 4e-7 * (std::fabs(alpha * hx[i]) + std::fabs(hy[i])) + 1e-30;
        },
        what);
  };
  const auto check_sum = [&](double got, const std::string& what) {
    if (!(std::fabs(got - exact) <= 1e-6 * exact + 1e-300))
      throw std::runtime_error(what + " gives a wrong sum: refusing to time it");
  };
  const auto sum_on_host = [&] {
    double s = 0;
    Kokkos::deep_copy(s, sum);
    return s;
  };
  // One row: poison the outputs, run once and check, then time it.
  const auto row = [&](const std::string& name, const std::string& group, double bytes, const auto& launch,
                       bool checks_z, bool checks_sum, bool on_host) {
    Kokkos::deep_copy(z, poison_value<float>());
    Kokkos::deep_copy(sum, poison_value<double>());
    Kokkos::deep_copy(z_host, poison_value<float>());
    Kokkos::deep_copy(sum_host, poison_value<double>());
    launch();
    Kokkos::fence();
    if (checks_z) check_z(on_host ? std::vector<float>(z_host.data(), z_host.data() + n) : to_host(z), name);
    if (checks_sum) check_sum(on_host ? sum_host() : sum_on_host(), name);
    report.rows.push_back({.name = name,
                           .kind = "puzzle",
                           .group = group,
                           .bytes = bytes,
                           .timing = time_fenced(space, req.cfg, launch)});
  };

  const double both = axpy_bytes(static_cast<double>(n)) + sum_bytes(static_cast<double>(m));
  row(
      "axpy alone (N), one instance", "alone", axpy_bytes(static_cast<double>(n)),
      [&] {
        kern.axpy(parts[0], alpha, x, y, z);
        parts[0].fence();
      },
      true, false, false);
  row(
      "sum of squares alone (M), one instance", "alone", sum_bytes(static_cast<double>(m)),
      [&] {
        kern.sum_of_squares(parts[1], w, sum);
        parts[1].fence();
      },
      false, true, false);
  row(
      "both, one after the other on one instance", "both", both,
      [&] {
        kern.axpy(space, alpha, x, y, z);
        kern.sum_of_squares(space, w, sum);
        space.fence();
      },
      true, true, false);
  row(
      "both overlapped, one instance each", "both", both,
      [&] {
        kern.axpy(parts[0], alpha, x, y, z);
        kern.sum_of_squares(parts[1], w, sum);
        parts[0].fence();
        parts[1].fence();
      },
      true, true, false);
  // The whole exercise: its copies to the host move z once more (read on the device, written
  // on the host) and it partitions the space on every call (CUDA: two new streams).
  row(
      "instances --overlap: partition, both, copies to the host, fences", "both",
      both + 2.0 * sizeof(float) * static_cast<double>(n),
      [&] { kern.overlap(space, alpha, x, y, z, w, sum, z_host, sum_host); }, true, true, true);
  report.notes.push_back("bytes: axpy reads x, y and writes z (12 N); the sum reads w (4 M); overlap's copies add 8 N");
  return report;
}

KPZ_REGISTER_BENCH("instances",
                   {size_option("N of axpy (0: 2^28 on a GPU, 2^26 on the host)", std::int64_t{1} << 28),
                    {"sum-size", "M of the sum of squares (0: N / 4)", 0, 0, std::int64_t{1} << 28}},
                   "axpy and a sum of squares one after the other on one instance, overlapped on two instances, "
                   "each alone, and the exercise's whole overlap");

}  // namespace

}  // namespace kpz::instances
