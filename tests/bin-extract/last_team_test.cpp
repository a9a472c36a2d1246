// Pass 1 of the fast partition ends with a "last team" step (places_if_last in
// framework/puzzles/bin-extract/fast_partition_counts.cpp): every team bumps an arrival counter
// inside a Kokkos::single(PerTeam) that broadcasts "was mine the last arrival?" to its members,
// and the last team turns every team's counts into places with one team_scan.
//
// On Kokkos' Threads backend (5.0.2) this crashed or hung with two or more threads: a single()
// with a value broadcasts through word 0 of the team root's reduction scratch, and the root (the
// member of highest rank, the one released first from a barrier) writes its team_scan input to
// that same word before the other members have read the broadcast. A member that read the root's
// partial sum (0: the test puts every value in bin 0) instead of "last" left the kernel while its team
// was still scanning, so the team's barriers paired up wrongly: entries never turned into places,
// members on other league ranks, the pool's end barrier reached early.
//
// The test runs pass 1 alone, with many teams and most counts zero, many times on every space
// and team size, and checks every place exactly (the table rank) or the invariants of the places
// (the ballot rank). A watchdog turns a hang into a failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "bin-extract/bin-extract.hpp"
#include "bin-extract/fast/kernels.hpp"
#include "bin-extract/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/transfer.hpp"
#include "kpz_test.hpp"

namespace {

namespace be = kpz::bin_extract;

// Ends the process (a failure) when the scope is not left within `seconds`: a team whose members
// disagree about being last can wait in a barrier forever.
class Watchdog {
 public:
  Watchdog(int seconds, std::string what) : what_(std::move(what)) {
    thread_ = std::thread([this, seconds] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!done_cv_.wait_for(lock, std::chrono::seconds(seconds), [this] { return done_; })) {
        std::fprintf(stderr, "FAILED: %s did not finish in %d s (a team's members waiting in different barriers)\n",
                     what_.c_str(), seconds);
        std::_Exit(1);
      }
    });
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_cv_.notify_one();
    thread_.join();
  }

 private:
  std::string what_;
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  std::thread thread_;
};

class LastTeam : public ::testing::TestWithParam<std::string> {};

TEST_P(LastTeam, EveryMemberOfTheLastTeamTurnsCountsIntoPlaces) {
  if (kpz::test::impl_under_test() != kpz::Impl::reference) GTEST_SKIP() << "framework kernels, not an exercise";
  kpz::with_space(GetParam(), [&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    constexpr int bins = 8, repeats = 4;  // up to 8 bins: both ranks run; the race hit every run
    for (int team : kpz::test::team_sizes(GetParam())) {
      // Every value in bin 0: the counts of bins 1..16 are zero, so the members holding the last
      // entries of the scan (the highest ranks) add up zero.
      const be::FastLaunch probe = be::fast_launch(space, 1, team, bins);
      const std::size_t n = static_cast<std::size_t>(probe.tile) * 48 + 5;
      const auto host = be::make_input(n, bins, 0, be::kOneBin, 7u + team);
      const auto oracle = be::host_counting_sort(host, bins);
      const auto in = kpz::to_device(space, "in", host);
      const be::FastLaunch fast = be::fast_launch(space, n, team, bins);
      for (const auto how : {be::PartitionRank::table, be::PartitionRank::ballot}) {
        be::PartitionLayout layout = be::partition_layout<Space>(fast, n, bins, how);
        layout.chunks = std::min(layout.tiles, 48);  // many teams: one of them is last
        const int parts = layout.chunks * layout.parts, entries = bins * parts;
        const std::string what = GetParam() + " team=" + std::to_string(layout.team_size) +
                                 (layout.rank == be::PartitionRank::table ? " table" : " ballot") + " rank, " +
                                 std::to_string(parts) + " teams";
        // The places the table rank must write: entry b * chunks + c, bin-major.
        std::vector<int> want;
        if (layout.rank == be::PartitionRank::table) {
          std::vector<int> counts(entries, 0);
          for (int c = 0; c < layout.chunks; ++c) {
            const long t0 = static_cast<long>(layout.tiles) * c / layout.chunks;
            const long t1 = static_cast<long>(layout.tiles) * (c + 1) / layout.chunks;
            for (long i = t0 * layout.tile; i < std::min<long>(t1 * layout.tile, static_cast<long>(n)); ++i)
              ++counts[be::bin_of(host[i], bins) * layout.chunks + c];
          }
          int run = 0;
          for (int e = 0; e < entries; ++e) {
            want.push_back(run);
            run += counts[e];
          }
        }
        kpz::View<int*, Space> chunk_offsets("chunk_offsets", be::partition_chunk_entries(layout, bins));
        kpz::View<int*, Space> bin_offsets("bin_offsets", bins + 1);
        for (int r = 0; r < repeats; ++r) {
          kpz::poison(chunk_offsets);
          kpz::poison(bin_offsets);
          {
            Watchdog watchdog(120, what + ", pass 1");
            be::partition_histograms(space, layout, bins, kpz::View<const float*, Space>(in), chunk_offsets,
                                     bin_offsets);
            space.fence();
          }
          const auto places = kpz::to_host(chunk_offsets);
          const auto offsets = kpz::to_host(bin_offsets);
          ASSERT_EQ(places[entries + 1], parts) << what << ": arrivals, repeat " << r;
          ASSERT_EQ(places[entries], static_cast<int>(n)) << what << ": total, repeat " << r;
          for (int b = 0; b <= bins; ++b)
            ASSERT_EQ(offsets[b], static_cast<int>(oracle.offsets[b]))
                << what << ": bin offset " << b << ", repeat " << r;
          for (int e = 0; e < entries; ++e) {
            if (!want.empty()) ASSERT_EQ(places[e], want[e]) << what << ": place " << e << ", repeat " << r;
            ASSERT_LE(places[e], places[e + 1]) << what << ": places not ascending at " << e << ", repeat " << r;
          }
        }
      }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Spaces, LastTeam, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
