// kpz_barrier_cost: what one team_barrier costs on each enabled backend, by team size.
// docs/one-source-two-machines.md quotes it: on a GPU a barrier is a hardware instruction
// (bar.sync) among the warps of one block; on a CPU it is a spin on shared cache lines among
// OS threads, which is why the CPU launch shape is one thread per team.
//
//   kpz_barrier_cost [--json FILE]
//
// Method: a league of as many teams as run at once (host: concurrency / team size; GPU: one
// team per multiprocessor), each team doing B barriers, timed against the same launch doing
// none; (t_B - t_0) / B is the time one barrier takes with every team barriering at once.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "kpz/json.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/spaces.hpp"

namespace {

template <class Space>
double median_seconds(const Space& space, int league, int team, int barriers) {
  Kokkos::View<int*, typename Space::memory_space> sink("sink", league);
  const Kokkos::TeamPolicy<Space> policy(space, league, team);
  std::vector<double> t;
  for (int rep = 0; rep < 7; ++rep) {
    space.fence();
    Kokkos::Timer timer;
    Kokkos::parallel_for(
        "barrier_cost", policy, KOKKOS_LAMBDA(const typename Kokkos::TeamPolicy<Space>::member_type& m) {
          for (int b = 0; b < barriers; ++b) m.team_barrier();
          if (m.team_rank() == 0) sink(m.league_rank()) = barriers;
        });
    space.fence();
    if (rep > 0) t.push_back(timer.seconds());  // the first launch warms up
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class Space>
kpz::Json measure(const Space& space) {
  int concurrent_teams_per_member = space.concurrency();
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>)
    concurrent_teams_per_member = space.cuda_device_prop().multiProcessorCount;
#endif
  const int max = kpz::team_size_max(space);
  kpz::Json rows = kpz::Json::array();
  for (int team = 1; team <= max; team *= 2) {
    const int league =
        kpz::is_gpu_v<Space> ? concurrent_teams_per_member : std::max(1, concurrent_teams_per_member / team);
    const int b = kpz::is_gpu_v<Space> ? 20000 : 2000;
    const double t0 = median_seconds(space, league, team, 0);
    const double tb = median_seconds(space, league, team, b);
    const double ns = std::max(0.0, (tb - t0) / b * 1e9);
    std::printf("  %-7s team of %4d (league %4d): %8.1f ns per team_barrier\n",
                std::string(kpz::space_name<Space>()).c_str(), team, league, ns);
    kpz::Json r = kpz::Json::object();
    r.set("team_size", team).set("league", league).set("ns_per_barrier", ns);
    rows.push(std::move(r));
  }
  kpz::Json j = kpz::Json::object();
  j.set("space", std::string(kpz::space_name<Space>())).set("concurrency", space.concurrency());
  j.set("rows", std::move(rows));
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  std::string json_path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json" && i + 1 < argc)
      json_path = argv[++i];
    else if (a == "--help" || a == "-h") {
      std::printf("usage: kpz_barrier_cost [--json FILE]\n  times one team_barrier per backend and team size\n");
      return 0;
    } else {
      std::fprintf(stderr, "kpz_barrier_cost: unknown argument '%s'; use --json FILE or --help\n", a.c_str());
      return 2;
    }
  }
  Kokkos::ScopeGuard guard(argc, argv);
  kpz::Json spaces = kpz::Json::array();
  for (const auto& name : kpz::enabled_space_names())
    kpz::with_space(name, [&](const auto& space) {
      spaces.push(measure(space));
      return 0;
    });
  if (!json_path.empty()) {
    kpz::Json j = kpz::Json::object();
    j.set("barrier_cost", std::move(spaces));
    std::ofstream(json_path) << j.dump() << '\n';
  }
  return 0;
}
