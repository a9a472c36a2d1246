#pragma once
// reduce: the sum of N values, the classic GPU reduction ladder in Kokkos teams.
//
// Every team kernel writes one partial sum per team into `partial` (the ladder: team t owns the
// tile of lanes * unroll elements starting at t * lanes * unroll; --persistent: team t owns one
// contiguous share of the input, see share_begin). A second launch, finish(), adds the partial
// sums into result(0). --team-reduce, the portable rung, reduces its tile with Kokkos' own
// collectives instead of a hand-built tree (nested parallel_reduce over TeamThreadRange rows and
// ThreadVectorRange lanes). --builtin is Kokkos::parallel_reduce straight into result(0), and
// --recursive replaces the book's device-side recursion by host-driven launches of `interleaved`
// on the partial sums until one value is left.
//
// Lanes are logical, as in butterfly: a team reduces a tile of `lanes` scratch slots (the book's
// block size, a power of two) and its members visit the slots with TeamThreadRange, so any team
// size works (OpenMP teams of 1, 2 or 8 threads, Serial's single member, a CUDA block of 512).
// With the CUDA defaults (team size = lanes = 512) every member owns exactly one slot, as in the
// book.
//
// Kernel signatures are in signatures.inc, implemented by exercises/reduce/ (namespace
// kpz::reduce::exercise) and reference/reduce/ (kpz::reduce::reference).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kpz/backend_traits.hpp"
#include "kpz/kernel_table.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/lookup.hpp"
#include "kpz/quad.hpp"
#include "kpz/random.hpp"
#include "kpz/registry.hpp"
#include "kpz/relaxed_load.hpp"
#include "kpz/spaces.hpp"
#include "kpz/team/xor_exchange.hpp"
#include "kpz/types.hpp"
#include "reduce/signatures.inc"

namespace kpz::reduce {

// The puzzle's random inputs (the spec, the bench and the library-baseline tests draw the same):
// never 0, asymmetric around 0 (mean about 2); ints in [-3, 7], floats quarters in [-3, 7], so
// that every partial sum of a team is an exact float and a wrong or missing term shows.
template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    const std::int64_t k = std::is_integral_v<T> ? rng.integer(-3, 6) : rng.integer(-12, 27);
    const double value = static_cast<double>(k >= 0 ? k + 1 : k);
    x = static_cast<T>(std::is_integral_v<T> ? value : value / 4.0);
  }
  return v;
}

// The rungs of the ladder, in the book's order, then the rung beyond the book and the two
// comparisons. The first one, persistent, is the default variant.
enum class Variant {
  persistent,
  neighbored,
  neighbored_less,
  interleaved,
  unroll2,
  unroll4,
  unroll8,
  unroll_warps8,
  complete_unroll,
  template_lanes,
  team_reduce,
  builtin,
  recursive,
};

struct VariantInfo {
  Variant variant;
  const char* name;  // the flag, without "--"
  int unroll;        // tiles a team adds while loading (ladder variants), else 0
};

VariantInfo info(Variant v);
VariantInfo info(const std::string& name);  // throws std::logic_error for unknown names

// What the host decides before a launch.
struct Launch {
  int team_size;  // members per team
  int lanes;      // scratch slots per team (the book's block size): a power of two
  int league;     // number of teams
  // --team-reduce only: vector lanes per member, and elements per team (a tile of rows of
  // vector_length * kLaneLoads elements).
  int vector_length = 1;
  int tile = 0;
};

// --team-reduce: each vector lane adds kLaneLoads elements of a row, so a row is
// vector_length * kLaneLoads elements. On a GPU (32 lanes, one warp) that is 16 loads in flight
// per lane before the warp's shuffles add the row; on a CPU the row is one SIMD loop.
inline constexpr int kLaneLoads = 16;
inline int row_width(const Launch& launch) {
  return launch.vector_length * kLaneLoads;
}

// The template variant is instantiated for these lane counts.
inline constexpr int kTemplateLanes[] = {64, 128, 256, 512, 1024};

// --persistent reads the input as Quads (kpz/quad.hpp): one 16-byte load per four values.
template <class T>
KOKKOS_INLINE_FUNCTION T quad_sum(const Quad<T>& q) {
  return (q.v[0] + q.v[1]) + (q.v[2] + q.v[3]);
}

// --persistent: team t of `league` owns quads [share_begin(t), share_begin(t + 1)) of the
// `quads` whole Quads of the input (an even share: sizes differ by at most one Quad); the last
// team also owns the 0 to 3 elements past the last whole Quad.
KOKKOS_INLINE_FUNCTION std::int64_t share_begin(std::int64_t quads, int league, int t) {
  return quads * t / league;
}

// Teams of a ladder variant: one per tile of lanes * unroll elements (at least one).
inline int ladder_league(std::size_t n, int lanes, int unroll) {
  const std::size_t tile = static_cast<std::size_t>(lanes) * static_cast<std::size_t>(unroll);
  const std::size_t teams = (n + tile - 1) / tile;
  return static_cast<int>(teams < 1 ? 1 : teams);
}

// Teams of --persistent (CUDA: twice the threads the GPU holds at once, i.e. two waves of
// full occupancy; host: one team per group of team_size threads), and no more than one per 16
// values a member could load. The CUDA choice and kPersistentCudaTeam come from `kpuzzles bench
// reduce --sweep 1` on an H100 (benchmarks/results/reduce-h100.json): 2^28 ints, team sizes 64 to
// 1024 and leagues of 1/4 to 2 times the concurrency; the best rows were all two waves of
// teams of 512 or 1024, 1% faster than one half-occupancy wave of 256.
inline constexpr int kPersistentCudaTeam = 512;
template <class Space>
int persistent_league(const Space& space, std::size_t n, int team_size) {
  const int concurrency = space.concurrency();
  int league = is_gpu_v<Space> ? 2 * (concurrency / team_size) : concurrency / team_size;
  const std::size_t useful =
      (n + 16 * static_cast<std::size_t>(team_size) - 1) / (16 * static_cast<std::size_t>(team_size));
  if (static_cast<std::size_t>(league) > useful) league = static_cast<int>(useful);
  return league < 1 ? 1 : league;
}

// Level-0 scratch requests (bytes per team).
template <class Space, class T>
std::size_t tree_scratch_bytes(int lanes) {
  return ScratchView<T*, Space>::shmem_size(lanes);
}
// The tree plus the 32-slot XorExchange of the warp finish (its scratch path).
template <class Space, class T>
std::size_t warp_scratch_bytes(int lanes) {
  return team::XorExchange<Space, T>::scratch_bytes(32) + ScratchView<T*, Space>::shmem_size(lanes);
}
// --persistent: one slot per member for team_sum, and the flag of finish_last_team.
template <class Space, class T>
std::size_t persistent_scratch_bytes(int team_size) {
  return ScratchView<T*, Space>::shmem_size(team_size) + ScratchView<int*, Space>::shmem_size(1);
}

// Sum over the team of one value per member (`mine`); the result is valid on team rank 0.
// Collective: every member calls it. `slots` has team_size values of level-0 scratch.
// CUDA with whole warps: a shuffle butterfly in each warp (no barrier), one slot per warp, one
// barrier, and warp 0 adds the warp sums with shuffles again. Elsewhere: every member writes its
// slot, one barrier, and rank 0 adds the slots (host teams have at most 64 members).
template <class Space, class T>
KOKKOS_INLINE_FUNCTION T team_sum(const TeamMember<Space>& team, const ScratchView<T*, Space>& slots, T mine) {
  using Exchange = team::XorExchange<Space, T>;
  const int rank = team.team_rank(), size = team.team_size();
  if (Exchange::full_warps(size)) {
    for (int mask = 16; mask >= 1; mask /= 2) mine += Exchange::shuffle(mine, mask);
    if (rank % 32 == 0) slots(rank / 32) = mine;
    team.team_barrier();
    T total = T(0);
    if (rank < 32) {  // warp 0, all of it
      total = rank < size / 32 ? slots(rank) : T(0);
      for (int mask = 16; mask >= 1; mask /= 2) total += Exchange::shuffle(total, mask);
    }
    return total;
  }
  slots(rank) = mine;
  team.team_barrier();
  T total = T(0);
  if (rank == 0)
    for (int r = 0; r < size; ++r) total += slots(r);
  return total;
}

// The last-team-done finish of --persistent (the CUDA programming guide's threadFenceReduction):
// team rank 0 writes partial(t), fences, and counts its team done on done(0); the team that
// counts last knows every other partial sum is visible, adds them all into result(0) and re-arms
// done(0) = 0 for the next launch. It saves the second launch (finish()): one kernel and the gap
// before it. Collective: every member calls it with its team's total valid on rank 0 (team_sum).
// Scratch: the team_sum slots (reused) and one int flag, both in persistent_scratch_bytes.
// The partial sums are read with relaxed atomic loads (kpz/relaxed_load.hpp): a plain load could
// be served by a cache that is not coherent with the other SMs' writes.
template <class Space, class T>
KOKKOS_INLINE_FUNCTION void finish_last_team(const TeamMember<Space>& team, const ScratchView<T*, Space>& slots,
                                             const ScratchView<int*, Space>& last, T total,
                                             const View<T*, Space>& partial, const View<unsigned*, Space>& done,
                                             const View<T*, Space>& result) {
  const int league = team.league_size(), t = team.league_rank();
  if (team.team_rank() == 0) {
    partial(t) = total;
    Kokkos::memory_fence();  // partial(t) is visible before the count says this team is done
    last(0) = Kokkos::atomic_fetch_add(done.data(), 1u) == static_cast<unsigned>(league - 1);
  }
  team.team_barrier();
  if (!last(0)) return;    // the whole team takes the same branch
  Kokkos::memory_fence();  // the other teams' partial sums are read after their counts
  T mine = T(0);
  for (int i = team.team_rank(); i < league; i += team.team_size()) mine += load_relaxed(partial.data() + i);
  const T sum = team_sum<Space, T>(team, slots, mine);
  if (team.team_rank() == 0) {
    result(0) = sum;
    done(0) = 0u;  // the next launch counts from 0 again
  }
}

// The second launch: result(0) = the sum of `partial`, by one team (Kokkos' nested
// parallel_reduce over a TeamThreadRange). Defined in launch.cpp, compiled once per space.
template <class Space, class T>
void finish(const Space& space, View<const T*, Space> partial, View<T*, Space> result);

// Values a --recursive run needs in its work array: the partial sums of every level.
inline std::size_t recursive_work_size(std::size_t n, int lanes) {
  std::size_t total = 0;
  for (std::size_t count = n; count > 1; count = (count + lanes - 1) / lanes) total += (count + lanes - 1) / lanes;
  return total < 1 ? 1 : total;
}

// Checks the host-side preconditions of a variant and throws UsageError naming what is allowed.
void validate_lanes(const VariantInfo& v, int lanes);

// --team-reduce's shape (kpz/launch_shape.hpp). GPU: teams of 16 warps, one row per warp at a
// time, a tile of 2^15 values (4 rows per member; 8192 teams at 2^28). CPU: one thread per team,
// rows of 64 * 16 values (one SIMD loop of 4 KiB of ints), a tile of 2^16 values, so that 2^24
// values give each of 16 threads 16 teams. Tuned with `kpuzzles bench reduce --tile`.
inline constexpr int kTeamReduceGpuTeam = 16, kTeamReduceHostVector = 64;
inline constexpr int kTeamReduceGpuTile = 1 << 15, kTeamReduceHostTile = 1 << 16;

inline bool warp_finish_variant(Variant v) {
  return v == Variant::unroll_warps8 || v == Variant::complete_unroll || v == Variant::template_lanes;
}

// What the kernel of variant v asks of its launch.
inline KernelNeeds kernel_needs(const VariantInfo& v, int lanes) {
  KernelNeeds k;
  k.check_team = 64;  // on a CPU: every thread in one team, so that a missing barrier shows
  if (v.variant == Variant::team_reduce) {
    k.vector_loops = true;
    k.gpu_team = kTeamReduceGpuTeam;
    k.gpu_vector = 32;
    k.host_vector = kTeamReduceHostVector;
    k.gpu_tile = kTeamReduceGpuTile;
    k.host_tile = kTeamReduceHostTile;
  } else if (v.variant == Variant::persistent) {
    k.gpu_team = kPersistentCudaTeam;
  } else if (v.unroll > 0) {
    k.gpu_team = lanes < 1024 ? lanes : 1024;  // the book: one CUDA thread per lane
    k.gpu_tile = k.host_tile = v.variant == Variant::recursive ? lanes : lanes * v.unroll;
  } else {
    k.gpu_team = 1;  // builtin: no team
  }
  return k;
}

// The launch of variant v on n values: the framework's shape for the variant's needs and the
// user's --team-size / --vector-length (req), then the league. lanes: the ladder's tree width
// (validated); tile: --team-reduce's values per team (0: the shape's); teams: --persistent's
// league (0: from the device). The shape chosen goes to *shape_out for the report's config.
template <class Space>
Launch plan_launch(const Space& space, const VariantInfo& v, std::size_t n, int lanes, int tile, int teams,
                   const ShapeRequest& req, Purpose purpose, LaunchShape* shape_out = nullptr) {
  if (v.unroll > 0) validate_lanes(v, lanes);
  const LaunchShape shape = launch_shape(space, kernel_needs(v, lanes), req, purpose);
  Launch launch{shape.team_size, lanes, 1};
  if (v.variant == Variant::team_reduce) {
    launch.vector_length = shape.vector_length;
    const int width = row_width(launch);
    launch.tile = tile > 0 ? tile : (shape.tile > width ? shape.tile : width);
    const std::size_t league = (n + launch.tile - 1) / static_cast<std::size_t>(launch.tile);
    launch.league = static_cast<int>(league < 1 ? 1 : league);
  } else if (v.variant == Variant::persistent) {
    launch.league = teams > 0 ? teams : persistent_league(space, n, launch.team_size);
  } else if (v.unroll > 0) {
    launch.league = ladder_league(n, lanes, v.unroll);
  }
  if (shape_out) {
    *shape_out = shape;
    if (v.variant == Variant::team_reduce) shape_out->tile = launch.tile;
  }
  return launch;
}

// Level-0 scratch of variant v's team kernel (bytes per team).
template <class Space, class T>
std::size_t scratch_bytes(const VariantInfo& v, const Launch& launch) {
  if (v.variant == Variant::persistent) return persistent_scratch_bytes<Space, T>(launch.team_size);
  if (v.variant == Variant::team_reduce || v.unroll == 0) return 0;  // Kokkos' collectives bring their own
  return warp_finish_variant(v.variant) ? warp_scratch_bytes<Space, T>(launch.lanes)
                                        : tree_scratch_bytes<Space, T>(launch.lanes);
}

// The kernels of signatures.inc: declarations in exercise:: and reference::, Kernels, kernels().
KPZ_KERNELS_T(KPZ_REDUCE_KERNELS)

}  // namespace kpz::reduce

// Compiles one implementation's kernels for execution space S, for int and float values.
#define KPZ_REDUCE_INSTANTIATE(S)                       \
  KPZ_INSTANTIATE_KERNELS_T(KPZ_REDUCE_KERNELS, S, int) \
  KPZ_INSTANTIATE_KERNELS_T(KPZ_REDUCE_KERNELS, S, float)

namespace kpz::reduce {

// The team kernel of a ladder rung (the rungs that write `partial` and leave the sum to finish()):
// a member of the kernel table; --template picks its instance by the launch's lanes.
template <class Space, class T>
auto team_kernel(const Kernels<Space, T>& k, Variant v, int lanes) {
  using K = Kernels<Space, T>;
  using Member = decltype(&K::neighbored);
  if (v == Variant::template_lanes) {
    return k.*lookup<Member>(lanes,
                             {{64, &K::templated_64},
                              {128, &K::templated_128},
                              {256, &K::templated_256},
                              {512, &K::templated_512},
                              {1024, &K::templated_1024}},
                             "reduce --template's instances");
  }
  return k.*lookup<Member>(v,
                           {{Variant::neighbored, &K::neighbored},
                            {Variant::neighbored_less, &K::neighbored_less},
                            {Variant::interleaved, &K::interleaved},
                            {Variant::unroll2, &K::unrolled_2},
                            {Variant::unroll4, &K::unrolled_4},
                            {Variant::unroll8, &K::unrolled_8},
                            {Variant::unroll_warps8, &K::unroll_warps8},
                            {Variant::complete_unroll, &K::complete_unroll},
                            {Variant::team_reduce, &K::team_reduce}},
                           "reduce's team kernels");
}

// Runs variant `v` of implementation `impl`: the team kernel into the first launch.league values
// of `partial` and finish() on them into result(0) (--persistent: its last team adds them, with
// `done`, one counter that is 0 between launches); --builtin straight into result(0);
// --recursive with `work` (recursive_work_size values). Only enqueues work on `space` (the
// benchmark times this call).
template <class Space, class T>
void run_variant(Impl impl, Variant v, const Space& space, const Launch& launch, View<const T*, Space> in,
                 View<T*, Space> partial, View<T*, Space> work, View<T*, Space> result, View<unsigned*, Space> done) {
  const auto k = kernels<Space, T>(impl);
  // partial may be longer than the league (the benchmark reuses one array): use the first values.
  const View<T*, Space> sums = Kokkos::subview(partial, Kokkos::make_pair(0, launch.league));
  if (v == Variant::persistent) {
    k.persistent(space, launch, in, sums, done, result);
  } else if (v == Variant::builtin) {
    k.builtin(space, in, result);
  } else if (v == Variant::recursive) {
    k.recursive(space, launch, in, work, result);
  } else {
    team_kernel(k, v, launch.lanes)(space, launch, in, sums);
    finish<Space, T>(space, sums, result);
  }
}

}  // namespace kpz::reduce
