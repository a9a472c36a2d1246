// kpz::bench_from_run (kpz/bench.hpp): `kpuzzles bench` of a puzzle without a bench of its own
// times the kernel call its run wraps in kpz::timed, with the benchmark's launch purpose, and
// reports it only when the run's own oracle passes.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <stdexcept>
#include <string>

#include "kpz/bench.hpp"
#include "kpz/check.hpp"

namespace {

using Host = Kokkos::DefaultHostExecutionSpace;

// What the fake puzzle's run saw, and the mistake it is asked to make.
struct Probe {
  int launches = 0;
  kpz::Purpose purpose = kpz::Purpose::check;
  std::int64_t size = 0;
  std::int64_t offset = 0;
  bool skip_last = false;  // leaves the last element unwritten (still poisoned)
  bool untimed = false;    // calls its kernel without kpz::timed
};

// out(i) = 2 in(i) + 1, through kpz::timed as the scaffold's template does.
kpz::PuzzleSpec fake_puzzle(Probe& probe) {
  return {
      .name = "fake",
      .summary = "out = 2 in + 1",
      .variants = {{.name = "affine", .options = {{"size", "N", 10, 1, 5000}, {"offset", "added", 1, 0, 9}}}},
      .run =
          [&probe](const kpz::RunRequest& req) {
            const std::int64_t n = req.params.get("size");
            probe.purpose = req.purpose;
            probe.size = n;
            probe.offset = req.params.get("offset");
            const float offset = static_cast<float>(probe.offset);
            const std::int64_t last = probe.skip_last ? n - 1 : n;
            const auto out = kpz::poisoned_output<float>(Host(), "out", n);
            const auto kernel = [&] {
              ++probe.launches;
              Kokkos::parallel_for(
                  Kokkos::RangePolicy<Host>(Host(), 0, last),
                  KOKKOS_LAMBDA(std::int64_t i) { out(i) = 2.0f * static_cast<float>(i % 97) + offset; });
            };
            if (probe.untimed)
              kernel();
            else
              kpz::timed(req, kernel);
            std::vector<float> expected(n);
            for (std::int64_t i = 0; i < n; ++i) expected[i] = 2.0f * static_cast<float>(i % 97) + offset;
            kpz::RunReport report;
            kpz::compare_exact(report, kpz::to_host(out), expected, [](std::size_t) { return std::string(); });
            return report;
          },
      .bytes_moved = [](const kpz::VariantSpec&,
                        const kpz::Params& p) { return 4.0 * static_cast<double>(p.get("size")); },
  };
}

kpz::BenchRequest request(std::int64_t size) {
  kpz::BenchRequest req;
  req.space = std::string(kpz::space_name<Host>());
  req.params.set("size", size, size != 0);
  req.cfg = kpz::BenchConfig{.warmup = 2, .runs = 5};
  return req;
}

TEST(BenchFromRun, TimesTheRunsKernelWithTheBenchShapeAndReportsItWithTheCopies) {
  Probe probe;
  const kpz::PuzzleSpec puzzle = fake_puzzle(probe);
  const kpz::BenchReport report = kpz::bench_from_run(puzzle).run(request(4099));
  EXPECT_EQ(probe.purpose, kpz::Purpose::speed);
  EXPECT_EQ(probe.size, 4099);
  EXPECT_EQ(probe.launches, 2 + 5);  // warm-up and timed runs, no extra call
  ASSERT_EQ(report.rows.size(), 3u);
  EXPECT_EQ(report.rows[0].kind, "copy");
  EXPECT_EQ(report.rows[1].kind, "copy");
  EXPECT_NEAR(report.rows[0].bytes, 4.0 * 4099, 4.0);  // a copy of the same bytes, to the nearest 8
  EXPECT_EQ(report.rows[2].name, "fake --affine");
  EXPECT_EQ(report.rows[2].kind, "puzzle");
  EXPECT_EQ(report.rows[2].bytes, 4.0 * 4099);
  EXPECT_EQ(report.rows[2].timing.runs, 5);
  EXPECT_GT(report.rows[2].timing.median_s, 0.0);
}

TEST(BenchFromRun, ClampsTheSizeToTheVariantsRange) {
  Probe probe;
  const kpz::PuzzleSpec puzzle = fake_puzzle(probe);
  const kpz::BenchReport report = kpz::bench_from_run(puzzle).run(request(0));  // 2^26 on a host: above 5000
  EXPECT_EQ(probe.size, 5000);
  EXPECT_EQ(report.config["size"].as_int(), 5000);
}

TEST(BenchFromRun, PassesTheVariantsOwnOptionsThroughAndChecksTheirRange) {
  Probe probe;
  const kpz::PuzzleSpec puzzle = fake_puzzle(probe);
  const kpz::BenchSpec bench = kpz::bench_from_run(puzzle);
  ASSERT_EQ(bench.options.size(), 2u);  // --size, then the variant's --offset
  EXPECT_EQ(bench.options[1].name, "offset");
  kpz::BenchRequest req = request(100);
  req.params.set("offset", 7, true);
  bench.run(req);
  EXPECT_EQ(probe.offset, 7);
  req.params.set("offset", 10, true);  // outside the variant's [0, 9]
  EXPECT_THROW(bench.run(req), kpz::UsageError);
}

TEST(BenchFromRun, RefusesToReportAWrongResultAndNamesTheElement) {
  Probe probe{.skip_last = true};
  const kpz::PuzzleSpec puzzle = fake_puzzle(probe);
  try {
    kpz::bench_from_run(puzzle).run(request(1000));
    FAIL() << "a run that leaves element 999 unwritten was reported";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("fake --affine gives a wrong result at index 999"), std::string::npos) << what;
    EXPECT_NE(what.find("refusing"), std::string::npos) << what;
  }
}

TEST(BenchFromRun, ARunThatTimesNothingIsThePuzzlesBug) {
  Probe probe{.untimed = true};
  const kpz::PuzzleSpec puzzle = fake_puzzle(probe);
  EXPECT_THROW(kpz::bench_from_run(puzzle).run(request(100)), std::logic_error);
}

TEST(BenchFromRun, APuzzleWithoutASizeOptionIsThePuzzlesBug) {
  Probe probe;
  kpz::PuzzleSpec puzzle = fake_puzzle(probe);
  puzzle.variants.front().options = {{"offset", "added", 1, 0, 9}};
  EXPECT_THROW(kpz::bench_from_run(puzzle).run(request(100)), std::logic_error);
  EXPECT_EQ(probe.launches, 0);
}

TEST(BenchFromRun, OutsideABenchTimedCallsTheKernelOnce) {
  Probe probe;
  const kpz::PuzzleSpec puzzle = fake_puzzle(probe);
  kpz::RunRequest req{.variant = &puzzle.variants.front(), .space = std::string(kpz::space_name<Host>())};
  req.params.set("size", 64, true);
  req.params.set("offset", 1, false);
  EXPECT_TRUE(puzzle.run(req).pass);
  EXPECT_EQ(probe.launches, 1);
  EXPECT_EQ(probe.purpose, kpz::Purpose::check);
}

}  // namespace
