// Generated tests: every variant of the puzzle under test (KPZ_TEST_PUZZLE, tests/CMakeLists.txt)
// with its defaults and each of its checks (VariantSpec::checks, the cases `kpuzzles check` runs
// for the learner), on every enabled space, each with three seeds; and each of its team sweeps
// (VariantSpec::team_sweep) with every team size worth testing. A puzzle's own test file then
// holds only what its spec cannot say: vector-length sweeps with assertions on the shape, usage
// errors, large inputs (the worked examples' printed values are the docs test's).
#include <algorithm>
#include <cctype>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "kpz/json.hpp"
#include "kpz/params.hpp"
#include "kpz_test.hpp"
#include "shell.hpp"

#ifndef KPZ_TEST_VERIFIER
#define KPZ_TEST_VERIFIER ""
#endif

namespace {

struct VariantCheck {
  std::string space;
  std::string variant;
  int check = -1;  // -1: the defaults; else VariantSpec::checks[check] (or team_sweep[check])
};

// How GoogleTest shows a failed case's parameter.
void PrintTo(const VariantCheck& c, std::ostream* os) {
  *os << "--" << c.variant << (c.check < 0 ? " (defaults)" : " case " + std::to_string(c.check)) << " on " << c.space;
}

const kpz::PuzzleSpec& puzzle_under_test() {
  const kpz::PuzzleSpec* spec = kpz::Registry::instance().find(KPZ_TEST_PUZZLE);
  if (!spec) throw std::logic_error("puzzle not registered: " KPZ_TEST_PUZZLE);
  return *spec;
}

// The race check of this binary (shell.hpp: race_findings), before any test runs.
const bool kRaceCheckSet = (kpz::test::set_race_check_verifier(KPZ_TEST_VERIFIER), true);

// Evaluated by GoogleTest when it starts, after the puzzles registered themselves.
std::vector<VariantCheck> all_checks() {
  std::vector<VariantCheck> cases;
  const kpz::PuzzleSpec& spec = puzzle_under_test();
  for (const std::string& space : kpz::enabled_space_names())
    for (const auto& variant : spec.variants)
      for (int i = -1; i < static_cast<int>(variant.checks.size()); ++i) cases.push_back({space, variant.name, i});
  return cases;
}

std::vector<VariantCheck> all_sweeps() {
  std::vector<VariantCheck> cases;
  const kpz::PuzzleSpec& spec = puzzle_under_test();
  for (const std::string& space : kpz::enabled_space_names())
    for (const auto& variant : spec.variants)
      for (int i = 0; i < static_cast<int>(variant.team_sweep.size()); ++i) cases.push_back({space, variant.name, i});
  return cases;
}

// "general_defaults_openmp", "vector_check3_serial": letters, digits and '_' only.
std::string test_name(const VariantCheck& c, const std::string& kind) {
  std::string name = c.variant +
                     (kind.empty()  ? ""
                      : c.check < 0 ? "_defaults"
                                    : "_" + kind + std::to_string(c.check)) +
                     "_" + c.space;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

class VariantChecks : public ::testing::TestWithParam<VariantCheck> {};

TEST_P(VariantChecks, PassWithThreeSeeds) {
  const kpz::PuzzleSpec& spec = puzzle_under_test();
  const kpz::VariantSpec& variant = *kpz::find_variant(spec, GetParam().variant);
  kpz::test::require_not_stopped_by_race_check(variant.name);
  const kpz::CheckCase* check = GetParam().check < 0 ? nullptr : &variant.checks[GetParam().check];
  if (check && !kpz::test::check_runs_here(*check))
    GTEST_SKIP() << "a case for " << check->rank_count << " ranks; this suite runs on " << kpz::test::test_ranks();
  const std::string args = "--" + variant.name + (check ? " " + kpz::check_flags(*check) : "");
  // 2026: the seed `kpuzzles check` and `run` use; the others draw other inputs where the case
  // has random ones (a worked example keeps its printed inputs).
  for (const std::uint64_t seed : {std::uint64_t{2026}, std::uint64_t{7}, std::uint64_t{1000003}}) {
    kpz::RunRequest req = kpz::check_request(spec, variant, check, kpz::test::impl_under_test(), GetParam().space);
    req.seed = seed;
    req.keep_arrays = false;
    const kpz::RunReport r = spec.run(req);
    KPZ_EXPECT_PASS(r) << "\n  kpuzzles run " << spec.name << " " << args << " --seed " << seed << " --space "
                       << GetParam().space;
    if (!r.pass) break;  // one failure per case is enough to read
  }
}

INSTANTIATE_TEST_SUITE_P(Generated, VariantChecks, ::testing::ValuesIn(all_checks()),
                         [](const auto& info) { return test_name(info.param, "check"); });

class TeamSweep : public ::testing::TestWithParam<VariantCheck> {};
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TeamSweep);

// Every team size worth testing (kpz::test::team_sizes); one the variant refuses with a usage
// error is skipped, but at least two must run (Serial has one).
TEST_P(TeamSweep, EveryTeamSize) {
  const kpz::PuzzleSpec& spec = puzzle_under_test();
  const kpz::VariantSpec& variant = *kpz::find_variant(spec, GetParam().variant);
  kpz::test::require_not_stopped_by_race_check(variant.name);
  const kpz::CheckCase& sweep = variant.team_sweep[GetParam().check];
  const std::string args = "--" + variant.name + " " + kpz::check_flags(sweep);
  int ran = 0;
  std::string refused;
  const std::vector<int> teams = kpz::test::team_sizes(GetParam().space);
  for (const int team : teams) {
    kpz::RunRequest req = kpz::check_request(spec, variant, &sweep, kpz::test::impl_under_test(), GetParam().space);
    req.team_size = team;
    req.seed = 2026 + static_cast<std::uint64_t>(team);
    req.keep_arrays = false;
    kpz::RunReport r;
    try {
      r = spec.run(req);
    } catch (const kpz::UsageError& e) {
      refused += "\n  team size " + std::to_string(team) + ": " + e.what();
      continue;
    }
    ++ran;
    KPZ_EXPECT_PASS(r) << "\n  kpuzzles run " << spec.name << " " << args << " --team-size " << team << " --seed "
                       << req.seed << " --space " << GetParam().space;
    if (!r.pass) break;
  }
  EXPECT_GE(ran, std::min<int>(2, static_cast<int>(teams.size()))) << "too few team sizes ran" << refused;
}

INSTANTIATE_TEST_SUITE_P(Generated, TeamSweep, ::testing::ValuesIn(all_sweeps()),
                         [](const auto& info) { return test_name(info.param, "sweep"); });

// Every variant draws seeded random inputs in at least one of its checks: two seeds give two
// different inputs (a worked example keeps its printed ones), and both pass.
class Seeds : public ::testing::TestWithParam<VariantCheck> {};

TEST_P(Seeds, ChangeTheInputsOfSomeCheck) {
  const kpz::PuzzleSpec& spec = puzzle_under_test();
  const kpz::VariantSpec& variant = *kpz::find_variant(spec, GetParam().variant);
  kpz::test::require_not_stopped_by_race_check(variant.name);
  int ran = 0;
  for (const kpz::CheckCase& check : variant.checks) {
    if (!kpz::test::check_runs_here(check)) continue;
    ++ran;
    kpz::RunRequest req = kpz::check_request(spec, variant, &check, kpz::test::impl_under_test(), GetParam().space);
    req.seed = 1;
    const kpz::RunReport a = spec.run(req);
    req.seed = 2;
    const kpz::RunReport b = spec.run(req);
    if (a.inputs.dump() == b.inputs.dump()) continue;
    KPZ_EXPECT_PASS(a) << " --" << variant.name << " " << kpz::check_flags(check) << " --seed 1";
    KPZ_EXPECT_PASS(b) << " --" << variant.name << " " << kpz::check_flags(check) << " --seed 2";
    return;
  }
  if (ran == 0) GTEST_SKIP() << "no check of --" << variant.name << " runs on " << kpz::test::test_ranks() << " ranks";
  ADD_FAILURE() << "--" << variant.name << ": no check draws other inputs for another seed";
}

std::vector<VariantCheck> first_space_variants() {
  std::vector<VariantCheck> cases;
  for (const auto& variant : puzzle_under_test().variants)
    cases.push_back({kpz::enabled_space_names().front(), variant.name, -1});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Generated, Seeds, ::testing::ValuesIn(first_space_variants()),
                         [](const auto& info) { return test_name(info.param, ""); });

// The race check `kpuzzles check` runs before the cases (framework/cli/race_check.hpp): the
// puzzle's verifier traces the variant's configuration, deterministically. A variant it cannot
// trace says why and is skipped; the learner's suite fails on a race as `check` does.
class RaceCheck : public ::testing::TestWithParam<VariantCheck> {};
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RaceCheck);

TEST_P(RaceCheck, TracedRunIsCleanAndCorrect) {
  const std::string verifier = KPZ_TEST_VERIFIER;
  const bool reference = kpz::test::impl_under_test() == kpz::Impl::reference;
  const std::string command = verifier + " " + GetParam().variant + (reference ? " --reference" : "");
  const kpz::test::ShellResult r = kpz::test::shell(command + " 2>&1");
  kpz::Json verdict;
  ASSERT_NO_THROW(verdict = kpz::Json::parse(r.out.substr(r.out.rfind('{')))) << command << "\n" << r.out;
  if (!verdict["judged"].as_bool()) GTEST_SKIP() << "not traceable: " << verdict["reason"].as_string();
  std::string findings;
  for (const auto& f : verdict["findings"].items())
    findings += "\n  " + f["kind"].as_string() + ": " + f["headline"].as_string();
  EXPECT_EQ(r.code, 0) << command << findings;
  EXPECT_TRUE(findings.empty()) << command << findings << "\n  (kpuzzles trace " << KPZ_TEST_PUZZLE << " --"
                                << GetParam().variant << (reference ? " --reference" : "") << " draws it)";
}

std::vector<VariantCheck> verified_variants() {
  if (std::string(KPZ_TEST_VERIFIER).empty()) return {};  // this build has no race check
  std::vector<VariantCheck> cases;
  for (const auto& variant : puzzle_under_test().variants) cases.push_back({"traced", variant.name, -1});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Generated, RaceCheck, ::testing::ValuesIn(verified_variants()),
                         [](const auto& info) { return test_name(info.param, ""); });

}  // namespace
