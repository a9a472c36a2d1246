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

}  // namespace

template <class Space>
void extract_single_pass(const Space& space, const FastLaunch& launch, int num_bins, int target_bin,
                         View<const float*, Space> in, View<U64*, Space> status, View<float*, Space> out,
                         View<int*, Space> count) {
  constexpr int Items = fast_items<Space>();
  static_assert(Items % 4 == 0, "items per member must be whole Quads");
  const long n = static_cast<long>(in.extent(0));
  const int team_size = launch.team_size, tile = launch.tile, tiles = launch.tiles;
  const int window = team_size < 32 ? team_size : 32;  // predecessors read per look-back step
  const bool aligned = is_aligned(in.data());
  Kokkos::deep_copy(space, status, U64(0));  // ticket 0, every tile invalid
  const auto policy = TeamPolicy<Space>(space, tiles, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(fast_scratch_bytes<Space>(launch, 1)));
  Kokkos::parallel_for(
      "bin_extract::extract_single_pass", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<float*, Space> s_out(team.team_scratch(0), tile);  // the tile's selection
        ScratchView<long long*, Space> s_ctl(team.team_scratch(0), 4);
        ScratchView<U64*, Space> s_window(team.team_scratch(0), 32);
        const int rank = team.team_rank();
        const bool leader = rank == team.team_size() - 1;

        // 1. The tile index is a ticket taken when the team starts, not the league rank: a team
        //    then waits only for tiles whose teams are already running (no deadlock, whatever
        //    order the backend starts teams in).
        U64 ticket = 0;
        Kokkos::single(
            Kokkos::PerTeam(team), [&](U64& t) { t = Kokkos::atomic_fetch_add(&status(0), U64(1)); }, ticket);
        const long t = static_cast<long>(ticket);
        const long first = t * tile + static_cast<long>(rank) * Items;

        // 2. Predicate and local prefix: one exclusive team scan of the members' counts.
        float x[Items];
        load_items<Items, Space>(in, n, first, aligned, x);
        int mine = 0;
        for (int k = 0; k < Items; ++k) mine += (first + k < n && bin_of(x[k], num_bins) == target_bin) ? 1 : 0;
        const int before = team.team_scan(mine);

        // 3. Stage the selection in scratch at its place in the tile's output (stable: members
        //    own consecutive elements in rank order), so that the global writes are coalesced.
        int pos = before;
        for (int k = 0; k < Items; ++k)
          if (first + k < n && bin_of(x[k], num_bins) == target_bin) s_out(pos++) = x[k];

        // 4. Publish the tile's own count at once, so that later tiles can look past this one.
        if (leader) {
          const long long aggregate = before + mine;
          Kokkos::atomic_store(&status(1 + t), make_status(t == 0 ? kInclusive : kAggregate, U64(aggregate)));
          s_ctl(0) = aggregate;  // this tile's count
          s_ctl(1) = 0;          // exclusive prefix gathered so far
          s_ctl(2) = t - 1;      // next predecessor to read
          s_ctl(3) = t == 0;     // prefix complete
        }
        team.team_barrier();

        // 5. Decoupled look-back: read `window` predecessors at once, add aggregates until an
        //    inclusive prefix; an invalid one (not published yet) means: read again from there.
        while (s_ctl(3) == 0) {
          const long long top = s_ctl(2);
          if (rank < window)
            s_window(rank) = top - rank >= 0 ? Kokkos::atomic_load(&status(1 + top - rank)) : make_status(kInclusive, 0);
          team.team_barrier();
          if (leader) {
            long long sum = s_ctl(1), next = top;
            bool done = false;
            for (int r = 0; r < window && !done; ++r) {
              const U64 word = s_window(r);
              const U64 flag = word >> 32;
              if (flag == kInvalid) break;
              sum += static_cast<long long>(word & 0xffffffffull);
              next = top - r - 1;
              done = flag == kInclusive;
            }
            s_ctl(1) = sum;
            s_ctl(2) = next;
            if (done) {
              Kokkos::atomic_store(&status(1 + t), make_status(kInclusive, U64(sum + s_ctl(0))));
              s_ctl(3) = 1;
            }
          }
          team.team_barrier();
        }

        // 6. Coalesced copy of the staged selection to its global place.
        const long long prefix = s_ctl(1);
        const int selected = static_cast<int>(s_ctl(0));
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
  const int words = (num_bins + 3) / 4;  // 4 bins of 16 bits per 64-bit word
  const bool aligned = is_aligned(in.data());
  const auto policy = TeamPolicy<Space>(space, tiles, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(fast_scratch_bytes<Space>(launch, num_bins)));

  // Pass 1: per-tile histograms, bin-major. Counts of 4 bins travel packed in one 64-bit word
  // (a tile has at most 8192 < 2^16 elements), so 8 bins cost 2 team reductions.
  Kokkos::parallel_for(
      "bin_extract::partition_histograms", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const long t = team.league_rank();
        const long first = t * tile + static_cast<long>(team.team_rank()) * Items;
        float x[Items];
        load_items<Items, Space>(in, n, first, aligned, x);
        for (int g = 0; g < words; ++g) {
          U64 packed = 0;
          for (int k = 0; k < Items; ++k) {
            const int b = bin_of(x[k], num_bins);
            if (first + k < n && (b >> 2) == g) packed += U64(1) << (16 * (b & 3));
          }
          team.team_reduce(Kokkos::Sum<U64>(packed));
          if (team.team_rank() == 0)
            for (int f = 0; f < 4 && 4 * g + f < num_bins; ++f)
              tile_offsets((4 * g + f) * tiles + t) = static_cast<int>((packed >> (16 * f)) & 0xffff);
        }
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

  // Pass 2: the rank of an element among the earlier elements of its bin in the tile is
  // (elements of that bin held by lower ranks: a packed exclusive team scan) + (earlier ones
  // of the member itself). Elements are staged in scratch in bin order, then copied out with
  // consecutive members writing consecutive addresses.
  Kokkos::parallel_for(
      "bin_extract::partition_scatter", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<float*, Space> s_stage(team.team_scratch(0), tile);
        ScratchView<int*, Space> s_local(team.team_scratch(0), num_bins + 1);  // bin starts in the tile
        ScratchView<int*, Space> s_global(team.team_scratch(0), num_bins);     // bin starts in out
        // Last tile first: pass 1 read the input front to back, so the end of it is what the
        // L2 cache still holds (tens of MB on a GPU).
        const long t = tiles - 1 - team.league_rank();
        const int rank = team.team_rank();
        const bool leader = rank == team.team_size() - 1;
        const long first = t * tile + static_cast<long>(rank) * Items;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_bins),
                             [&](int b) { s_global(b) = tile_offsets(b * tiles + t); });
        float x[Items];
        load_items<Items, Space>(in, n, first, aligned, x);
        int local_base = 0;  // leader only: elements of the bins already placed
        for (int g = 0; g < words; ++g) {
          U64 mine = 0;
          for (int k = 0; k < Items; ++k) {
            const int b = bin_of(x[k], num_bins);
            if (first + k < n && (b >> 2) == g) mine += U64(1) << (16 * (b & 3));
          }
          U64 rank_in_bin = team.team_scan(mine);  // per bin: its elements held by lower ranks
          if (leader) {
            const U64 total = rank_in_bin + mine;
            for (int f = 0; f < 4 && 4 * g + f < num_bins; ++f) {
              s_local(4 * g + f) = local_base;
              local_base += static_cast<int>((total >> (16 * f)) & 0xffff);
            }
            if (g == words - 1) s_local(num_bins) = local_base;
          }
          team.team_barrier();  // s_local of this word's bins is visible
          for (int k = 0; k < Items; ++k) {
            const int b = bin_of(x[k], num_bins);
            if (first + k < n && (b >> 2) == g) {
              const int f = b & 3;
              s_stage(s_local(b) + static_cast<int>((rank_in_bin >> (16 * f)) & 0xffff)) = x[k];
              rank_in_bin += U64(1) << (16 * f);
            }
          }
        }
        team.team_barrier();  // the whole tile is staged
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, s_local(num_bins)), [&](int i) {
          const float v = s_stage(i);
          const int b = bin_of(v, num_bins);
          out(s_global(b) + (i - s_local(b))) = v;
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
