// `kpuzzles bench butterfly`: group max/min for every element (W = 32) through the scratch
// path (the reference exercise kernel and XorExchange's scratch path), the shuffle path (CUDA),
// the portable `vector` variant (W = 32 and 4), a device copy and Kokkos' nested parallel_reduce.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "kpz/backend_traits.hpp"
#include "kpz/bench.hpp"
#include "kpz/check.hpp"
#include "kpz/errors.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::butterfly {
namespace {

// The built-in way: one team member per group, its W vector lanes reduce with Kokkos::Max and
// Kokkos::Min, then write.
// The built-in kernel's team as the bench had it before launch shapes: 8 members (8 groups) per
// team, fewer where the backend allows fewer. On OpenMP every team start and end is a
// rendezvous of its threads, once per 8 groups: that is what this row measures on a CPU.
template <class Space>
int builtin_members(const Space& space, int group) {
  const int most = kpz::team_size_max(space, group);
  return most < 8 ? most : 8;
}

// The same kernel with the framework's speed shape (a CPU: one thread per team; a GPU: 8).
template <class Space>
int builtin_speed_members(const Space& space, int group) {
  KernelNeeds needs;
  needs.vector_loops = true;
  needs.gpu_team = 8;
  needs.gpu_vector = needs.host_vector = group;
  return launch_shape(space, needs, ShapeRequest{}, Purpose::speed).team_size;
}

template <class Space>
void builtin_nested(const Space& space, int group, int members, View<const float*, Space> in, View<float*, Space> out) {
  const int groups = static_cast<int>(in.extent(0)) / group;
  const TeamPolicy<Space> policy(space, (groups + members - 1) / members, members, group);
  Kokkos::parallel_for(
      "butterfly::builtin_nested", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int g = team.league_rank() * members + team.team_rank();
        if (g >= groups) return;  // vector-level collectives involve only this member's lanes
        const int base = g * group;
        float mx = 0, mn = 0;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(team, group), [&](int l, float& m) { m = Kokkos::max(m, in(base + l)); },
            Kokkos::Max<float>(mx));
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(team, group), [&](int l, float& m) { m = Kokkos::min(m, in(base + l)); },
            Kokkos::Min<float>(mn));
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, group),
                             [&](int l) { out(base + l) = (l % 2 == 0) ? mx : mn; });
      });
}

void check_groups(const std::vector<float>& in, const std::vector<float>& got, int group, const std::string& what) {
  for (std::size_t g = 0; g < in.size(); g += group * 997) {
    const float mx = *std::max_element(in.begin() + g, in.begin() + g + group);
    const float mn = *std::min_element(in.begin() + g, in.begin() + g + group);
    for (int l = 0; l < group; ++l)
      if (got[g + l] != (l % 2 == 0 ? mx : mn))
        throw std::runtime_error(what + " gives a wrong result at index " + std::to_string(g + l) +
                                 ": refusing to time it");
  }
}

template <class Space>
BenchReport bench_on(const Space& space, const BenchRequest& req) {
  const bool gpu = is_gpu_v<Space>;
  const int group = 32;
  std::size_t n = bench_size<Space>(req, std::size_t{1} << 28, std::size_t{1} << 22);
  n -= n % group;
  if (n == 0) throw UsageError("--size must be at least 32 (one group)");
  // --vector-length is the vector rows' (the scratch kernels take one lane a member).
  const ShapeRequest request{.team_size = req.team_size, .vector_length = req.vector_length};
  const LaunchShape shape =
      butterfly_shape(space, false, group, ShapeRequest{.team_size = req.team_size}, Purpose::speed);
  const Launch launch{
      .team_size = shape.team_size, .tile = shape.tile, .group = group, .vector_length = shape.vector_length};
  check_scratch<Space>(team::XorExchange<Space, MinMax>::scratch_bytes(launch.tile), 0, "butterfly bench tile");

  BenchReport report = open_bench_report("butterfly", space, req, n);
  report.config.set("group_size", group);
  const Json shape_json = shape.to_json();
  for (const char* key : {"team_size", "vector_length", "tile"}) report.config.set(key, *shape_json.find(key));

  Rng rng(req.seed);
  std::vector<float> host_in(n);
  for (auto& x : host_in) x = static_cast<float>(rng.uniform(-100.0, 100.0));
  auto in_dev = to_device(space, "in", host_in);
  View<const float*, Space> in = in_dev;
  View<float*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), n);
  const double bytes = 2.0 * sizeof(float) * static_cast<double>(n);
  const bool ref = req.impl == Impl::reference;
  const std::string who = ref ? "reference" : "exercise";
  const auto kern = kernels<Space>(req.impl);

  const auto add_row = [&](const std::string& name, const char* kind, int w, bool portable, const auto& launch_fn) {
    add_checked_row(
        report, space, req.cfg,
        BenchRow{.name = name, .kind = kind, .group = "W=" + std::to_string(w), .bytes = bytes, .portable = portable},
        [&] { poison(out); }, launch_fn, [&] { check_groups(host_in, to_host(out), w, name); });
  };
  add_row("conditional (" + who + "), scratch by hand", "puzzle", group, false,
          [&] { kern.conditional(space, launch, in, out); });
  add_row("XorExchange, scratch path", "puzzle", group, false,
          [&] { conditional_exchange(space, launch, in, out, team::XorPath::scratch); });
  if (team::XorExchange<Space, MinMax>::uses_shuffle(launch.team_size, launch.tile, group))
    add_row("XorExchange::shuffle path (registers, no scratch)", "puzzle", group, false,
            [&] { conditional_exchange(space, launch, in, out, team::XorPath::best); });
  // The portable variant and the built-in one-member-per-group kernel, at W = 32 (a warp) and at
  // W = 4 (8 members share a warp on CUDA). The 8-member built-in row is the baseline of W = 32;
  // at W = 4 it would take most of the bench's time on a CPU, so only the speed shape runs there.
  for (const int w : {group, 4}) {
    // A --team-size meant for the scratch rows (256 on CUDA) may not fit W vector lanes a member:
    // then the vector rows keep the framework's team size, and the config says so.
    LaunchShape vs;
    try {
      vs = butterfly_shape(space, true, w, request, Purpose::speed);
    } catch (const ShapeError&) {
      vs = butterfly_shape(space, true, w, ShapeRequest{0, request.vector_length}, Purpose::speed);
      report.config.set("vector_team_size_note", "--team-size does not fit W=" + std::to_string(w) + " lanes");
    }
    const Launch vl{.team_size = vs.team_size,
                    .tile = vs.tile,
                    .group = w,
                    .vector_length = vs.vector_length,
                    .in_flight = vs.in_flight};
    if (w == group) report.config.set("vector_shape", vs.to_json());
    add_row("vector (" + who + "): ThreadVectorRange + MinMax", "puzzle", w, true,
            [&] { kern.vector_minmax(space, vl, in, out); });
    // The same kernel with rows of 1 and of 8 groups (loads in flight per lane): why 4. On a GPU
    // a team still takes one row per member.
    for (const int count : {1, 8}) {
      Launch at = vl;
      at.in_flight = count;
      if (gpu) at.tile = vl.team_size * w * count;
      add_row("vector, rows of " + std::to_string(count) + (count == 1 ? " group" : " groups"), "puzzle", w, false,
              [&, at] { kern.vector_minmax(space, at, in, out); });
    }
    const int members = builtin_members(space, w), speed = builtin_speed_members(space, w);
    if (w == group)
      add_row("nested parallel_reduce(ThreadVectorRange, Max/Min), team of " + std::to_string(members), "builtin", w,
              false, [&] { builtin_nested(space, w, members, in, out); });
    if (w != group || speed != members)
      add_row("nested parallel_reduce, speed shape (team of " + std::to_string(speed) + ")", "builtin", w, false,
              [&] { builtin_nested(space, w, speed, in, out); });
  }
  return report;
}

KPZ_REGISTER_BENCH(
    "butterfly",
    {size_option("N (0: 2^28 on a GPU, 2^22 on the host); rounded down to a multiple of 32", std::int64_t{1} << 30)},
    "group max/min per element: scratch path, shuffle path, the vector variant, Kokkos nested reduce, copy");

}  // namespace

}  // namespace kpz::butterfly
