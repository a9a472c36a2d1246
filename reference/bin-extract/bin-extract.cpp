// bin-extract reference solution. exercises/bin-extract/bin-extract.cpp is generated from this
// file by cmake/kpz-skeletons: each KPZ-TODO ... KPZ-END block becomes a TODO for the learner.
#include "bin-extract/bin-extract.hpp"

namespace kpz::bin_extract::reference {

template <class Space>
void histogram(const Space& space, int team_size, int num_bins, View<const float*, Space> in, View<float**, Space> out,
               View<int*, Space> counts) {
  const int n = static_cast<int>(in.extent(0));
  // One team (CUDA: one block) of team_size members for the whole input. Its level-0 scratch
  // (CUDA: __shared__ memory) holds the input and its bins: the views s_x and s_bin below.
  TeamPolicy<Space> policy(space, 1, 1);
  // KPZ-TODO(roughly 3 lines): make policy the launch the comment above describes: one team of
  //   team_size members, with a level-0 request, per team, for the bytes s_x and s_bin carve.
  policy = TeamPolicy<Space>(space, 1, team_size)
               .set_scratch_size(0, Kokkos::PerTeam(ScratchView<float*, Space>::shmem_size(n) +
                                                    ScratchView<int*, Space>::shmem_size(n)));
  // KPZ-END
  Kokkos::parallel_for(
      "bin_extract::histogram", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<float*, Space> s_x(team.team_scratch(0), n);
        ScratchView<int*, Space> s_bin(team.team_scratch(0), n);
        // KPZ-TODO(roughly 5 lines): stage the input in scratch: in into s_x and each element's bin
        //   (bin_of) into s_bin; then the team waits for both.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) {
          s_x(i) = in(i);
          s_bin(i) = bin_of(s_x(i), num_bins);
        });
        team.team_barrier();
        // KPZ-END
        for (int k = 0; k < num_bins; ++k) {
          // KPZ-TODO(roughly 8 lines): compact bin k into out(k, ...) in input order with one
          //   Kokkos::parallel_scan over the team's n elements, and its size into counts(k).
          Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, n), [&](int i, int& offset, const bool final) {
            const int selected = s_bin(i) == k ? 1 : 0;
            if (final) {
              if (selected) out(k, offset) = s_x(i);
              if (i == n - 1) counts(k) = offset + selected;  // last offset + last predicate
            }
            offset += selected;
          });
          // KPZ-END
        }
      });
}

// counts(0 .. entries - 1) become their exclusive scan, in place, and counts(entries) (a zero on
// entry) the total: each tile's count turns into where its elements start in out. extract,
// partition and team_scan_extract all place their tiles with it.
template <class Space>
void scan_counts(const Space& space, const char* name, const View<int*, Space>& counts, int entries) {
  // KPZ-TODO(roughly 6 lines): the exclusive scan of counts in place, as the comment above
  //   describes (one Kokkos::parallel_scan over entries + 1 entries; the last gets the total).
  Kokkos::parallel_scan(
      name, Kokkos::RangePolicy<Space>(space, 0, entries + 1),
      KOKKOS_LAMBDA(const int e, int& prefix, const bool final) {
        const int c = e < entries ? counts(e) : 0;
        if (final) counts(e) = prefix;
        prefix += c;
      });
  // KPZ-END
}

template <class Space>
void extract(const Space& space, const Launch& launch, int num_bins, int target_bin, View<const float*, Space> in,
             View<int*, Space> tile_offsets, View<float*, Space> out) {
  // Level 1: every team counts the selected elements of its own tile.
  tile_launch(
      space, launch, "bin_extract::extract_count", in.extent(0), 0,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        // KPZ-TODO(roughly 6 lines): tile_offsets(tile.index) gets how many of this tile's
        //   elements fall in target_bin, counted with a team-level Kokkos::parallel_reduce and
        //   written by one member.
        int selected = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, tile.count),
            [&](int i, int& sum) { sum += bin_of(in(tile.first + i), num_bins) == target_bin ? 1 : 0; }, selected);
        Kokkos::single(Kokkos::PerTeam(team), [&]() { tile_offsets(tile.index) = selected; });
        // KPZ-END
      });

  // Level 2: an exclusive scan of the team counts across the whole league, in place. Entry
  // `teams` (a zero on entry) receives the total: the number of selected elements.
  scan_counts(space, "bin_extract::extract_scan", tile_offsets, teams_for(in.extent(0), launch.tile));

  // Level 1 again: every team scans its tile and scatters its elements from its offset on.
  tile_launch(
      space, launch, "bin_extract::extract_scatter", in.extent(0), 0,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        const int base = tile_offsets(tile.index);  // selected elements of all earlier tiles
        // KPZ-TODO(roughly 7 lines): this tile's selected elements (bin target_bin) to out in input
        //   order after the `base` of earlier tiles (a team-level Kokkos::parallel_scan over
        //   tile.count).
        Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, tile.count), [&](int i, int& offset, const bool final) {
          const float x = in(tile.first + i);
          const int selected = bin_of(x, num_bins) == target_bin ? 1 : 0;
          if (final && selected) out(base + offset) = x;
          offset += selected;
        });
        // KPZ-END
      });
}

template <class Space>
void partition(const Space& space, const Launch& launch, int num_bins, View<const float*, Space> in,
               View<int*, Space> tile_offsets, View<float*, Space> out, View<int*, Space> bin_offsets) {
  const int teams = teams_for(in.extent(0), launch.tile);
  const std::size_t scratch = partition_scratch_bytes<Space>(launch.tile, num_bins);

  // Pass 1: every team's histogram, stored bin-major: tile_offsets(b * teams + t).
  tile_launch(
      space, launch, "bin_extract::partition_count", in.extent(0), scratch,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        ScratchView<int*, Space> s_hist(team.team_scratch(0), num_bins);
        // KPZ-TODO(roughly 9 lines): this tile's histogram in s_hist (the team shares the counters:
        //   atomics), then the counts into tile_offsets in bin-major order (bin b's teams side by
        //   side).
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_bins), [&](int b) { s_hist(b) = 0; });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.count),
                             [&](int i) { Kokkos::atomic_add(&s_hist(bin_of(in(tile.first + i), num_bins)), 1); });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_bins),
                             [&](int b) { tile_offsets(b * teams + tile.index) = s_hist(b); });
        // KPZ-END
      });

  // One exclusive scan over all (bin, team) counts in bin-major order: all of bin 0 (team 0,
  // team 1, ...), then all of bin 1, ... Entry num_bins * teams receives N.
  scan_counts(space, "bin_extract::partition_scan", tile_offsets, num_bins * teams);
  // KPZ-TODO(roughly 2 lines): bin_offsets(b) for every b up to num_bins: where bin b starts in
  //   out, read off tile_offsets.
  Kokkos::parallel_for(
      "bin_extract::partition_bins", Kokkos::RangePolicy<Space>(space, 0, num_bins + 1),
      KOKKOS_LAMBDA(const int b) { bin_offsets(b) = tile_offsets(b * teams); });
  // KPZ-END

  // Pass 2: every team stages its tile, then scans and scatters it once per bin (stable).
  tile_launch(
      space, launch, "bin_extract::partition_scatter", in.extent(0), scratch,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        ScratchView<float*, Space> s_x(team.team_scratch(0), tile.size);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.count), [&](int i) { s_x(i) = in(tile.first + i); });
        team.team_barrier();
        // KPZ-TODO(roughly 10 lines): for every bin, this tile's elements of it to out in input
        //   order, after those its tile_offsets entry counts before them (a team-level
        //   Kokkos::parallel_scan).
        for (int b = 0; b < num_bins; ++b) {
          const int base = tile_offsets(b * teams + tile.index);
          Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, tile.count), [&](int i, int& offset, const bool final) {
            const float x = s_x(i);
            const int selected = bin_of(x, num_bins) == b ? 1 : 0;
            if (final && selected) out(base + offset) = x;
            offset += selected;
          });
        }
        // KPZ-END
      });
}

template <class Space>
void team_scan_extract(const Space& space, const LaunchShape& shape, int num_bins, int target_bin,
                       View<const float*, Space> in, View<int*, Space> team_offsets, View<float*, Space> out) {
  const int n = static_cast<int>(in.extent(0));
  const int tile = shape.tile;
  const int teams = teams_for(in.extent(0), tile);
  const int max_words = words_in(tile);

  // Launch 1: every team counts its tile. TeamVectorRange spreads the tile over members and lanes
  // at once: consecutive elements on consecutive threads (coalesced loads) on a GPU, one
  // vectorised loop per thread on a CPU. Each index takes kCountLoads elements `per` apart: a GPU
  // thread then has that many loads in flight (one would leave most of the bandwidth unused),
  // a CPU loop that many independent vectors.
  tile_launch(
      space, shape, "bin_extract::team_scan_count", in.extent(0), 0,
      KOKKOS_LAMBDA(const TeamMember<Space>& team, const Tile& tile) {
        const int first = tile.first, count = tile.count;
        // KPZ-TODO(roughly 14 lines): the number of this tile's selected elements into
        //   team_offsets(tile.index), counted with a Kokkos::parallel_reduce over TeamVectorRange
        //   (index i takes the kCountLoads elements i + u * per, loaded before any is compared,
        //   when count % kCountLoads == 0; else one element per index) and written by one member.
        int selected = 0;
        if (count % kCountLoads == 0) {
          const int per = count / kCountLoads;
          Kokkos::parallel_reduce(
              Kokkos::TeamVectorRange(team, per),
              [&](int i, int& sum) {
                float x[kCountLoads];
                for (int u = 0; u < kCountLoads; ++u) x[u] = in(first + u * per + i);
                for (int u = 0; u < kCountLoads; ++u) sum += bin_of(x[u], num_bins) == target_bin ? 1 : 0;
              },
              selected);
        } else {
          Kokkos::parallel_reduce(
              Kokkos::TeamVectorRange(team, count),
              [&](int i, int& sum) { sum += bin_of(in(first + i), num_bins) == target_bin ? 1 : 0; }, selected);
        }
        Kokkos::single(Kokkos::PerTeam(team), [&]() { team_offsets(tile.index) = selected; });
        // KPZ-END
      });

  // Launch 2: the exclusive scan of the team counts, in place, as in extract (entry `teams`
  // receives the total).
  scan_counts(space, "bin_extract::team_scan_offsets", team_offsets, teams);

  // Launch 3: every member owns consecutive words of the tile and builds their bit masks (bit j:
  // element j of the word selected), team_scan turns the members' counts into their offsets, and
  // the member writes only its selected elements, found by walking the set bits. A team of
  // several members first stages the tile's flags in scratch, all members together (coalesced
  // loads); a team of one member reads its words straight (they are contiguous already).
  const bool staged = team_scan_staged(shape);
  const auto scratch = Kokkos::PerTeam(team_scan_scratch_bytes<Space>(shape));
  const auto place = KOKKOS_LAMBDA(const TeamMember<Space>& team) {
    ScratchView<unsigned*, Space> s_bits(team.team_scratch(0), max_words);  // word w's mask
    ScratchView<unsigned*, Space> s_flag(team.team_scratch(0), staged ? flag_slots(tile) : 0);
    const int t = team.league_rank();
    const int first = t * tile;
    const int count = Kokkos::min(tile, n - first);
    const int base = team_offsets(t);  // selected elements of all earlier tiles
    // Member m owns the words [w_begin, w_end): contiguous, so that the members' order is the
    // elements' order.
    const int words = words_in(count);
    const int per_member = (words + team.team_size() - 1) / team.team_size();
    const int w_begin = Kokkos::min(words, team.team_rank() * per_member);
    const int w_end = Kokkos::min(words, w_begin + per_member);
    // KPZ-TODO(roughly 14 lines): if staged, every element's bit (1u << (e % kWordBits) if
    //   selected, else 0) into s_flag(flag_slot(e)) by all members at once (TeamVectorRange,
    //   kPlaceLoads loads per index when count % kPlaceLoads == 0, as in the count), then a
    //   barrier.
    const auto stage = [&](int e, float x) {
      s_flag(flag_slot(e)) = (bin_of(x, num_bins) == target_bin ? 1u : 0u) << (static_cast<unsigned>(e) % kWordBits);
    };
    if (staged && count % kPlaceLoads == 0) {
      const int per = count / kPlaceLoads;
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, per), [&](int i) {
        float x[kPlaceLoads];
        for (int u = 0; u < kPlaceLoads; ++u) x[u] = in(first + u * per + i);
        for (int u = 0; u < kPlaceLoads; ++u) stage(u * per + i, x[u]);
      });
    } else if (staged) {
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, count), [&](int e) { stage(e, in(first + e)); });
    }
    if (staged) team.team_barrier();
    // KPZ-END
    // KPZ-TODO(roughly 22 lines): place this tile's selected elements in out after base, in
    //   input order: each member builds the bit masks of its words (a vector-level reduction
    //   with Kokkos::BOr, of the staged bits or of the predicate on in) and counts their bits,
    //   team.team_scan gives the members' offsets, then one lane per member writes the
    //   elements of the set bits.
    int mine = 0;
    for (int w = w_begin; w < w_end; ++w) {
      const int lo = w * kWordBits;  // the word's first element in the tile
      const int length = Kokkos::min(int{kWordBits}, count - lo);
      unsigned bits = 0;
      if (staged) {
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(team, length), [&](int j, unsigned& b) { b |= s_flag(flag_slot(lo + j)); },
            Kokkos::BOr<unsigned>(bits));
      } else {
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(team, length),
            [&](int j, unsigned& b) {
              if (bin_of(in(first + lo + j), num_bins) == target_bin) b |= 1u << j;
            },
            Kokkos::BOr<unsigned>(bits));
      }
      Kokkos::single(Kokkos::PerThread(team), [&]() { s_bits(w) = bits; });
      mine += Kokkos::Experimental::popcount_builtin(bits);
    }
    const int before = team.team_scan(mine);  // exclusive: the selected elements of lower ranks
    Kokkos::single(Kokkos::PerThread(team), [&]() {
      int at = base + before;
      for (int w = w_begin; w < w_end; ++w) {
        for (unsigned bits = s_bits(w); bits != 0; bits &= bits - 1)
          out(at++) = in(first + w * kWordBits + Kokkos::Experimental::countr_zero_builtin(bits));
      }
    });
    // KPZ-END
  };
  // A GPU block of 256 threads holds 35 KiB of scratch, so six fit a multiprocessor, but at 48
  // registers a thread only five did: LaunchBounds asks the compiler for six (H100: place launch
  // 0.80 -> 0.73 ms). Kokkos refuses a bounded launch that cannot keep six blocks resident (a
  // larger team or tile): team_size_max says so (0), and those launch without bounds.
  const auto bounded = BoundedTeamPolicy<Space, kTeamScanGpuTeam, 6>(space, teams, shape.team_size, shape.vector_length)
                           .set_scratch_size(0, scratch);
  if (bounded.team_size_max(place, Kokkos::ParallelForTag()) >= shape.team_size)
    Kokkos::parallel_for("bin_extract::team_scan_place", bounded, place);
  else
    Kokkos::parallel_for(
        "bin_extract::team_scan_place",
        TeamPolicy<Space>(space, teams, shape.team_size, shape.vector_length).set_scratch_size(0, scratch), place);
}

template <class Space>
void one_read_extract(const Space& space, const LaunchShape& shape, int chunks, int num_bins, int target_bin,
                      View<const float*, Space> in, View<float*, Space> staging, View<int*, Space> chunk_offsets,
                      View<float*, Space> out) {
  const long n = static_cast<long>(in.extent(0));
  const long tiles = one_read_tiles(n);
  // Launch 1: member c of the league (team c / team_size, rank c % team_size; CUDA: a warp) packs
  // chunk c into staging. Its own level-0 scratch holds the masks of a tile's runs: s_masks below.
  const int members = shape.team_size;
  TeamPolicy<Space> policy(space, (chunks + members - 1) / members, members, shape.vector_length);
  // KPZ-TODO(roughly 2 lines): the level-0 request, per member, for the masks s_masks carves.
  policy.set_scratch_size(0, Kokkos::PerThread(one_read_scratch_bytes<Space>()));
  // KPZ-END
  Kokkos::parallel_for(
      "bin_extract::one_read_compact", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        ScratchView<unsigned*, Space> s_masks(team.thread_scratch(0), kOneReadRuns);
        const int c = team.league_rank() * team.team_size() + team.team_rank();
        if (c >= chunks) return;  // the last team's spare members (no team collective follows)
        const long t0 = chunk_begin(tiles, chunks, c), t1 = chunk_begin(tiles, chunks, c + 1);
        const long region = t0 * kOneReadTile;  // where the chunk's selection goes in staging
        int kept = 0;                           // the chunk's selected elements so far
        for (long t = t0; t < t1; ++t) {
          const long first = t * kOneReadTile;
          // KPZ-TODO(roughly 14 lines): run j of the tile (kOneReadItems elements from
          //   first + j * kOneReadItems) into its mask s_masks(j), bit u set when element u exists
          //   (< N) and is in target_bin: a ThreadVectorRange loop over the runs, each run's
          //   elements loaded before any is compared; a tile wholly below N (all but the last)
          //   with no test per element (one loop for those tiles, another for the last).
          const auto in_bin = [&](float x) { return bin_of(x, num_bins) == target_bin ? 1u : 0u; };
          if (first + kOneReadTile <= n) {
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, kOneReadRuns), [&](int j) {
              const long e0 = first + static_cast<long>(j) * kOneReadItems;
              float x[kOneReadItems];
              for (int u = 0; u < kOneReadItems; ++u) x[u] = in(e0 + u);
              unsigned mask = 0;
              for (int u = 0; u < kOneReadItems; ++u) mask |= in_bin(x[u]) << u;
              s_masks(j) = mask;
            });
          } else {
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, kOneReadRuns), [&](int j) {
              const long e0 = first + static_cast<long>(j) * kOneReadItems;
              unsigned mask = 0;
              for (int u = 0; u < kOneReadItems && e0 + u < n; ++u) mask |= in_bin(in(e0 + u)) << u;
              s_masks(j) = mask;
            });
          }
          // KPZ-END
          // KPZ-TODO(roughly 12 lines): a ThreadVectorRange Kokkos::parallel_scan over the runs of
          //   their masks' bit counts: in the final pass run j's selected elements (its set bits,
          //   read again from in) go to staging from region + kept + the runs before j on. The
          //   scan's total is the tile's count: add it to kept.
          int selected = 0;
          Kokkos::parallel_scan(
              Kokkos::ThreadVectorRange(team, kOneReadRuns),
              [&](int j, int& before, const bool final) {
                const unsigned mask = s_masks(j);
                if (final) {
                  long at = region + kept + before;
                  const long e0 = first + static_cast<long>(j) * kOneReadItems;
                  for (unsigned bits = mask; bits != 0; bits &= bits - 1)
                    staging(at++) = in(e0 + Kokkos::Experimental::countr_zero_builtin(bits));
                }
                before += static_cast<int>(Kokkos::Experimental::popcount_builtin(mask));
              },
              selected);
          kept += selected;
          // KPZ-END
        }
        Kokkos::single(Kokkos::PerThread(team), [&]() { chunk_offsets(c) = kept; });
      });

  // Launch 2: the chunks' counts become where each chunk's selection goes (entry `chunks`: the total).
  scan_counts(space, "bin_extract::one_read_offsets", chunk_offsets, chunks);

  // Launch 3: a team per chunk moves its selection from staging to out.
  // KPZ-TODO(roughly 9 lines): launch 3 as the comment above says: a team per chunk, its
  //   members and lanes copying together (TeamVectorRange), the chunk's two offsets read by one
  //   member for all (Kokkos::single with a value).
  Kokkos::parallel_for(
      "bin_extract::one_read_place", TeamPolicy<Space>(space, chunks, Kokkos::AUTO),
      KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int c = team.league_rank();
        const long from = chunk_begin(tiles, chunks, c) * kOneReadTile;
        int to = 0, end = 0;  // read once per team, broadcast to every member
        Kokkos::single(
            Kokkos::PerTeam(team), [&](int& v) { v = chunk_offsets(c); }, to);
        Kokkos::single(
            Kokkos::PerTeam(team), [&](int& v) { v = chunk_offsets(c + 1); }, end);
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, end - to), [&](int i) { out(to + i) = staging(from + i); });
      });
  // KPZ-END
}

KPZ_INSTANTIATE_KERNELS(KPZ_BIN_EXTRACT_KERNELS)

}  // namespace kpz::bin_extract::reference
