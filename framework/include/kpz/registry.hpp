#pragma once
// The puzzle registry. A puzzle describes itself (variants, options, how to run and check
// one case) in a PuzzleSpec and registers it with KPZ_REGISTER_PUZZLE; the runner only
// ever talks to this interface.
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "kpz/json.hpp"
#include "kpz/kernel_needs.hpp"
#include "kpz/kernel_table.hpp"

namespace kpz {

std::string_view to_string(Impl impl);

// What a launch is for: the launch shape of a check differs from the fastest one.
enum class Purpose {
  check,  // kpuzzles run / check and the tests: teams large enough to show races
  speed,  // kpuzzles bench: the backend's fastest shape
};

// A puzzle-specific integer option, e.g. --size or --kernel-size.
struct OptionSpec {
  std::string name;  // without the leading dashes
  std::string help;
  std::int64_t fallback;  // value when the flag is not given
  std::int64_t min;
  std::int64_t max;
  // The value must be a multiple of this other option's value (butterfly: --size of
  // --group-size); `run` and `bench` refuse other values alike. Empty: none.
  std::string multiple_of = {};
};

// The resolved values of a variant's options; `given` says which the user typed.
class Params {
 public:
  void set(const std::string& name, std::int64_t value, bool given);
  std::int64_t get(const std::string& name) const;  // throws std::logic_error if undeclared
  bool given(const std::string& name) const { return given_.count(name) != 0; }
  const std::map<std::string, std::int64_t>& values() const { return values_; }

 private:
  std::map<std::string, std::int64_t> values_;
  std::set<std::string> given_;
};

struct Mismatch {
  std::size_t index;
  std::string expected;
  std::string actual;
  std::string owner;  // "team 1, member 3": who was meant to write the element
};

struct RunReport {
  bool pass = false;
  Json config = Json::object();  // the resolved configuration (sizes, team size, tile, ...)
  Json inputs = Json::object();  // named input arrays
  Json output = Json::array();
  Json expected = Json::array();
  Json extra = Json::object();       // puzzle-specific results (counts, totals, ...)
  std::vector<std::string> notes;    // puzzle-specific lines printed before out:/expected:
  std::vector<Mismatch> mismatches;  // the first few
  std::size_t mismatch_count = 0;
  std::size_t checked = 0;
  // A rank other than the first of a run that spans several processes (PuzzleSpec::ranks): the
  // first rank's report holds the whole verdict, so kpuzzles prints nothing for this one.
  bool follower = false;
};

// A limit `kpuzzles trace` checks: the measured `metric` must not exceed `max`
// (metrics: docs/tracing.md, e.g. "global-reads-per-cell-per-team", "barriers-per-team").
struct BudgetLimit {
  std::string metric;
  double max;
  std::string why;  // shown in the budget table, e.g. "each input once per team"
};

// How `kpuzzles trace` runs a variant (trace builds only; docs/tracing.md).
struct TraceSpec {
  bool traceable = false;                       // false: `trace` says why not (exit 2)
  std::string not_traceable_reason;             // why it cannot be traced (empty: "not traceable yet")
  std::map<std::string, std::int64_t> options;  // a small configuration (overrides the defaults)
  int team_size = 4;                            // members per team; 0: the variant launches flat kernels only (no team)
  // The budget, from the resolved options and the run's configuration (RunReport::config).
  std::function<std::vector<BudgetLimit>(const Params&, const Json& config)> budget;
};

// One more case an exercise must pass as well as its defaults (VariantSpec::checks): option
// values by name, in the order kpuzzles shows them, and the launch shape the case asks for (0:
// the backend's). Written `CheckCase{{"size", 4099}, {"kernel-size", 5}}.team(1)`; kpuzzles
// shows it as the flags that repeat it (`--size 4099 --kernel-size 5 --team-size 1`).
struct CheckCase {
  CheckCase(std::initializer_list<std::pair<std::string, std::int64_t>> values = {}) : options(values) {}
  CheckCase& team(int members) {
    team_size = members;
    return *this;
  }
  CheckCase& lanes(int length) {
    vector_length = length;
    return *this;
  }
  // The number of processes (MPI ranks) the case runs on, for a puzzle that spans ranks
  // (PuzzleSpec::ranks); 0: the puzzle's default.
  CheckCase& ranks(int count) {
    rank_count = count;
    return *this;
  }
  std::vector<std::pair<std::string, std::int64_t>> options;
  int team_size = 0;
  int vector_length = 0;
  int rank_count = 0;
};

// Where an exercise sits in a workshop agenda: core exercises make the agendas
// (docs/instructor/); stretch ones are for those who finish early or for after the workshop.
enum class Track { core, stretch };
std::string_view to_string(Track track);

// One exercise of the learner loop (kpuzzles list, watch, hint, solution), declared whole with
// designated initialisers: `{.name = "tiled", .id = int(Variant::tiled), .summary = ..., ...}`.
struct VariantSpec {
  std::string name;  // used as --<name>
  // The puzzle's own number for it (its enum's value): `run` gets the declared variant back
  // (RunRequest::variant) and reads it with variant_as<Enum>(), never by parsing the name.
  // Distinct within a puzzle.
  int id = 0;
  std::string summary;
  std::vector<OptionSpec> options = {};
  // The functions of exercises/<puzzle>/ whose TODOs this exercise asks for, the one it runs
  // first (where `watch` and `hint` send the learner), then the helpers it calls that hold TODOs
  // of their own. Its hints are the TODOs of the docs page whose headings name one of them
  // (`### TODO 2: ... (`simple`)`). Empty: the whole puzzle's hints.
  std::vector<std::string> functions = {};
  // Cases the learner's code must pass as well as the defaults before the exercise counts as
  // solved.
  std::vector<CheckCase> checks = {};
  // Cases the generated tests run with every team size they try (1, 2, 3, 4, 7, 8, ... up to the
  // backend's maximum): give each at least three teams, so that bugs between teams or with odd
  // team sizes show. A team size the variant refuses (a UsageError) is skipped. Not learner
  // checks: `kpuzzles check` stays fast.
  std::vector<CheckCase> team_sweep = {};
  TraceSpec trace = {};
  // A bug hunt: the exercise holds a bug that passes on Serial by luck (a KPZ-BUG block in the
  // reference) instead of a TODO; `kpuzzles trace` finds it.
  bool bug_hunt = false;
  // Minutes a participant needs for this exercise, reading and hints included: an estimate until
  // measured in a workshop (docs/instructor/estimates.md says how it is made). 0: not estimated.
  int minutes = 0;
  Track track = Track::core;
  // What the variant's team kernel asks of its launch, for a variant with one team launch
  // (`.needs = KernelNeeds{.gpu_team = 256, ...}`): the registry then resolves the launch for the
  // request's space, team size and vector length before the run (RunRequest::launch), refusing a
  // shape the backend cannot give (exit code 2). Empty: the run calls launch_shape itself.
  std::optional<KernelNeeds> needs = std::nullopt;

  // The function the learner starts in (functions' first); empty when none is named.
  const std::string& main_function() const;
};

struct RunRequest {
  // The declared variant, found by the registry (find_variant); a puzzle's run never sees null
  // or another puzzle's variant.
  const VariantSpec* variant = nullptr;
  Impl impl = Impl::exercise;
  std::string space;      // execution space name, see spaces.hpp
  Params params;          // the variant's options
  int team_size = 0;      // 0: the framework's launch shape (kpz/launch_shape.hpp)
  int vector_length = 0;  // 0: the framework's launch shape
  // A check's launch shape, except when `kpuzzles bench` runs the variant (timed, below).
  Purpose purpose = Purpose::check;
  int ranks = 1;  // processes a puzzle that spans ranks runs on (PuzzleSpec::ranks)
  // The launch the framework chose for the variant's needs (VariantSpec::needs) on this space,
  // with the user's --team-size / --vector-length and this purpose; the default shape when the
  // variant declares none.
  LaunchShape launch = {};
  std::uint64_t seed = 2026;
  bool keep_arrays = true;  // store inputs/outputs in the report (for --json / printing)
  bool steps = false;       // --steps: the puzzle prints its step-by-step tables where it has them
  // Set by `kpuzzles bench` for a puzzle without a bench of its own (PuzzleSpec::bytes_moved):
  // times the kernel call it is given (warm-up, median) instead of calling it once.
  std::function<void(const std::function<void()>&)> time_kernel_call = {};

  const std::string& variant_name() const { return variant->name; }
  template <class Enum>
  Enum variant_as() const {
    return static_cast<Enum>(variant->id);
  }
};

// A run's kernel call: called once, or timed when `kpuzzles bench` runs the run (a puzzle that
// declares PuzzleSpec::bytes_moved needs no bench file). The call must only enqueue work on the
// run's space and be repeatable: its outputs a function of its inputs alone, so that the last
// timed call leaves what the run then checks (unwritten elements still hold the poison).
template <class Launch>
void timed(const RunRequest& req, Launch&& launch) {
  if (req.time_kernel_call)
    req.time_kernel_call(std::function<void()>(launch));
  else
    launch();
}

// What one execution space of this build allows a team kernel (for PuzzleSpec::advice).
struct SpaceLimits {
  std::string space;  // "openmp", "serial", "cuda"
  int concurrency = 1;
  int team_size_max = 1;
  std::size_t scratch0_max = 0;  // bytes of level-0 scratch per team
};

// A TraceSpec that lets `kpuzzles trace` run the variant with `options` and `team_size`.
TraceSpec traceable(std::map<std::string, std::int64_t> options, int team_size,
                    std::function<std::vector<BudgetLimit>(const Params&, const Json& config)> budget);
// The same for a budget that needs only the resolved options: budget(params).
template <class Budget>
requires(std::is_invocable_r_v<std::vector<BudgetLimit>, const Budget&, const Params&>) TraceSpec
    traceable(std::map<std::string, std::int64_t> options, int team_size, Budget budget) {
  return traceable(std::move(options), team_size,
                   [budget = std::move(budget)](const Params& p, const Json&) { return budget(p); });
}

// A puzzle whose run spans several processes, each with its own Kokkos (MPI ranks): kpuzzles
// starts `--ranks R` copies of itself with `launcher` (mpiexec), which run the case together,
// and reports what the first rank reports. `run` is then called once in every one of them; the
// puzzle talks to the others itself (MPI). An empty launcher: the puzzle runs in one process.
struct RanksSpec {
  // The launcher's words before the process count, e.g. {"/usr/bin/mpiexec", "--oversubscribe"},
  // and the flag that takes the count.
  std::vector<std::string> launcher = {};
  std::string count_flag = "-n";
  int fallback = 2;  // --ranks when not given
  int max = 16;
  // Variables the launched processes need (Open MPI refuses to start as root without two).
  std::vector<std::pair<std::string, std::string>> environment = {};

  bool spans_processes() const { return !launcher.empty(); }
};

// A puzzle, declared whole with designated initialisers (`{.name = ..., .summary = ...,
// .variants = {...}, .run = ...}`). Its docs page is docs/puzzles/<name>.md.
struct PuzzleSpec {
  std::string doc_page() const { return "puzzles/" + name + ".md"; }

  std::string name;
  std::string summary;
  std::vector<VariantSpec> variants;  // the first one is the default
  std::function<RunReport(const RunRequest&)> run;
  // About how many bytes of memory one `kpuzzles run` of `variant` with these options holds at
  // its peak (inputs, outputs, the oracle's copies): `run` refuses, before allocating anything,
  // a run that cannot fit in the machine's memory. Optional.
  std::function<double(const VariantSpec&, const Params&)> bytes_needed = {};
  // The bytes one kernel call of `variant` moves (its bytes-moved model): with it, `kpuzzles
  // bench` times each variant's run at a large --size (its kernel call wrapped in timed) against
  // a device copy of the same bytes, and the puzzle needs no bench of its own. Optional.
  std::function<double(const VariantSpec&, const Params&)> bytes_moved = {};
  // Place in the course: `kpuzzles list` and `watch` take puzzles in this order (then by name).
  int course_position = 100;
  // Variant names in the order a learner works through them (easiest first); variants not
  // named follow in declaration order. Empty: declaration order.
  std::vector<std::string> learning_order = {};
  // `kpuzzles doctor`: lines on how well this puzzle runs on a space with these limits and
  // what to change (e.g. "teams of 2 members hide races: OMP_NUM_THREADS=8"). Optional.
  std::function<std::vector<std::string>(const SpaceLimits&)> advice = {};
  // A puzzle that spans MPI ranks says how they are started (RanksSpec); the default: one process.
  RanksSpec ranks = {};
};

class Registry {
 public:
  static Registry& instance();
  void add(PuzzleSpec spec);
  const PuzzleSpec* find(std::string_view name) const;
  const std::vector<PuzzleSpec>& all() const { return puzzles_; }
  std::vector<std::string> names() const;

 private:
  std::vector<PuzzleSpec> puzzles_;
};

const VariantSpec* find_variant(const PuzzleSpec& spec, std::string_view name);

// The variants of a puzzle in learning order (see PuzzleSpec::learning_order).
std::vector<const VariantSpec*> variants_in_learning_order(const PuzzleSpec& spec);

// Every registered puzzle in course order (course_position, then name).
std::vector<const PuzzleSpec*> puzzles_in_course_order();

struct PuzzleRegistrar {
  explicit PuzzleRegistrar(PuzzleSpec (*make)()) { Registry::instance().add(make()); }
};

// The registry's types as a file was compiled with them, stamped into every puzzle module (a .so
// kpuzzles loads) by KPZ_REGISTER_PUZZLE. A module built before the framework changed them would
// hand kpuzzles a PuzzleSpec of another shape and crash it: kpuzzles reads the stamp from the file
// before loading it and rebuilds a module whose stamp differs or is missing
// (framework/cli/puzzle_modules.cpp). Sizes catch a field added or removed; bump
// kRegistryRevision for a change that keeps them (a field's type, two fields swapped).
inline constexpr std::uint64_t kRegistryRevision = 2;
inline constexpr std::uint64_t kRegistryLayout =
    kRegistryRevision ^ (sizeof(PuzzleSpec) << 8) ^ (sizeof(VariantSpec) << 20) ^ (sizeof(RunRequest) << 32) ^
    (sizeof(RunReport) << 44) ^ (sizeof(CheckCase) << 52) ^ (sizeof(RanksSpec) << 58);
inline constexpr char kRegistryStampPrefix[] = "kpz-registry-layout:";
struct RegistryStamp {
  char text[sizeof(kRegistryStampPrefix) + 16] = {};  // the prefix, 16 hex digits, a NUL
};
constexpr RegistryStamp registry_stamp(std::uint64_t layout) {
  RegistryStamp stamp;
  std::size_t at = 0;
  for (; kRegistryStampPrefix[at] != '\0'; ++at) stamp.text[at] = kRegistryStampPrefix[at];
  for (int shift = 60; shift >= 0; shift -= 4) stamp.text[at++] = "0123456789abcdef"[(layout >> shift) & 0xf];
  return stamp;
}

}  // namespace kpz

// Registers the PuzzleSpec returned by `make_fn` when the program starts.
#define KPZ_REGISTER_PUZZLE(make_fn)                                                 \
  [[gnu::used]] static constexpr ::kpz::RegistryStamp kpz_registry_stamp_##make_fn = \
      ::kpz::registry_stamp(::kpz::kRegistryLayout);                                 \
  static const ::kpz::PuzzleRegistrar kpz_puzzle_registrar_##make_fn {               \
    &make_fn                                                                         \
  }
