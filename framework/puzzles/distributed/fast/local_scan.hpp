#pragma once
// distributed's given rank-local segmented inclusive scan (local_segmented_scan), which the
// reference and the learner's segmented_scan call before the carry between ranks.
//
// Three launches, every scan of the segmented operator in an order this code controls (Kokkos
// 5.0.2's CUDA RangePolicy scan accumulates a block's elements in a strided order, right only
// for commutative joins, and its team-level scans are sum-only):
//   1. a team per tile of consecutive elements: the tile's first and last heads (min, max) and
//      the sum of its values from the last head on, by commutative team reductions, which read
//      every head but only the values after the last head;
//   2. one team joins the tiles' summaries in order (each member folds a contiguous run of
//      tiles, kpz::team::OrderedScan joins the members'): the carry into each tile's open
//      segment, the slice's summary and its first head;
//   3. a team per tile again: each member folds a contiguous chunk serially, the chunks are
//      joined in rank order from the tile's carry, and each member walks its chunk writing out.
// On a GPU a team (256 threads) stages its tile in level-0 scratch for pass 3 with loads and
// stores in which a warp touches consecutive elements; members walk their chunks there (padded
// so that a warp's chunks start in different banks). On a CPU a team is one thread walking its
// tile in memory: no barrier, and pass 3 reads the tile once.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#include "kpz/backend_traits.hpp"
#include "kpz/errors.hpp"
#include "kpz/team/ordered_scan.hpp"
#include "kpz/types.hpp"

namespace kpz::distributed {

// A rank's slice summarised under the segmented operator: `value` sums from the slice's last
// segment head to its end (the whole slice when no head is in it), `flag` says a head is in it.
struct SegPair {
  std::int64_t value;
  std::int64_t flag;
};

// What the rank-local scan leaves for the carry: the slice's summary, and its first head (the
// slice's length when it has none), before which the carry from earlier ranks is still missing.
struct LocalScan {
  SegPair total;
  std::int64_t first_head;
};

// How the rank-local scan is launched: elements per team and members per team.
struct LocalScanShape {
  int tile;
  int team_size;
};

// The backend's fastest shape. A GPU tile fits level-0 scratch with its heads and the team's
// scan buffer (Kokkos 5.0.2 caps it at 48 KiB a block); a CPU team of one thread needs no
// barrier, and a long tile keeps the carry pass short.
template <class Space>
LocalScanShape local_scan_shape() {
  if constexpr (is_gpu_v<Space>) return LocalScanShape{.tile = 2048, .team_size = 256};
  return LocalScanShape{.tile = 16384, .team_size = 1};
}

namespace local_scan_detail {

// A run of elements under the segmented operator, with its first head (a global index; the
// slice's length when none) for LocalScan::first_head.
struct Run {
  std::int64_t value;
  std::int64_t flag;
  std::int64_t first;
};

// Not commutative: `earlier` must cover the elements before `later`'s.
struct JoinRuns {
  KOKKOS_INLINE_FUNCTION Run operator()(const Run& earlier, const Run& later) const {
    return Run{.value = later.flag ? later.value : earlier.value + later.value,
               .flag = earlier.flag | later.flag,
               .first = later.first < earlier.first ? later.first : earlier.first};
  }
};

// A tile's elements as one team sees them: staged in scratch when the team has several members
// (index k at k + k / chunk, so that consecutive members' chunks start in different banks), or
// read in place by a team of one.
template <class Space>
struct TileView {
  ScratchView<std::int64_t*, Space> values;
  ScratchView<std::uint8_t*, Space> heads;
  int chunk;

  KOKKOS_INLINE_FUNCTION static std::size_t padded(int tile, int chunk) {
    return static_cast<std::size_t>(tile + tile / chunk + 1);
  }
  KOKKOS_INLINE_FUNCTION int at(int k) const { return k + k / chunk; }
};

// Pass 1: each tile's Run into tile_runs. It needs only the tile's first and last heads and the
// sum of the values from the last head on: commutative team reductions (min, max, +), which read
// every head but only the values after the last head (consecutive ones per warp on CUDA).
template <class Space>
struct TileRuns {
  View<const std::int64_t*, Space> values;
  View<const std::uint8_t*, Space> heads;
  View<Run*, Space> tile_runs;
  std::int64_t n;
  int tile;

  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember<Space>& team) const {
    const std::int64_t base = static_cast<std::int64_t>(team.league_rank()) * tile;
    const int len = n - base < tile ? static_cast<int>(n - base) : tile;
    if (team.team_size() == 1) {
      // A CPU's thread alone: from the tile's end back to its last head, which leaves it reading
      // only a sliver of the heads too where segments are short.
      int last = len - 1;
      while (last >= 0 && heads(base + last) == 0) --last;
      int first = 0;
      while (first <= last && heads(base + first) == 0) ++first;
      std::int64_t sum = 0;
      for (int k = last < 0 ? 0 : last; k < len; ++k) sum += values(base + k);
      tile_runs(team.league_rank()) =
          Run{.value = sum, .flag = last >= 0 ? 1 : 0, .first = last >= 0 ? base + first : n};
      return;
    }
    Kokkos::MinMaxScalar<int> ends{};  // min: first head (len: none); max: last head (-1: none)
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, len),
        [&](const int k, Kokkos::MinMaxScalar<int>& e) {
          // Selects, not branches: heads are as unpredictable as the data.
          const bool head = heads(base + k) != 0;
          const int as_first = head ? k : len;
          const int as_last = head ? k : -1;
          e.min_val = as_first < e.min_val ? as_first : e.min_val;
          e.max_val = as_last > e.max_val ? as_last : e.max_val;
        },
        Kokkos::MinMax<int>(ends));
    const bool any = ends.max_val >= 0;
    std::int64_t sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, any ? ends.max_val : 0, len),
        [&](const int k, std::int64_t& s) { s += values(base + k); }, sum);
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      tile_runs(team.league_rank()) = Run{.value = sum, .flag = any ? 1 : 0, .first = any ? base + ends.min_val : n};
    });
  }
};

// Pass 3: out, each tile from its carry.
template <class Space>
struct TileOut {
  View<const std::int64_t*, Space> values;
  View<const std::uint8_t*, Space> heads;
  View<std::int64_t*, Space> out;
  View<const std::int64_t*, Space> carries;
  std::int64_t n;
  int tile;

  KOKKOS_INLINE_FUNCTION static int chunk_of(int tile, int members) { return (tile + members - 1) / members; }

  // Level-0 scratch one team takes; the views are carved in operator()'s order.
  static std::size_t scratch_bytes(int tile, int members) {
    std::size_t bytes = team::OrderedScan<Space, Run>::scratch_bytes(members);
    if (members > 1) {
      const std::size_t padded = TileView<Space>::padded(tile, chunk_of(tile, members));
      bytes +=
          ScratchView<std::int64_t*, Space>::shmem_size(padded) + ScratchView<std::uint8_t*, Space>::shmem_size(padded);
    }
    return bytes;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember<Space>& team) const {
    const std::int64_t base = static_cast<std::int64_t>(team.league_rank()) * tile;
    const int len = n - base < tile ? static_cast<int>(n - base) : tile;
    const int members = team.team_size();
    const int rank = team.team_rank();
    const bool staged = members > 1;  // the same for every member: its barriers are reached by all
    const int chunk = chunk_of(tile, members);
    const std::size_t padded = staged ? TileView<Space>::padded(tile, chunk) : 0;
    // Carved in scratch_bytes' order, the bytes last so that nothing after them needs aligning.
    const ScratchView<std::int64_t*, Space> staged_values(team.team_scratch(0), padded);
    const team::OrderedScan<Space, Run> scan(team);
    const TileView<Space> staged_tile{.values = staged_values,
                                      .heads = ScratchView<std::uint8_t*, Space>(team.team_scratch(0), padded),
                                      .chunk = chunk};
    if (staged) {
      // TeamThreadRange is cyclic on CUDA: a warp loads consecutive elements.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, len), [&](const int k) {
        staged_tile.values(staged_tile.at(k)) = values(base + k);
        staged_tile.heads(staged_tile.at(k)) = heads(base + k);
      });
      team.team_barrier();
    }
    const int lo = rank * chunk < len ? rank * chunk : len;
    const int hi = lo + chunk < len ? lo + chunk : len;
    // The member's chunk: fold it (only members after the first need it: a team of one reads
    // its tile once), join the chunks before it in order, walk it again from there.
    const auto chunk_pass = [&](const auto& value_at, const auto& head_at, const auto& write) {
      // Masks, not branches: heads are as unpredictable as the data (random ones cost a CPU a
      // mispredicted branch every other element).
      Run mine{.value = 0, .flag = 0, .first = n};
      for (int k = lo; k < (members > 1 ? hi : lo); ++k) {
        const std::int64_t keep = (head_at(k) ? 1 : 0) - std::int64_t{1};  // all ones where no segment starts
        mine.value = (mine.value & keep) + value_at(k);
        mine.flag |= ~keep & 1;
      }
      const team::ScanResult<Run> before = scan.scan(team, mine, Run{.value = 0, .flag = 0, .first = n}, JoinRuns{});
      std::int64_t sum =
          before.exclusive.flag ? before.exclusive.value : carries(team.league_rank()) + before.exclusive.value;
      for (int k = lo; k < hi; ++k) {
        sum = (sum & ((head_at(k) ? 1 : 0) - std::int64_t{1})) + value_at(k);
        write(k, sum);
      }
    };
    if (staged) {
      // Inside a member's chunk at(k) is k + rank (no division). Each member overwrites only its
      // own chunk's values, after reading them.
      chunk_pass([&](const int k) { return staged_tile.values(k + rank); },
                 [&](const int k) { return staged_tile.heads(k + rank) != 0; },
                 [&](const int k, const std::int64_t v) { staged_tile.values(k + rank) = v; });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, len),
                           [&](const int k) { out(base + k) = staged_tile.values(staged_tile.at(k)); });
    } else {
      chunk_pass([&](const int k) { return values(base + k); }, [&](const int k) { return heads(base + k) != 0; },
                 [&](const int k, const std::int64_t v) { out(base + k) = v; });
    }
  }
};

// Pass 2: one team joins the tiles' Runs in order; carries(t) = the value of the join of tiles
// before t (the carry into tile t's open segment), slice(0) = the join of them all.
template <class Space>
struct TileCarries {
  View<const Run*, Space> tile_runs;
  View<std::int64_t*, Space> carries;
  View<Run*, Space> slice;
  std::int64_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember<Space>& team) const {
    const team::OrderedScan<Space, Run> scan(team);
    const int tiles = static_cast<int>(tile_runs.extent(0));
    const int members = team.team_size();
    const int chunk = (tiles + members - 1) / members;
    const int lo = team.team_rank() * chunk < tiles ? team.team_rank() * chunk : tiles;
    const int hi = lo + chunk < tiles ? lo + chunk : tiles;
    const Run identity{.value = 0, .flag = 0, .first = n};
    Run mine = identity;
    for (int t = lo; t < hi; ++t) mine = JoinRuns{}(mine, tile_runs(t));
    const team::ScanResult<Run> before = scan.scan(team, mine, identity, JoinRuns{});
    Run acc = before.exclusive;
    for (int t = lo; t < hi; ++t) {
      carries(t) = acc.value;
      acc = JoinRuns{}(acc, tile_runs(t));
    }
    if (team.team_rank() == members - 1) slice(0) = before.inclusive;
  }
};

}  // namespace local_scan_detail

// The segmented inclusive scan of this slice alone (as if a segment started at the slice's
// start), in out, with the slice's summary and first head. Launched on `space`; returns after a
// fence (the summary is read on the host). `shape` is for tests (several team sizes on a CPU);
// its tile must be a power of two and its team size at most the tile.
template <class Space>
LocalScan local_segmented_scan(const Space& space, View<const std::int64_t*, Space> values,
                               View<const std::uint8_t*, Space> heads, View<std::int64_t*, Space> out,
                               LocalScanShape shape = local_scan_shape<Space>()) {
  using namespace local_scan_detail;
  const std::int64_t n = static_cast<std::int64_t>(values.extent(0));
  if (n == 0) return {{0, 0}, 0};
  const std::int64_t tiles = (n + shape.tile - 1) / shape.tile;
  if (tiles > 1 << 30) throw UsageError("local_segmented_scan: more tiles than a league holds");
  View<Run*, Space> tile_runs(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "tile_runs"), tiles);
  View<std::int64_t*, Space> carries(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "carries"), tiles);
  View<Run*, Space> slice(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "slice"), 1);

  const auto tile_policy = [&](std::size_t bytes) {
    Kokkos::TeamPolicy<Space> policy(space, static_cast<int>(tiles), shape.team_size);
    check_warp_launch(policy);
    if (bytes > static_cast<std::size_t>(policy.scratch_size_max(0)))
      throw UsageError("local_segmented_scan: a tile of " + std::to_string(shape.tile) + " needs " +
                       std::to_string(bytes) + " bytes of level-0 scratch, more than the backend's " +
                       std::to_string(policy.scratch_size_max(0)));
    return policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  };
  Kokkos::parallel_for(
      "distributed::local_scan_tiles", tile_policy(0),
      TileRuns<Space>{.values = values, .heads = heads, .tile_runs = tile_runs, .n = n, .tile = shape.tile});

  // One team over every tile: the widest the backend takes on a GPU, one thread on a CPU.
  Kokkos::TeamPolicy<Space> carry_policy(space, 1, is_gpu_v<Space> ? 1024 : 1);
  const int carry_team =
      is_gpu_v<Space> ? carry_policy.team_size_max(TileCarries<Space>{}, Kokkos::ParallelForTag{}) : 1;
  carry_policy = Kokkos::TeamPolicy<Space>(space, 1, carry_team);
  check_warp_launch(carry_policy);
  Kokkos::parallel_for(
      "distributed::local_scan_carries",
      carry_policy.set_scratch_size(0, Kokkos::PerTeam(team::OrderedScan<Space, Run>::scratch_bytes(carry_team))),
      TileCarries<Space>{.tile_runs = tile_runs, .carries = carries, .slice = slice, .n = n});

  Kokkos::parallel_for(
      "distributed::local_scan_out", tile_policy(TileOut<Space>::scratch_bytes(shape.tile, shape.team_size)),
      TileOut<Space>{.values = values, .heads = heads, .out = out, .carries = carries, .n = n, .tile = shape.tile});

  const auto slice_host = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, slice);
  Kokkos::deep_copy(space, slice_host, slice);
  space.fence();
  const Run total = slice_host(0);
  return LocalScan{.total = SegPair{.value = total.value, .flag = total.flag},
                   .first_head = total.flag ? total.first : n};
}

}  // namespace kpz::distributed
