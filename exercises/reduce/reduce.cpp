// reduce exercise: fill in every TODO, then run `kpuzzles run reduce`
// (or the tests). Host builds race-check every pass; `kpuzzles trace reduce --<variant>`
// draws the accesses. The solution is in reference/reduce/, but try first: the hints are in
// docs/puzzles/reduce.md. Generated from the reference: `kpuzzles reset reduce` restores it
// (your work is kept as a backup).
#include <cstdint>
#include <stdexcept>

#include "reduce/launch.hpp"
#include "reduce/reduce.hpp"

namespace kpz::reduce::exercise {

// ---- Helpers shared by several rungs (each holds one rung's lesson) ----------------------------

// One step of the interleaved tree: slot i adds slot i + stride for every i < stride, then the
// team waits. Collective: every member calls it.
template <class Space, class T>
KOKKOS_INLINE_FUNCTION void interleaved_step(const TeamMember<Space>& team, const Slots<Space, T>& s, int stride) {
  // TODO(roughly 2 lines): the step the comment above describes: the first `stride` slots
  //   take in the `stride` slots after them, and no member goes on before they all have.
}

// The interleaved tree: one interleaved_step for each stride = lanes / 2, lanes / 4, ..., keep.
// Leaves the sums of the tile in slots 0 .. keep - 1 (keep = 1: the whole sum in s(0)).
// Collective: every member calls it, after the barrier that follows the loads.
template <class Space, class T>
KOKKOS_INLINE_FUNCTION void interleaved_tree(const TeamMember<Space>& team, const Slots<Space, T>& s, int lanes,
                                             int keep = 1) {
  // TODO(roughly 1 line): the tree the comment above describes, down to s(0) .. s(keep - 1),
  //   the largest stride first.
}

// Loading with unrolling: lane i of the tile starting at `first` gets the sum of the Unroll
// elements first + u * lanes + i (u < Unroll; 0 past n), then the team waits.
template <int Unroll, class Space, class T>
KOKKOS_INLINE_FUNCTION void load_tile(const TeamMember<Space>& team, const View<const T*, Space>& in, int n, int first,
                                      const Slots<Space, T>& s, int lanes) {
  // TODO(roughly 9 lines): as the comment above describes: s(i) gets the sum of lane i's Unroll
  //   elements of the tile, all loaded before any add; then the team waits.
}

// The last 64 partial sums (s(0) .. s(63), after the tree's last barrier) into partial(team),
// without the tree's barriers. On CUDA with whole warps, warp 0 (team ranks 0..31, one
// TeamThreadRange(team, 32) iteration each) adds them in registers with five shuffles; elsewhere
// the same butterfly goes through `warp`, a 32-lane XorExchange in team scratch.
template <class Space, class T>
KOKKOS_INLINE_FUNCTION void warp_finish(const TeamMember<Space>& team, const Slots<Space, T>& s,
                                        team::XorExchange<Space, T>& warp, const View<T*, Space>& partial) {
  using Exchange = team::XorExchange<Space, T>;
  const int t = team.league_rank();
  // TODO(roughly 16 lines): the last 64 slots into partial(t) as the comment above describes:
  //   Exchange::shuffle when Exchange::full_warps, otherwise warp (values(), all_reduce).
}

// ---- The ladder ----------------------------------------------------------------------------

template <class Space, class T>
void neighbored(const Space& space, const Launch& launch, View<const T*, Space> in, View<T*, Space> partial) {
  const auto tree = KOKKOS_LAMBDA(const TeamMember<Space>& team, const Slots<Space, T>& s, int lanes) {
    // TODO(roughly 6 lines): the team's sum into s(0) by the neighbored tree (pairs of
    //   neighbours first), each step a TeamThreadRange over all `lanes`, the team waiting after
    //   each.
  };
  ladder_launch(space, launch, "reduce::neighbored", in, partial, tree);
}

template <class Space, class T>
void neighbored_less(const Space& space, const Launch& launch, View<const T*, Space> in, View<T*, Space> partial) {
  const auto tree = KOKKOS_LAMBDA(const TeamMember<Space>& team, const Slots<Space, T>& s, int lanes) {
    // TODO(roughly 7 lines): the same pairs in the same steps as neighbored, but each
    //   step's TeamThreadRange runs only over the pairs that add, so that no iteration is idle.
  };
  ladder_launch(space, launch, "reduce::neighbored_less", in, partial, tree);
}

template <class Space, class T>
void interleaved(const Space& space, const Launch& launch, View<const T*, Space> in, View<T*, Space> partial) {
  ladder_launch(
      space, launch, "reduce::interleaved", in, partial,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Slots<Space, T>& s, int lanes) {
        interleaved_tree<Space, T>(team, s, lanes);  // your TODOs in interleaved_step and interleaved_tree, above
      });
}

template <int Unroll, class Space, class T>
void unrolled(const Space& space, const Launch& launch, View<const T*, Space> in, View<T*, Space> partial) {
  const int n = static_cast<int>(in.extent(0));
  const int lanes = launch.lanes;
  unrolled_launch<Unroll>(
      space, launch, "reduce::unrolled", partial,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Slots<Space, T>& s, int first) {
        load_tile<Unroll, Space, T>(team, in, n, first, s, lanes);  // your TODO in load_tile, above
        interleaved_tree<Space, T>(team, s, lanes);
      });
}

// The launch of the rungs that end with warp_finish (unroll_warps8, complete_unroll, templated):
// team t loads its 8 * lanes elements into the slots (load_tile), the rung's tree(team, s, lanes)
// adds them down to 64 slots, and warp_finish (your TODO, above) writes partial(t). Lanes: the
// lane count where it is a compile-time constant (templated), else 0.
template <int Lanes, class Space, class T, class Tree>
void warp_rung(const Space& space, const Launch& launch, const char* name, View<const T*, Space> in,
               View<T*, Space> partial, Tree tree) {
  const int n = static_cast<int>(in.extent(0));
  const int lanes = launch.lanes;
  warp_launch<Space, T>(
      space, launch, name,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Slots<Space, T>& s, Warp<Space, T>& warp, int first) {
        load_tile<8, Space, T>(team, in, n, first, s, Lanes > 0 ? Lanes : lanes);
        tree(team, s, lanes);
        warp_finish<Space, T>(team, s, warp, partial);
      });
}

template <class Space, class T>
void unroll_warps8(const Space& space, const Launch& launch, View<const T*, Space> in, View<T*, Space> partial) {
  warp_rung<0>(
      space, launch, "reduce::unroll_warps8", in, partial,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Slots<Space, T>& s, int lanes) {
        interleaved_tree<Space, T>(team, s, lanes, 64);  // with barriers down to 64 slots
      });
}

template <class Space, class T>
void complete_unroll(const Space& space, const Launch& launch, View<const T*, Space> in, View<T*, Space> partial) {
  warp_rung<0>(
      space, launch, "reduce::complete_unroll", in, partial,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Slots<Space, T>& s, int lanes) {
        // TODO(roughly 4 lines): the interleaved tree down to 64 slots written out step by
        //   step with no loop, for teams of up to 1024 lanes, leaving the last 64 for warp_finish.
      });
}

template <int Lanes, class Space, class T>
void templated(const Space& space, const Launch& launch, View<const T*, Space> in, View<T*, Space> partial) {
  static_assert(Lanes >= 64 && Lanes <= 1024 && (Lanes & (Lanes - 1)) == 0, "Lanes: a power of two, 64 .. 1024");
  warp_rung<Lanes>(  // launch.lanes == Lanes
      space, launch, "reduce::templated", in, partial,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Slots<Space, T>& s, int /*lanes: Lanes*/) {
        // TODO(roughly 4 lines): the unrolled tree of complete_unroll, but on the compile-time
        //   constant Lanes, so that the steps that do not apply are not even compiled (if
        //   constexpr).
      });
}

// ---- The portable rung: Kokkos' own levels ----------------------------------------------------

// No scratch, no barrier, no tree: Kokkos adds the lanes of a row (warp shuffles on CUDA, one
// SIMD loop on a CPU) and the rows of the team (a block reduction on CUDA, nothing at all for a
// CPU team of one thread). The shape (team size, vector length, tile) comes from the framework.
template <class Space, class T>
void team_reduce(const Space& space, const Launch& launch, View<const T*, Space> in, View<T*, Space> partial) {
  const int n = static_cast<int>(in.extent(0));
  const int tile = launch.tile, width = row_width(launch);
  const auto policy = TeamPolicy<Space>(space, launch.league, launch.team_size, launch.vector_length);
  Kokkos::parallel_for(
      "reduce::team_reduce", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int t = team.league_rank();
        const int first = t * tile;
        const int count = Kokkos::min(tile, n - first);  // this team's values: rows of `width`, the last one shorter
        const int rows = (count + width - 1) / width;
        // TODO(roughly 12 lines): this tile's sum into partial(t) with Kokkos' nested
        //   reductions: rows on members (TeamThreadRange), a row's values on lanes
        //   (ThreadVectorRange).
      });
}

// ---- Beyond the book -----------------------------------------------------------------------

template <class Space, class T>
void persistent(const Space& space, const Launch& launch, View<const T*, Space> in, View<T*, Space> partial,
                View<unsigned*, Space> done, View<T*, Space> result) {
  using Quads = Kokkos::View<const Quad<T>*, typename Space::memory_space, Kokkos::MemoryUnmanaged>;
  if (!is_quad_aligned(in.data())) throw std::invalid_argument("reduce::persistent needs a 16-byte aligned input");
  const std::int64_t n = static_cast<std::int64_t>(in.extent(0));
  const std::int64_t nq = n / 4;  // whole Quads; the 0 to 3 elements after them go to the last team
  const Quads quads(reinterpret_cast<const Quad<T>*>(in.data()), static_cast<std::size_t>(nq));
  const int league = launch.league;
  const auto policy = TeamPolicy<Space>(space, league, launch.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(persistent_scratch_bytes<Space, T>(launch.team_size)));
  Kokkos::parallel_for(
      "reduce::persistent", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const Slots<Space, T> slots(team.team_scratch(0), team.team_size());
        const ScratchView<int*, Space> last(team.team_scratch(0), 1);
        const int t = team.league_rank();
        // This team's share: Quads [begin, end), cut into four runs of `quarter` Quads and a rest.
        const std::int64_t begin = share_begin(nq, league, t), end = share_begin(nq, league, t + 1);
        const int quarter = static_cast<int>((end - begin) / 4);
        T acc = T(0);  // this member's sum
        // TODO(roughly 8 lines): this member's share of the team's Quads into acc (quad_sum):
        //   the four runs of `quarter`, four independent 16-byte loads per iteration before any
        //   add.
        // The 0 to 3 Quads after the four runs, and in the last team the elements after the last Quad.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(end - begin - 4 * quarter)),
                             [&](int r) { acc += quad_sum(quads(begin + 4 * quarter + r)); });
        if (t == league - 1)
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(n - 4 * nq)),
                               [&](int r) { acc += in(4 * nq + r); });
        const T total = team_sum<Space, T>(team, slots, acc);
        finish_last_team<Space, T>(team, slots, last, total, partial, done, result);
      });
}

// ---- The comparisons -------------------------------------------------------------------------

template <class Space, class T>
void builtin(const Space& space, View<const T*, Space> in, View<T*, Space> result) {
  const int n = static_cast<int>(in.extent(0));
  // TODO(roughly 4 lines): the sum of in into result(0) with Kokkos' own
  //   Kokkos::parallel_reduce over a RangePolicy of n, the result given as a View of one value.
}

template <class Space, class T>
void recursive(const Space& space, const Launch& launch, View<const T*, Space> in, View<T*, Space> work,
               View<T*, Space> result) {
  const std::size_t lanes = static_cast<std::size_t>(launch.lanes);
  View<const T*, Space> level = in;  // the values still to be added
  std::size_t offset = 0;            // where the next level's partial sums go in `work`
  // TODO(roughly 9 lines): apply interleaved to the partial sums pass after pass, each pass
  //   writing to the next unused part of work, until one value is left; copy it to result.
}

KPZ_FOR_EACH_SPACE(KPZ_REDUCE_INSTANTIATE)

}  // namespace kpz::reduce::exercise
