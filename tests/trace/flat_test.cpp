// The tracer on flat kernels (kpz/trace/flat.hpp): parallel_for, parallel_reduce and
// parallel_scan over a RangePolicy or an MDRangePolicy, every iteration its own member of one
// team, no barriers. A planted non-atomic histogram races; the atomic one does not; an index past
// a View's end stops the run; reductions and scans give Kokkos' results, inside a Session and
// outside one.
#include <gtest/gtest.h>

#include <Kokkos_ScatterView.hpp>
#include <string>
#include <vector>

#include "kpz/transfer.hpp"
#include "tracer_support.hpp"

namespace {

using namespace kpz::test::tracer;
using kpz::trace::Access;
using Range = Kokkos::RangePolicy<S>;
using HostInts = Kokkos::View<int*, Kokkos::HostSpace>;

// The values of basics' worked histogram: bin 3 seven times, bin 1 three times, bin 0 twice.
const std::vector<int> kValues = {3, 1, 3, 0, 3, 3, 1, 0, 3, 1, 3, 3};

// The histogram of basics --histogram, with the learner's bug planted (a plain `+=`) or without it.
kpz::trace::Recording histogram(bool atomic, kpz::View<int*, S> bins) {
  const kpz::View<const int*, S> values = kpz::to_device(S{}, "values", kValues);
  return record(Distribution::cyclic, [&] {
    Kokkos::parallel_for(
        "hist", Range(S{}, 0, values.extent(0)), KOKKOS_LAMBDA(int i) {
          const int b = values(i);
          if (atomic)
            Kokkos::atomic_add(&bins(b), 1);
          else
            bins(b) += 1;  // the planted bug: iterations run at the same time on a GPU
        });
  });
}

TEST(FlatKernels, APlainHistogramRacesAndNamesTheViewAndBothIterations) {
  kpz::View<int*, S> bins("bins", 5);
  const auto rec = histogram(false, bins);
  const auto a = kpz::trace::analyze(rec);
  ASSERT_EQ(a.races.size(), 3u) << kpz::trace::problems_text(rec, a);  // bins 0, 1 and 3
  ASSERT_EQ(rec.kernels.size(), 1u);
  EXPECT_TRUE(rec.kernels[0].flat.flat());
  const auto& r = a.races.front();
  EXPECT_EQ(rec.views[r.view].name, "bins");
  EXPECT_NE(r.first.rank, r.second.rank);
  EXPECT_EQ(r.first.league, r.second.league);
  const std::string text = kpz::trace::problems_text(rec, a);
  EXPECT_NE(text.find("RACE on global bins[0..1, 3] in the flat kernel \"hist\" (3 elements)"), std::string::npos)
      << text;
  // Bin 0's first two values are iterations 3 and 7: the first's write, then the other's read.
  EXPECT_NE(text.find("  iteration 3 writes bins[0] at tests/trace/flat_test.cpp:"), std::string::npos) << text;
  EXPECT_NE(text.find("  iteration 7 reads  bins[0] at tests/trace/flat_test.cpp:"), std::string::npos) << text;
  EXPECT_NE(text.find("Kokkos::atomic_add"), std::string::npos) << text;
  const std::string diagram = kpz::trace::text_diagram(rec, a, {});
  EXPECT_NE(diagram.find("flat kernel \"hist\", RangePolicy [0, 12): 12 iterations"), std::string::npos) << diagram;
  EXPECT_NE(diagram.find("global  values read   0123456789ab"), std::string::npos) << diagram;
  EXPECT_NE(diagram.find("^^ ^"), std::string::npos) << diagram;
}

TEST(FlatKernels, AnAtomicHistogramIsRaceFreeAndCorrect) {
  kpz::View<int*, S> bins("bins", 5);
  const auto rec = histogram(true, bins);
  const auto a = kpz::trace::analyze(rec);
  EXPECT_TRUE(a.races.empty()) << kpz::trace::problems_text(rec, a);
  EXPECT_EQ(kpz::to_host(bins), (std::vector<int>{2, 3, 0, 7, 0}));
  int atomics = 0;
  for (const auto& e : rec.events) atomics += e.kind == Access::atomic;
  EXPECT_EQ(atomics, 12);
  EXPECT_EQ(rec.untraced, 0u);
  ASSERT_EQ(rec.teams.size(), 1u);
  EXPECT_EQ(rec.teams[0].barriers, 0);
}

// Thousands of iterations on one element: the race check stays fast (it compares only pairs that
// can conflict) and atomics do not race.
TEST(FlatKernels, ThousandsOfAtomicUpdatesOfOneElement) {
  kpz::View<int*, S> count("count", 1);
  const auto rec = record(Distribution::cyclic, [&] {
    Kokkos::parallel_for(
        Range(0, 20000), KOKKOS_LAMBDA(int) { Kokkos::atomic_add(&count(0), 1); });
  });
  const auto a = kpz::trace::analyze(rec);
  EXPECT_TRUE(a.races.empty());
  EXPECT_EQ(kpz::to_host(count)[0], 20000);
}

TEST(FlatKernels, AnIndexPastTheEndStopsTheRun) {
  kpz::View<float*, S> out("out", 8);
  try {
    record(Distribution::cyclic, [&] {
      Kokkos::parallel_for(
          "past", Range(S{}, 0, 9), KOKKOS_LAMBDA(int i) { out(i) = 1.0f; });
    });
    FAIL() << "no error";
  } catch (const kpz::trace::KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("out of bounds: index 8 of dimension 0 of out (extent 8)"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("(iteration 8 of a flat kernel)"), std::string::npos) << e.what();
  }
}

TEST(FlatKernels, MDRangeIterationsAreMembersNamedByTheirIndices) {
  kpz::View<float**, S> in("in", 2, 3);
  kpz::View<float*, S> row_sums("row_sums", 2);
  const auto rec = record(Distribution::cyclic, [&] {
    Kokkos::parallel_for(
        "rows", Kokkos::MDRangePolicy<S, Kokkos::Rank<2>>({0, 0}, {2, 3}),
        KOKKOS_LAMBDA(int i, int j) { row_sums(i) += in(i, j); });  // a race: the columns of a row
  });
  const auto a = kpz::trace::analyze(rec);
  ASSERT_EQ(a.races.size(), 2u) << kpz::trace::problems_text(rec, a);
  const std::string text = kpz::trace::problems_text(rec, a);
  EXPECT_NE(text.find("iteration (0, 0) writes row_sums[0]"), std::string::npos) << text;
  EXPECT_NE(text.find("iteration (0, 1) reads  row_sums[0]"), std::string::npos) << text;
  EXPECT_EQ(rec.kernels[0].flat.describe(), "MDRangePolicy [0, 2) x [0, 3)");
}

TEST(FlatKernels, AKernelLaunchedInsideAFlatKernelIsAnError) {
  EXPECT_THROW(record(Distribution::cyclic,
                      [&] {
                        Kokkos::parallel_for(
                            Range(0, 2), KOKKOS_LAMBDA(int) { Kokkos::parallel_for(Range(0, 2), [](int) {}); });
                      }),
               kpz::trace::KernelError);
}

// Reductions: a sum into a scalar, Kokkos' Max and MinLoc reducers, a View result, an MDRange sum.
void reductions(kpz::View<const float*, S> x) {
  const int n = static_cast<int>(x.extent(0));
  float sum = -1;
  Kokkos::parallel_reduce(
      "sum", Range(S{}, 0, n), KOKKOS_LAMBDA(int i, float& acc) { acc += x(i); }, sum);
  EXPECT_EQ(sum, 10.0f);
  float max = 0;
  Kokkos::parallel_reduce(
      Range(0, n), KOKKOS_LAMBDA(int i, float& m) { m = Kokkos::max(m, float(x(i))); }, Kokkos::Max<float>(max));
  EXPECT_EQ(max, 4.0f);
  using MinLoc = Kokkos::MinLoc<float, int>;
  MinLoc::value_type min_loc{};
  Kokkos::parallel_reduce(
      "min_loc", Range(S{}, 0, n),
      KOKKOS_LAMBDA(int i, MinLoc::value_type& m) {
        const float xi = x(i);
        if (xi < m.val) {
          m.val = xi;
          m.loc = i;
        }
      },
      MinLoc(min_loc));
  EXPECT_EQ(min_loc.val, -2.0f);
  EXPECT_EQ(min_loc.loc, 1);
  kpz::View<float*, S> result("result", 1);
  Kokkos::parallel_reduce(
      "into a view", Range(S{}, 0, n), KOKKOS_LAMBDA(int i, float& acc) { acc += x(i); }, Kokkos::subview(result, 0));
  EXPECT_EQ(kpz::to_host(result)[0], 10.0f);
  // Named, non-const: a rank-0 View and a reducer (Kokkos' own overload would take them by
  // reference, untraced, if the tracer's did not).
  kpz::View<float, S> total("total");
  Kokkos::parallel_reduce(
      "into a named view", Range(S{}, 0, n), KOKKOS_LAMBDA(int i, float& acc) { acc += x(i); }, total);
  float named_max = 0;
  Kokkos::Max<float> reducer(named_max);
  Kokkos::parallel_reduce(
      Range(0, n), KOKKOS_LAMBDA(int i, float& m) { m = Kokkos::max(m, float(x(i))); }, reducer);
  EXPECT_EQ(named_max, 4.0f);
  float host_total = 0;
  Kokkos::deep_copy(host_total, total);
  EXPECT_EQ(host_total, 10.0f);
  int cells = 0;
  Kokkos::parallel_reduce(
      Kokkos::MDRangePolicy<S, Kokkos::Rank<2>>({0, 0}, {3, 4}), KOKKOS_LAMBDA(int i, int j, int& c) { c += i * j; },
      cells);
  EXPECT_EQ(cells, (0 + 1 + 2) * (0 + 1 + 2 + 3));
}

// Scans: exclusive prefix sums, with and without the total.
void scans(kpz::View<const int*, S> counts, kpz::View<int*, S> offsets) {
  const int n = static_cast<int>(counts.extent(0));
  Kokkos::parallel_scan(
      "offsets", Range(S{}, 0, n + 1), KOKKOS_LAMBDA(int i, int& prefix, bool final) {
        const int c = i < n ? counts(i) : 0;
        if (final) offsets(i) = prefix;
        prefix += c;
      });
  EXPECT_EQ(kpz::to_host(offsets), (std::vector<int>{0, 3, 3, 5, 10}));
  int total = -1;
  Kokkos::parallel_scan(
      Range(0, n), KOKKOS_LAMBDA(int i, int& prefix, bool) { prefix += counts(i); }, total);
  EXPECT_EQ(total, 10);
}

TEST(FlatKernels, ReductionsAndScansAreCorrectInsideASession) {
  const kpz::View<const float*, S> x = kpz::to_device(S{}, "x", std::vector<float>{3, -2, 4, 1, 4});
  const kpz::View<const int*, S> counts = kpz::to_device(S{}, "counts", std::vector<int>{3, 0, 2, 5});
  kpz::View<int*, S> offsets("offsets", 5);
  const auto rec = record(Distribution::cyclic, [&] {
    reductions(x);
    scans(counts, offsets);
  });
  const auto a = kpz::trace::analyze(rec);
  EXPECT_TRUE(a.races.empty()) << kpz::trace::problems_text(rec, a);
  EXPECT_EQ(rec.kernels.size(), 9u);
  for (const auto& k : rec.kernels) EXPECT_TRUE(k.flat.flat()) << k.label;
  // The scan reads each count in both passes and writes each offset once, in the final pass.
  int count_reads = 0, offset_writes = 0;
  for (const auto& e : rec.events) {
    count_reads += rec.views[e.view].name == "counts" && rec.kernels[e.launch].label == "offsets";
    offset_writes += rec.views[e.view].name == "offsets" && e.kind == Access::write;
  }
  EXPECT_EQ(count_reads, 8);
  EXPECT_EQ(offset_writes, 5);
}

TEST(FlatKernels, ReductionsAndScansAreCorrectOutsideASession) {
  ASSERT_EQ(kpz::trace::Session::active(), nullptr);
  const kpz::View<const float*, S> x = kpz::to_device(S{}, "x", std::vector<float>{3, -2, 4, 1, 4});
  const kpz::View<const int*, S> counts = kpz::to_device(S{}, "counts", std::vector<int>{3, 0, 2, 5});
  kpz::View<int*, S> offsets("offsets", 5);
  reductions(x);
  scans(counts, offsets);
}

// Kokkos calls a scan's functor with final == false to add up partial sums, and requires those
// calls to be free of side effects: a write there stops the run.
TEST(FlatKernels, AScanThatWritesWhenNotFinalIsAnError) {
  const kpz::View<const int*, S> counts = kpz::to_device(S{}, "counts", std::vector<int>{3, 0, 2, 5});
  kpz::View<int*, S> offsets("offsets", 4);
  try {
    record(Distribution::cyclic, [&] {
      Kokkos::parallel_scan(
          "unguarded", Range(0, 4), KOKKOS_LAMBDA(int i, int& prefix, bool) {
            offsets(i) = prefix;  // no `if (final)`
            prefix += counts(i);
          });
    });
    FAIL() << "no error";
  } catch (const kpz::trace::KernelError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("parallel_scan: iteration 0 writes offsets[0] at tests/trace/flat_test.cpp:"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("final == false"), std::string::npos) << what;
  }
}

// Kokkos' own launches (deep_copy, a ScatterView's reset and contribute) touch plain Kokkos::Views:
// nothing recorded, nothing drawn, and the results are right.
TEST(FlatKernels, KokkosOwnLaunchesAreNotRecorded) {
  const kpz::View<const int*, S> values = kpz::to_device(S{}, "values", kValues);
  kpz::View<int*, S> bins("bins", 5);
  const auto rec = record(Distribution::cyclic, [&] {
    Kokkos::deep_copy(bins, 7);
    Kokkos::deep_copy(bins, 0);
    Kokkos::Experimental::ScatterView<int*, Kokkos::LayoutRight, S> scatter(bins);
    Kokkos::parallel_for(
        "scatter", Range(S{}, 0, values.extent(0)), KOKKOS_LAMBDA(int i) {
          auto access = scatter.access();
          const int b = values(i);
          access(b) += 1;
        });
    Kokkos::Experimental::contribute(bins, scatter);
  });
  EXPECT_EQ(kpz::to_host(bins), (std::vector<int>{2, 3, 0, 7, 0}));
  ASSERT_EQ(rec.teams.size(), 1u);  // only "scatter" recorded accesses (its reads of values)
  EXPECT_EQ(rec.kernels[rec.teams[0].launch].label, "scatter");
  for (const auto& e : rec.events) EXPECT_EQ(rec.views[e.view].name, "values");
  EXPECT_EQ(rec.untraced, 0u);
}

}  // namespace
