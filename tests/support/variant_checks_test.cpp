// Generated tests: every variant of the puzzle under test (KPZ_TEST_PUZZLE, tests/CMakeLists.txt)
// with its defaults and each of its checks (VariantSpec::checks, the cases `kpuzzles check` runs
// for the learner), on every enabled space, each with three seeds. A puzzle's own test file then
// holds only what its checks cannot say: the worked examples' printed values, sweeps of team
// sizes and vector lengths, usage errors, large inputs.
#include <cctype>
#include <ostream>
#include <string>
#include <vector>

#include "kpz/params.hpp"
#include "kpz_test.hpp"

namespace {

struct VariantCheck {
  std::string space;
  std::string variant;
  int check = -1;  // -1: the defaults; else VariantSpec::checks[check]
};

// How GoogleTest shows a failed case's parameter.
void PrintTo(const VariantCheck& c, std::ostream* os) {
  *os << "--" << c.variant << (c.check < 0 ? " (defaults)" : " check " + std::to_string(c.check)) << " on " << c.space;
}

const kpz::PuzzleSpec& puzzle_under_test() {
  const kpz::PuzzleSpec* spec = kpz::Registry::instance().find(KPZ_TEST_PUZZLE);
  if (!spec) throw std::logic_error("puzzle not registered: " KPZ_TEST_PUZZLE);
  return *spec;
}

// Evaluated by GoogleTest when it starts, after the puzzles registered themselves.
std::vector<VariantCheck> all_checks() {
  std::vector<VariantCheck> cases;
  const kpz::PuzzleSpec& spec = puzzle_under_test();
  for (const std::string& space : kpz::enabled_space_names())
    for (const auto& variant : spec.variants)
      for (int i = -1; i < static_cast<int>(variant.checks.size()); ++i) cases.push_back({space, variant.name, i});
  return cases;
}

// "general_defaults_openmp", "vector_check3_serial": letters, digits and '_' only.
std::string test_name(const VariantCheck& c) {
  std::string name = c.variant + (c.check < 0 ? "_defaults" : "_check" + std::to_string(c.check)) + "_" + c.space;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

class VariantChecks : public ::testing::TestWithParam<VariantCheck> {};

TEST_P(VariantChecks, PassWithThreeSeeds) {
  const kpz::PuzzleSpec& spec = puzzle_under_test();
  const kpz::VariantSpec& variant = *kpz::find_variant(spec, GetParam().variant);
  const kpz::CheckCase* check = GetParam().check < 0 ? nullptr : &variant.checks[GetParam().check];
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
                         [](const auto& info) { return test_name(info.param); });

}  // namespace
