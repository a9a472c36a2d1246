// `kpuzzles bench butterfly`: group max/min for every element (W = 32) through the scratch
// path (the reference exercise kernel and XorExchange's scratch path), the shuffle path
// (CUDA), against a device copy and Kokkos' own nested parallel_reduce(ThreadVectorRange).
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "kpz/bench.hpp"
#include "kpz/check.hpp"
#include "kpz/errors.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::butterfly {
namespace {

// The built-in way: one team member per group, its W vector lanes reduce with Kokkos::Max and
// Kokkos::Min, then write.
template <class Space>
void builtin_nested(const Space& space, int group, int members, View<const float*, Space> in,
                    View<float*, Space> out) {
  const int groups = static_cast<int>(in.extent(0)) / group;
  const TeamPolicy<Space> policy(space, (groups + members - 1) / members, members, group);
  Kokkos::parallel_for(
      "butterfly::builtin_nested", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int g = team.league_rank() * members + team.team_rank();
        if (g >= groups) return;  // vector-level collectives involve only this member's lanes
        const int base = g * group;
        float mx = 0, mn = 0;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(team, group),
            [&](int l, float& m) { m = Kokkos::max(m, in(base + l)); }, Kokkos::Max<float>(mx));
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(team, group),
            [&](int l, float& m) { m = Kokkos::min(m, in(base + l)); }, Kokkos::Min<float>(mn));
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
  const bool gpu = space_name<Space>() == "cuda";
  const int group = 32;
  std::size_t n = req.params.get("size") ? static_cast<std::size_t>(req.params.get("size"))
                  : gpu                  ? std::size_t{1} << 28
                                         : std::size_t{1} << 22;
  n -= n % group;
  if (n == 0) throw UsageError("--size must be at least 32 (one group)");
  const int team_size = resolve_team_size(space, req.team_size, gpu ? 256 : 64);
  const Launch launch{team_size, default_tile<Space>(team_size, group), group};
  check_scratch<Space>(team::XorExchange<Space, MinMax>::scratch_bytes(launch.tile), 0, "butterfly bench tile");

  BenchReport report;
  report.puzzle = "butterfly";
  report.space = std::string(space_name<Space>());
  report.config.set("size", n).set("group_size", group).set("team_size", team_size).set("tile", launch.tile);
  report.config.set("impl", std::string(to_string(req.impl))).set("warmup", req.cfg.warmup).set("runs", req.cfg.runs);
  add_copy_baselines(report, space, n, req.cfg);

  Rng rng(req.seed);
  std::vector<float> host_in(n);
  for (auto& x : host_in) x = static_cast<float>(rng.uniform(-100.0, 100.0));
  auto in_dev = to_device(space, "in", host_in);
  View<const float*, Space> in = in_dev;
  View<float*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), n);
  const double bytes = 2.0 * sizeof(float) * static_cast<double>(n);
  const bool ref = req.impl == Impl::reference;
  const int members = resolve_team_size(space, 0, 8);

  std::vector<std::pair<std::string, std::function<void()>>> kernels{
      {std::string("conditional (") + (ref ? "reference" : "exercise") + "), scratch by hand",
       [&] { (ref ? reference::conditional<Space> : exercise::conditional<Space>)(space, launch, in, out); }},
      {"XorExchange, scratch path", [&] { conditional_exchange(space, launch, in, out, team::XorPath::scratch); }},
  };
  if (team::XorExchange<Space, MinMax>::uses_shuffle(team_size, launch.tile, group))
    kernels.push_back({"XorExchange::shuffle path (registers, no scratch)", [&] { conditional_exchange(space, launch, in, out, team::XorPath::best); }});
  for (auto& [name, launch_fn] : kernels) {
    poison(out);
    launch_fn();
    space.fence();
    check_groups(host_in, to_host(out), group, name);
    report.rows.push_back({name, "puzzle", "W=32", bytes, time_kernel(space, req.cfg, launch_fn)});
  }
  const auto builtin = [&] { builtin_nested(space, group, members, in, out); };
  poison(out);
  builtin();
  space.fence();
  check_groups(host_in, to_host(out), group, "builtin nested parallel_reduce");
  report.rows.push_back({"nested parallel_reduce(ThreadVectorRange, Max/Min)", "builtin", "W=32", bytes,
                         time_kernel(space, req.cfg, builtin)});
  return report;
}

BenchSpec make_bench() {
  return {"butterfly",
          "group max/min per element: scratch path, shuffle path, Kokkos nested reduce, device copy",
          {{"size", "N (0: 2^28 on a GPU, 2^22 on the host); rounded down to a multiple of 32", 0, 0,
            std::int64_t{1} << 30}},
          [](const BenchRequest& req) {
            return with_space(req.space, [&](const auto& space) { return bench_on(space, req); });
          }};
}

}  // namespace

KPZ_REGISTER_BENCH(make_bench);

}  // namespace kpz::butterfly
