#pragma once
// butterfly: XOR exchanges inside groups of W logical lanes (W a power of two, 2..32).
// Element i of the input is lane i % W of group i / W. A team owns a tile of `tile` lanes
// (a whole number of groups); its members visit lanes with TeamThreadRange, so results do not
// depend on the team size. Kernel signatures are in signatures.inc, implemented by
// exercises/butterfly/ (namespace kpz::butterfly::exercise) and reference/butterfly/.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

#include "butterfly/signatures.inc"
#include "kpz/backend_traits.hpp"
#include "kpz/errors.hpp"
#include "kpz/kernel_table.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/reducer.hpp"
#include "kpz/spaces.hpp"
#include "kpz/team/xor_exchange.hpp"
#include "kpz/tile_grid.hpp"
#include "kpz/types.hpp"

namespace kpz::butterfly {

struct Launch {
  int team_size;
  int tile;               // lanes per team: a multiple of group
  int group;              // W
  int vector_length = 1;  // lanes per member: 1 in the scratch kernels (a lane is a member), W in --vector
  int in_flight = 1;      // `vector_minmax`: groups a row, the loads each lane has in flight
};

enum class Op { max, min, sum };

KOKKOS_INLINE_FUNCTION float apply(Op op, float a, float b) {
  switch (op) {
    case Op::max:
      return a > b ? a : b;
    case Op::min:
      return a < b ? a : b;
    default:
      return a + b;
  }
}

// A tile's lanes in level-0 scratch, one float each.
template <class Space>
using Lanes = ScratchView<float*, Space>;

// Level-0 scratch of the exercise kernels: two buffers of `tile` floats (double buffering).
template <class Space>
std::size_t scratch_bytes(int tile) {
  return 2 * ScratchView<float*, Space>::shmem_size(tile);
}

// Lanes per team: a multiple of the group and of 4 x the team size (so that, on CUDA, every
// warp holds whole groups and the shuffle path applies with four lanes per member).
template <class Space>
int default_tile(int team_size, int group) {
  int tile = 1024;
  while (tile < 4 * team_size) tile *= 2;
  while (tile % group) tile *= 2;
  return tile;
}

// `--vector` takes kVectorGroups groups per member at once (the launch's in_flight): one custom
// reduction over the W lanes gives the extremes of all of them. Why: a lane then issues
// kVectorGroups independent loads before the first shuffle; with one group per reduction, each
// load waits for the previous group's shuffles and store, and a GPU sees one load in flight per
// lane (37 % of the copy's rate on the H100, against 62 % with four and 60 % with eight:
// benchmarks/results/butterfly-h100.json). On a CPU the same loop keeps kVectorGroups pairs of
// SIMD accumulators.
inline constexpr int kVectorGroups = 4;

// The value of that reduction: the min and max of each of U groups.
template <int U>
struct GroupsExtremes {
  float lo[U];
  float hi[U];
};

// A Kokkos reducer (the contract of Kokkos::MinMax, for U groups): init gives the identities,
// join merges two partial results. Used as parallel_reduce(ThreadVectorRange(team, W), closure,
// GroupsMinMax<U>(value)); the closure updates value.lo[u] / value.hi[u] with one lane's elements.
template <int U>
struct GroupsMinMax : Reducer<GroupsMinMax<U>, GroupsExtremes<U>> {
  using value_type = GroupsExtremes<U>;
  KOKKOS_INLINE_FUNCTION explicit GroupsMinMax(value_type& result) : GroupsMinMax::Reducer(result) {}
  KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {
    for (int u = 0; u < U; ++u) {
      dest.lo[u] = src.lo[u] < dest.lo[u] ? src.lo[u] : dest.lo[u];
      dest.hi[u] = src.hi[u] > dest.hi[u] ? src.hi[u] : dest.hi[u];
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    for (int u = 0; u < U; ++u) {
      v.lo[u] = Kokkos::reduction_identity<float>::min();
      v.hi[u] = Kokkos::reduction_identity<float>::max();
    }
  }
};

// Launch shapes (kpz/launch_shape.hpp). The scratch kernels: lanes are team members, vector
// length 1, a tile of default_tile lanes. `vector_minmax`: the W lanes of a group are one
// member's vector lanes. On a GPU that is 256 threads a block (256 / W members, 32 / W of them a
// warp) and kVectorGroups groups per member (one pass), so that every warp has all its loads in
// flight at once, as a copy kernel has; on a CPU Kokkos' shape (one thread per team for speed)
// and kHostVectorTile lanes.
inline constexpr int kHostVectorTile = 4096;

template <class Space>
LaunchShape butterfly_shape(const Space& space, bool vector, int group, const ShapeRequest& request, Purpose purpose) {
  KernelNeeds needs;
  if (vector) {
    needs.vector_loops = true;
    needs.gpu_team = 256 / group;
    needs.gpu_vector = group;
    needs.host_vector = group;
    needs.gpu_in_flight = needs.host_in_flight = kVectorGroups;
  }
  LaunchShape shape = launch_shape(space, needs, request, purpose);
  if (!vector)
    shape.tile = default_tile<Space>(shape.team_size, group);
  else
    shape.tile = is_gpu_v<Space> ? shape.team_size * group * shape.in_flight : kHostVectorTile;
  return shape;
}

// The group max on even lanes and the group min on odd lanes, written through the framework's
// XorExchange (scratch path everywhere, shuffle path on CUDA where it applies). This is the
// kernel `kpuzzles bench butterfly` measures; the exercises teach the scratch path by hand.
struct MinMax {
  float lo, hi;
};

// Defined in fast/exchange_kernel.cpp (compiled once per space: a kernel lambda in a header that
// several translation units instantiate is an ODR trap under nvcc).
template <class Space>
void conditional_exchange(const Space& space, const Launch& launch, View<const float*, Space> in,
                          View<float*, Space> out, team::XorPath path);

// The kernels of signatures.inc: declarations in exercise:: and reference::, Kernels, kernels().
KPZ_KERNELS(KPZ_BUTTERFLY_KERNELS)

}  // namespace kpz::butterfly
