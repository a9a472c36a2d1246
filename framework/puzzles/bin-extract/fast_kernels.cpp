// The kernels `kpuzzles bench bin-extract` measures against CUB and Kokkos (compiled once per
// space: a kernel lambda in a header that several translation units instantiate is an ODR trap
// under nvcc). The learner's kernels are in reference/ and exercises/; these are what the docs'
// "solution explained" section walks through as the fast versions.
#include <cstdint>

#include "bin-extract/bin-extract.hpp"
#include "kpz/check.hpp"

namespace kpz::bin_extract {

void validate_input(const std::vector<float>& values) { require_finite(values, "bin-extract input"); }

namespace {

using U64 = unsigned long long;

// A tile's status word in the look-back: flag in the high 32 bits, a count in the low 32 bits,
// so that flag and value are published and read together by one 64-bit atomic.
constexpr U64 kInvalid = 0;    // nothing published yet (the workspace is cleared to 0)
constexpr U64 kAggregate = 1;  // value = the tile's own count
constexpr U64 kInclusive = 2;  // value = the count of this tile and all tiles before it

KOKKOS_INLINE_FUNCTION U64 make_status(U64 flag, U64 value) { return (flag << 32) | value; }

// Reads and writes of a status word. Kokkos 5.0.2's atomic_load / atomic_store are
// compare-and-swap loops on a GPU (desul's generic fetch_oper): read-modify-writes at the L2 on
// lines that ~16 successors poll at once. The first version of the look-back spent 83 % of its
// cycles at the team barrier behind them (ncu, H100) and ran at 4 % of CUB. Flag and count
// share one aligned 64-bit word, so a volatile access (one load or store that goes to the
// coherent L2, and a single-copy-atomic one for an aligned word on GPUs) is all the look-back
// needs: nothing else crosses tiles. Host backends keep the real atomics.
KOKKOS_INLINE_FUNCTION U64 load_status(const U64* p) {
  KOKKOS_IF_ON_DEVICE((return *static_cast<const volatile U64*>(p);))
  KOKKOS_IF_ON_HOST((return Kokkos::atomic_load(p);))
}
KOKKOS_INLINE_FUNCTION void store_status(U64* p, U64 word) {
  KOKKOS_IF_ON_DEVICE((*static_cast<volatile U64*>(p) = word;))
  KOKKOS_IF_ON_HOST((Kokkos::atomic_store(p, word);))
}

// Predecessors the leader reads per look-back step: all loads in flight at once, combined in
// registers (16 words: 32 registers, while the tile's own values are dead).
constexpr int kWindow = 16;

// Loads member-owned elements first .. first + Items - 1 (0 past n) into x: 16-byte loads when the
// whole range is inside the input and the data is 16-byte aligned, scalar loads otherwise.
template <int Items, class Space>
KOKKOS_INLINE_FUNCTION void load_items(const View<const float*, Space>& in, long n, long first, bool aligned,
                                       float (&x)[Items]) {
  if (aligned && first + Items <= n) {
    const Quad* q = reinterpret_cast<const Quad*>(in.data() + first);
    Quad v[Items / 4];
    for (int j = 0; j < Items / 4; ++j) v[j] = q[j];  // all loads issued before any use
    for (int j = 0; j < Items / 4; ++j)
      for (int e = 0; e < 4; ++e) x[4 * j + e] = v[j].v[e];
  } else {
    for (int k = 0; k < Items; ++k) x[k] = first + k < n ? in(first + k) : 0.0f;
  }
}

bool is_aligned(const float* data) { return reinterpret_cast<std::uintptr_t>(data) % alignof(Quad) == 0; }

// Entry f of the (bin, member) count table with one padding slot per 32 entries: in the scan a
// member reads its num_bins consecutive entries, so without padding the members of a warp would
// meet in a few banks (stride num_bins); with it, in distinct ones.
KOKKOS_INLINE_FUNCTION int padded(int f) { return f + (f >> 5); }

// Per-member counts in registers, 8 bits per bin, two words: for up to 16 bins when a member owns
// fewer than 256 elements (a GPU; a host member owns 1024 and counts in scratch).
template <int Items>
KOKKOS_INLINE_FUNCTION bool packed_counts(int num_bins) {
  return Items < 256 && num_bins <= 16;
}

// Ranks a tile's elements by bin (a stable counting sort of the tile). Member r's count of bin b
// goes to table entry b * T + r (bin-major), and one exclusive scan over all entries in that order
// leaves in entry (b, r) the place in the bin-ordered tile of member r's first element of bin b:
// every element of a lower bin, and of bin b held by lower ranks, comes before it. Member r owns
// entries r * num_bins .. r * num_bins + num_bins - 1 of the scan, so a single team_scan of one
// int per member does it. Ends with a barrier: the table is complete for everyone.
template <int Items, class Space>
KOKKOS_INLINE_FUNCTION void rank_tile_by_bin(const TeamMember<Space>& team, const ScratchView<int*, Space>& table,
                                             int num_bins, const float (&x)[Items], long first, long n) {
  const int T = team.team_size(), r = team.team_rank();
  if (packed_counts<Items>(num_bins)) {
    U64 lo = 0, hi = 0;
    for (int k = 0; k < Items; ++k) {
      const int b = bin_of(x[k], num_bins);
      const U64 inc = U64(first + k < n) << (8 * (b & 7));
      if (b < 8) lo += inc;
      else hi += inc;
    }
    for (int b = 0; b < num_bins; ++b) table(padded(b * T + r)) = static_cast<int>(((b < 8 ? lo : hi) >> (8 * (b & 7))) & 0xff);
  } else {
    for (int b = 0; b < num_bins; ++b) table(padded(b * T + r)) = 0;  // only this member touches its column
    for (int k = 0; k < Items; ++k)
      if (first + k < n) ++table(padded(bin_of(x[k], num_bins) * T + r));
  }
  team.team_barrier();
  int sum = 0;
  for (int j = 0; j < num_bins; ++j) sum += table(padded(r * num_bins + j));
  int run = team.team_scan(sum);  // every member has read its chunk before any returns
  for (int j = 0; j < num_bins; ++j) {
    const int f = padded(r * num_bins + j), c = table(f);
    table(f) = run;
    run += c;
  }
  team.team_barrier();
}

}  // namespace

template <class Space>
void extract_single_pass(const Space& space, const FastLaunch& launch, int num_bins, int target_bin,
                         View<const float*, Space> in, View<U64*, Space> status, View<float*, Space> out,
                         View<int*, Space> count) {
  constexpr int Items = fast_items<Space>();
  static_assert(Items % 4 == 0, "items per member must be whole Quads");
  const long n = static_cast<long>(in.extent(0));
  const int team_size = launch.team_size, tile = launch.tile, tiles = launch.tiles;
  const bool aligned = is_aligned(in.data());
  Kokkos::deep_copy(space, status, U64(0));  // ticket 0, every tile invalid
  const std::size_t scratch =
      ScratchView<float*, Space>::shmem_size(tile) + ScratchView<long long*, Space>::shmem_size(2);
  const auto policy = TeamPolicy<Space>(space, tiles, team_size).set_scratch_size(0, Kokkos::PerTeam(scratch));
  Kokkos::parallel_for(
      "bin_extract::extract_single_pass", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<float*, Space> s_out(team.team_scratch(0), tile);  // the tile's selection
        ScratchView<long long*, Space> s_ctl(team.team_scratch(0), 2);  // exclusive prefix, count
        const int rank = team.team_rank();
        const bool leader = rank == team.team_size() - 1;

        // 1. The tile index is a ticket taken when the team starts, not the league rank: a team
        //    then waits only for tiles whose teams are already running (no deadlock, whatever
        //    order the backend starts teams in).
        U64 ticket = 0;
        Kokkos::single(
            Kokkos::PerTeam(team), [&](U64& tk) { tk = Kokkos::atomic_fetch_add(&status(0), U64(1)); }, ticket);
        const long t = static_cast<long>(ticket);
        const long first = t * tile + static_cast<long>(rank) * Items;

        // 2. Predicate and local prefix: one exclusive team scan of the members' counts.
        float x[Items];
        load_items<Items, Space>(in, n, first, aligned, x);
        int mine = 0;
        for (int k = 0; k < Items; ++k) mine += (first + k < n) & (bin_of(x[k], num_bins) == target_bin);
        const int before = team.team_scan(mine);

        // 3. Stage the selection in scratch at its place in the tile's output (stable: members
        //    own consecutive elements in rank order), so that the global writes are coalesced.
        //    A predicated store, not a branch; an unconditional one would race with the next
        //    member's first selected element.
        int pos = before;
        for (int k = 0; k < Items; ++k) {
          const int sel = (first + k < n) & (bin_of(x[k], num_bins) == target_bin);
          if (sel) s_out(pos) = x[k];
          pos += sel;
        }

        // 4. Publish the tile's own count at once, so that later tiles can look past this one,
        //    then the decoupled look-back, by the leader alone: wait until the nearest
        //    predecessor has published; an inclusive prefix ends it (the usual case: tiles
        //    finish in about ticket order), an aggregate is added and the kWindow words behind
        //    it are read at once, until an inclusive one; an invalid word (not published yet)
        //    ends the step and is waited for alone. No barrier inside the loop; the other
        //    members wait at the one after it.
        if (leader) {
          const long long aggregate = before + mine;
          long long prefix = 0;
          if (t == 0) {
            store_status(&status(1), make_status(kInclusive, U64(aggregate)));
          } else {
            store_status(&status(1 + t), make_status(kAggregate, U64(aggregate)));
            long long next = t - 1;  // the nearest predecessor not added yet
            while (true) {
              // Spin on that one word alone: every poll of a leader goes to the few L2 lines
              // near the frontier, and ~400 leaders polling whole windows there serialise.
              U64 w0 = load_status(&status(1 + next));
              while ((w0 >> 32) == kInvalid) w0 = load_status(&status(1 + next));
              prefix += static_cast<long long>(w0 & 0xffffffffull);
              if ((w0 >> 32) == kInclusive) break;
              --next;
              // An aggregate: read the window behind it, all loads in flight together.
              U64 w[kWindow];
              for (int r = 0; r < kWindow; ++r)  // tile 0 is inclusive: the guard only keeps loads in bounds
                w[r] = next - r >= 0 ? load_status(&status(1 + next - r)) : make_status(kInclusive, 0);
              bool done = false;
              int r = 0;
              for (; r < kWindow; ++r) {
                const U64 flag = w[r] >> 32;
                if (flag == kInvalid) break;
                prefix += static_cast<long long>(w[r] & 0xffffffffull);
                if (flag == kInclusive) {
                  done = true;
                  break;
                }
              }
              if (done) break;
              next -= r;
            }
            store_status(&status(1 + t), make_status(kInclusive, U64(prefix + aggregate)));
          }
          s_ctl(0) = prefix;
          s_ctl(1) = aggregate;
        }
        team.team_barrier();

        // 5. Coalesced copy of the staged selection to its global place.
        const long long prefix = s_ctl(0);
        const int selected = static_cast<int>(s_ctl(1));
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, selected), [&](int i) { out(prefix + i) = s_out(i); });
        if (t == tiles - 1 && leader) count(0) = static_cast<int>(prefix + selected);
      });
}

template <class Space>
void partition_two_pass(const Space& space, const FastLaunch& launch, int num_bins, View<const float*, Space> in,
                        View<int*, Space> tile_offsets, View<float*, Space> out, View<int*, Space> bin_offsets) {
  constexpr int Items = fast_items<Space>();
  const long n = static_cast<long>(in.extent(0));
  const int team_size = launch.team_size, tile = launch.tile, tiles = launch.tiles;
  const int table_ints = fast_table_ints(team_size, num_bins);
  const bool aligned = is_aligned(in.data());

  // Pass 1: per-tile histograms, bin-major: entry b * tiles + t. The tile is ranked exactly as
  // pass 2 ranks it; a bin's count is the difference of two neighbouring bin starts.
  const auto count_policy = TeamPolicy<Space>(space, tiles, team_size)
                                .set_scratch_size(0, Kokkos::PerTeam(ScratchView<int*, Space>::shmem_size(table_ints)));
  Kokkos::parallel_for(
      "bin_extract::partition_histograms", count_policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<int*, Space> table(team.team_scratch(0), table_ints);
        const long t = team.league_rank();
        const int T = team.team_size();
        const long first = t * tile + static_cast<long>(team.team_rank()) * Items;
        float x[Items];
        load_items<Items, Space>(in, n, first, aligned, x);
        rank_tile_by_bin<Items, Space>(team, table, num_bins, x, first, n);
        const int valid = static_cast<int>(n - t * tile < tile ? n - t * tile : tile);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_bins), [&](int b) {
          const int end = b + 1 < num_bins ? table(padded((b + 1) * T)) : valid;
          tile_offsets(b * tiles + t) = end - table(padded(b * T));
        });
      });

  const int entries = num_bins * tiles;
  Kokkos::parallel_scan(
      "bin_extract::partition_offsets", Kokkos::RangePolicy<Space>(space, 0, entries + 1),
      KOKKOS_LAMBDA(const int e, int& prefix, const bool final) {
        const int c = e < entries ? tile_offsets(e) : 0;
        if (final) tile_offsets(e) = prefix;
        prefix += c;
      });
  Kokkos::parallel_for(
      "bin_extract::partition_bin_offsets", Kokkos::RangePolicy<Space>(space, 0, num_bins + 1),
      KOKKOS_LAMBDA(const int b) { bin_offsets(b) = tile_offsets(b * tiles); });

  // Pass 2: rank the tile again, stage it in scratch in bin order, then copy it out with
  // consecutive members writing consecutive addresses (num_bins runs per tile).
  const auto policy = TeamPolicy<Space>(space, tiles, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(fast_scratch_bytes<Space>(launch, num_bins)));
  Kokkos::parallel_for(
      "bin_extract::partition_scatter", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<float*, Space> s_stage(team.team_scratch(0), tile);
        ScratchView<int*, Space> table(team.team_scratch(0), table_ints);
        ScratchView<int*, Space> s_delta(team.team_scratch(0), num_bins);  // out index - staged index, per bin
        // Last tile first: pass 1 read the input front to back, so the end of it is what the
        // L2 cache still holds (tens of MB on a GPU).
        const long t = tiles - 1 - team.league_rank();
        const int rank = team.team_rank(), T = team.team_size();
        const long first = t * tile + static_cast<long>(rank) * Items;
        float x[Items];
        load_items<Items, Space>(in, n, first, aligned, x);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_bins),
                             [&](int b) { s_delta(b) = tile_offsets(b * tiles + t); });
        rank_tile_by_bin<Items, Space>(team, table, num_bins, x, first, n);  // its barriers publish s_delta
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_bins),
                             [&](int b) { s_delta(b) -= table(padded(b * T)); });
        if (packed_counts<Items>(num_bins)) {
          // The member's own earlier elements of each bin, 8 bits per bin, in registers: the
          // table stays read-only, so s_delta above can read it without a barrier.
          U64 lo = 0, hi = 0;
          for (int k = 0; k < Items; ++k) {
            const int b = bin_of(x[k], num_bins), shift = 8 * (b & 7);
            const U64 seen = b < 8 ? lo : hi;
            if (first + k < n) s_stage(table(padded(b * T + rank)) + static_cast<int>((seen >> shift) & 0xff)) = x[k];
            if (b < 8) lo += U64(1) << shift;
            else hi += U64(1) << shift;
          }
        } else {
          team.team_barrier();  // s_delta has read the table; now members advance their columns
          for (int k = 0; k < Items; ++k)
            if (first + k < n) s_stage(table(padded(bin_of(x[k], num_bins) * T + rank))++) = x[k];
        }
        team.team_barrier();  // the whole tile is staged
        const int valid = static_cast<int>(n - t * tile < tile ? n - t * tile : tile);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, valid), [&](int i) {
          const float v = s_stage(i);
          out(s_delta(bin_of(v, num_bins)) + i) = v;
        });
      });
}

#define KPZ_BIN_EXTRACT_FAST_INSTANTIATE(S)                                                           \
  template void extract_single_pass<S>(const S&, const FastLaunch&, int, int, View<const float*, S>, \
                                       View<U64*, S>, View<float*, S>, View<int*, S>);               \
  template void partition_two_pass<S>(const S&, const FastLaunch&, int, View<const float*, S>,        \
                                      View<int*, S>, View<float*, S>, View<int*, S>);
KPZ_FOR_EACH_SPACE(KPZ_BIN_EXTRACT_FAST_INSTANTIATE)

}  // namespace kpz::bin_extract
