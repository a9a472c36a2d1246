#pragma once
// Helpers for puzzle tests: run one case through the puzzle's registered runner (the same
// inputs, oracle and checking as `kpuzzles run`) for the implementation under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kpz/launch_shape.hpp"
#include "kpz/registry.hpp"
#include "kpz/spaces.hpp"
#include "shell.hpp"

namespace kpz::test {

// Which implementation this executable checks: reference or exercise (support/impl_under_test.cpp,
// compiled per executable; the test sources themselves are shared by both).
Impl impl_under_test();

struct Case {
  std::string variant;
  std::map<std::string, std::int64_t> options;  // overrides of the variant's defaults
  int team_size = 0;
  std::uint64_t seed = 2026;
  int vector_length = 0;    // 0: the framework's launch shape, like team_size
  bool keep_arrays = true;  // false: the report keeps no arrays (large cases)
};

// Code the race check stops is not run (shell.hpp: race_findings): this throws, which ends the
// test as a failure with the findings, and the binary goes on with the next test.
inline void require_not_stopped_by_race_check(const std::string& variant) {
  if (const std::string& race = race_findings(variant, impl_under_test() == Impl::reference); !race.empty())
    throw std::runtime_error("the race check found a bug in --" + variant + ", so the case was not run:" + race);
}

inline RunReport run_case(const std::string& puzzle, const std::string& space, const Case& c) {
  const PuzzleSpec* spec = Registry::instance().find(puzzle);
  if (!spec) throw std::logic_error("puzzle not registered: " + puzzle);
  const VariantSpec* variant = find_variant(*spec, c.variant);
  if (!variant) throw std::logic_error("no variant " + c.variant);
  require_not_stopped_by_race_check(c.variant);
  RunRequest req;
  req.variant = variant;
  req.impl = impl_under_test();
  req.space = space;
  req.team_size = c.team_size;
  req.vector_length = c.vector_length;
  req.keep_arrays = c.keep_arrays;
  req.seed = c.seed;
  for (const auto& o : variant->options) {
    const auto it = c.options.find(o.name);
    req.params.set(o.name, it == c.options.end() ? o.fallback : it->second, it != c.options.end());
  }
  return spec->run(req);
}

// The ranks this test binary runs on, for a puzzle whose runs span MPI ranks: tests/CMakeLists.txt
// starts its suites under the launcher with KPZ_TEST_RANKS=R (0: not started that way).
inline int test_ranks() {
  const char* v = std::getenv("KPZ_TEST_RANKS");
  return v && *v ? std::atoi(v) : 0;
}

// Whether the suite runs under compute-sanitizer (tests/CMakeLists.txt sets KPZ_UNDER_SANITIZER):
// there every launch is 20-100x slower, so the largest sweeps test a sample of their shapes.
inline bool under_sanitizer() {
  const char* v = std::getenv("KPZ_UNDER_SANITIZER");
  return v && *v && *v != '0';
}

// Whether a check runs in this binary: one that names its rank count (CheckCase::ranks) runs in
// the suite started with that many ranks, where its sizes fit (an even split of N = 3 needs at
// most 3 ranks); every other case runs in every suite. All the ranks of a suite read the same
// variable, so all of them skip alike.
inline bool check_runs_here(const CheckCase& check) {
  return check.rank_count == 0 || test_ranks() == 0 || check.rank_count == test_ranks();
}

// The fixture of a puzzle's tests, instantiated once per execution space (its parameter).
class PuzzleTest : public ::testing::TestWithParam<std::string> {
 protected:
  explicit PuzzleTest(std::string puzzle) : puzzle_(std::move(puzzle)) {}
  RunReport run(const Case& c) const { return run_case(puzzle_, GetParam(), c); }

 private:
  std::string puzzle_;
};

// Readable failure: the first mismatches with their owners.
// A whole number from a report's config (team_size, tile, teams, ...); -1 when it has no such key.
inline std::int64_t config_int(const RunReport& r, const std::string& key) {
  const Json* j = r.config.find(key);
  return j ? static_cast<std::int64_t>(j->as_double(-1)) : -1;
}

inline std::string describe(const RunReport& r) {
  std::string s =
      std::to_string(r.mismatch_count) + " of " + std::to_string(r.checked) + " wrong; config " + r.config.dump();
  for (const auto& m : r.mismatches)
    s += "\n  [" + std::to_string(m.index) + "] expected " + m.expected + ", got " + m.actual + " (" + m.owner + ")";
  return s;
}

// Team sizes worth testing on a space: 1, a few odd and even ones, and the maximum.
inline std::vector<int> team_sizes(const std::string& space, bool power_of_two_only = false) {
  const int max = with_space(space, [](const auto& s) { return team_size_max(s); });
  std::vector<int> sizes;
  for (int t : {1, 2, 3, 4, 7, 8, 32, 64, 128, 256, 1024}) {
    if (t > max) break;
    if (power_of_two_only && (t & (t - 1))) continue;
    sizes.push_back(t);
  }
  return sizes;
}

// Vector lengths worth testing on a space: those of `wanted` that the backend allows and, with
// `with_max`, also the largest it allows (at most 64) when that is beyond all of `wanted`.
inline std::vector<int> vector_lengths(const std::string& space, std::initializer_list<int> wanted = {1, 2, 4, 8, 32},
                                       bool with_max = false) {
  const int max = with_space(space, [](const auto& s) { return vector_length_max<std::decay_t<decltype(s)>>(); });
  std::vector<int> lengths;
  int largest = 0;
  for (const int v : wanted) {
    largest = std::max(largest, v);
    if (v <= max) lengths.push_back(v);
  }
  if (with_max && max > largest) lengths.push_back(std::min(max, 64));
  return lengths;
}

// Whether a team of `team` members with `vector` lanes can launch on a space (a CUDA block holds
// at most 1024 threads): tests that sweep both skip the shapes that cannot exist.
inline bool shape_fits(const std::string& space, int team, int vector) {
  return with_space(space, [&](const auto& s) { return team <= team_size_max(s, vector); });
}

}  // namespace kpz::test

#define KPZ_EXPECT_PASS(report) EXPECT_TRUE((report).pass) << ::kpz::test::describe(report)
