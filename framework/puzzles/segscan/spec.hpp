#pragma once
// What segscan's runner shares (spec.cpp, run_scans.cpp, run_reductions.cpp, inputs.cpp,
// oracle.cpp, trace_config.cpp), with the tests and the benchmark: the segment descriptions, the
// variants and their launch shapes, the inputs, the oracle and the step tables.
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/random.hpp"
#include "kpz/registry.hpp"
#include "segscan/segscan.hpp"

// Segment descriptions on the host: a sequence of N elements cut into consecutive segments.
//
// Three ways to say where the segments are, and the conversions between them:
//   - CSR offsets (the canonical form): S + 1 non-decreasing numbers, offsets[0] = 0,
//     offsets[S] = N; segment s is [offsets[s], offsets[s+1]) and may be empty;
//   - segment ids: one id per element, non-decreasing, >= 0; element i is in segment ids[i],
//     ids that are skipped are empty segments (ids 0,0,2 have an empty segment 1);
//   - head flags: flags[i] != 0 where a segment starts; element 0 always starts one, whatever
//     flags[0] says. Flags cannot describe empty segments.
// Every conversion validates its input and throws kpz::UsageError with one line that says
// what is wrong and what is allowed (the CLI turns it into exit code 2). The messages speak of
// values, not of flags: the puzzle's runner (spec.cpp) says which flag gave them.
//
// Generators for inputs (seeded, the same on every machine) are here as well. segscan's own
// (the runner, the tests, the benchmark); a puzzle that needs segments too would move it back
// into the framework.
namespace kpz::segscan::segments {

using Offsets = std::vector<std::int64_t>;

// Throws UsageError unless `offsets` describes segments of n elements: at least one entry,
// offsets[0] = 0, every entry in [0, n], non-decreasing, last entry = n. `what` names the
// description in the message ("segment offsets", "CSR row offsets"), `n_name` the count
// ("N", "nnz").
void validate_offsets(const Offsets& offsets, std::int64_t n, const std::string& what = "segment offsets",
                      const std::string& n_name = "N");

// From segment ids (validated: ids >= 0 and non-decreasing). The number of segments is
// max id + 1, or `num_segments` when given (>= max id + 1: trailing empty segments).
Offsets offsets_from_ids(const std::vector<std::int64_t>& ids, std::int64_t num_segments = -1);

// From head flags (element 0 always starts a segment).
Offsets offsets_from_flags(const std::vector<std::uint8_t>& flags);

// Back from (validated) offsets: one flag per element, 1 where a non-empty segment starts.
std::vector<std::uint8_t> flags_from_offsets(const Offsets& offsets, std::int64_t n);
// One id per element.
std::vector<std::int64_t> ids_from_offsets(const Offsets& offsets, std::int64_t n);

// Number of segments and the longest one.
inline std::int64_t count(const Offsets& offsets) {
  return static_cast<std::int64_t>(offsets.size()) - 1;
}
std::int64_t longest(const Offsets& offsets);

// ---- generators (seeded) ----
// Each throws UsageError unless mean_length >= 1 ("mean segment length must be >= 1, got 0").

// Lengths uniform in [0, 2 * mean_length] until n elements are covered; the last segment is
// cut at n. Mean length about mean_length, empty segments included.
Offsets random_offsets(Rng& rng, std::int64_t n, std::int64_t mean_length);

// Heavy-tailed lengths: a quarter of the segments empty, the rest Pareto-distributed
// (alpha 1.2, minimum max(1, mean_length / 4)), capped at n: mostly short segments and a few
// very long ones that span many teams.
Offsets heavy_tail_offsets(Rng& rng, std::int64_t n, std::int64_t mean_length);

// Every element its own segment.
Offsets unit_offsets(std::int64_t n);

// One segment covering everything.
Offsets single_offsets(std::int64_t n);

// Empty segments everywhere: the first and the last segment are empty, and an empty segment
// (sometimes several) follows every non-empty one (lengths 1..2 * mean_length).
Offsets gappy_offsets(Rng& rng, std::int64_t n, std::int64_t mean_length);

}  // namespace kpz::segscan::segments

// segscan's variants as its runner sees them (spec.cpp, run_scans.cpp, run_reductions.cpp): which
// kernel a variant runs, and its launch shape.
namespace kpz::segscan {

inline constexpr std::int64_t kMaxSize = std::int64_t{1} << 28;  // values (or nonzeros) per run

// The variants (VariantSpec::id), the one-team scans first: run_scans.cpp indexes their kernels
// by the id.
enum class Kind { simple, exclusive, work_efficient, multi_team, reduce, spmv, vector_scan };
inline bool one_team(Kind k) {
  return k == Kind::simple || k == Kind::exclusive || k == Kind::work_efficient;
}
inline bool is_scan(Kind k) {
  return k != Kind::reduce && k != Kind::spmv && k != Kind::vector_scan;
}

// Launch shapes (kpz/launch_shape.hpp). The scratch-and-barrier kernels keep their shapes:
// 256 members on a GPU, as many as the backend gives when checking on a CPU, vector length 1
// (they have no vector loops). --vector-scan: 8 members of 32 lanes on a GPU (a warp per row).
inline KernelNeeds segscan_needs(Kind kind) {
  if (kind == Kind::vector_scan)
    return KernelNeeds{.vector_loops = true,
                       .gpu_team = 8,
                       .gpu_vector = 32,
                       .gpu_tile = 16384,  // default_vector_scan_tile()
                       .host_tile = 4096};
  return KernelNeeds{.gpu_tile = 1024, .host_tile = 1024};
}

template <class Space>
LaunchShape segscan_shape(const Space& space, const RunRequest& req, Kind kind) {
  LaunchShape shape = launch_shape(space, segscan_needs(kind), req);
  if (!one_team(kind) && req.params.get("tile")) shape.tile = static_cast<int>(req.params.get("tile"));
  return shape;
}

// The level-0 scratch a team of the Hillis-Steele and Blelloch kernels needs, for the host's
// checks before a launch (the runners, the benchmark). The kernels' own requests are the
// learner's (reference/segscan/segscan.cpp), so these stay out of segscan.hpp, which the exercise
// includes; the race check compares each request with what the kernel's views carve.
//
// Hillis-Steele (simple, exclusive, multi-team): two buffers of n pairs (double buffering).
template <class Space, class T>
std::size_t hillis_steele_scratch_bytes(int n) {
  return 2 * PairBuffer<Space, T>::shmem_size(static_cast<std::size_t>(n));
}

// Blelloch (work-efficient): one buffer of n pairs rounded up to a power of two.
template <class Space, class T>
std::size_t blelloch_scratch_bytes(int n) {
  return PairBuffer<Space, T>::shmem_size(static_cast<std::size_t>(next_pow2(n)));
}

// Calls run(space, value) on req.space, with value an int (--int 1) or a float: its type is the
// type of the values the run scans or reduces.
template <class Run>
RunReport with_space_and_values(const RunRequest& req, const Run& run) {
  return with_space(req.space, [&](const auto& space) {
    return req.params.get("int") != 0 ? run(space, int{}) : run(space, float{});
  });
}

// One run of a scan variant (simple, exclusive, work-efficient, multi-team: run_scans.cpp) or
// of a reduction (reduce, spmv, vector-scan: run_reductions.cpp) on req.space.
RunReport run_scans(const RunRequest& req, Kind kind);
RunReport run_reductions(const RunRequest& req, Kind kind);

}  // namespace kpz::segscan

// segscan's inputs (inputs.cpp): the worked example, seeded segments and rows for --shape, seeded
// values, and --bad-input's broken descriptions.
namespace kpz::segscan {

// The worked example of the issue and the docs: segments {0,1,2} {3,4} {5,6,7,8} {9}.
extern const std::vector<std::int64_t> kWorkedIds;

// --shape's name: "random lengths 0..2L", "heavy tail", ...
const char* shape_name(std::int64_t shape);

// Segments of n elements in the given shape, mean length `mean` (--mean-length) where it
// applies; UsageError "--mean-length must be at least 1" below that.
segments::Offsets generate_offsets(std::int64_t shape, Rng& rng, std::int64_t n, std::int64_t mean);

// SpMV rows: lengths per row for the same shapes (shape 3: one row holds every nonzero).
segments::Offsets generate_rows(std::int64_t shape, Rng& rng, std::int64_t rows, std::int64_t mean);

// --bad-input K replaces a valid description by a broken one, to show (and test) the checks
// that guard descriptions supplied from outside: the framework's conversion throws UsageError.
[[noreturn]] void apply_bad_input(std::int64_t bad, segments::Offsets offsets, std::int64_t n, const std::string& what,
                                  const std::string& n_name);

template <class T>
std::vector<T> random_values(Rng& rng, std::size_t n, double lo, double hi, std::int64_t ilo, std::int64_t ihi) {
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>)
      x = static_cast<T>(rng.uniform(lo, hi));
    else
      x = static_cast<T>(rng.integer(ilo, ihi));
  }
  return v;
}

}  // namespace kpz::segscan

// segscan's oracle (oracle.cpp): the expected sums in double, the rounding a float kernel may
// show, and who owns each output in the report.
namespace kpz::segscan {

template <class T>
std::vector<double> as_double(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

// The oracle's answer: exact for integers; for floats a double result and the rounding a float
// kernel may show (from the magnitudes that entered each sum, whatever the summation order).
struct Expected {
  std::vector<double> value, bound;
  void add(double sum, double abs_sum, std::size_t terms) {
    value.push_back(sum);
    bound.push_back(sum_error_bound(abs_sum, terms));
  }
};

// UsageError when integer sums of `where` could overflow int.
void require_int_range(double abs_sum, const std::string& where);

template <class T>
void check_output(RunReport& report, const std::vector<T>& got, const Expected& e, const OwnerFn& owner) {
  if constexpr (std::is_floating_point_v<T>) {
    compare_within(report, got, e.value, e.bound, owner);
  } else {
    std::vector<T> exact(e.value.size());
    for (std::size_t i = 0; i < exact.size(); ++i) exact[i] = static_cast<T>(e.value[i]);
    compare_exact(report, got, exact, owner);
  }
}

// Scans: inclusive (or exclusive) sums inside each segment.
Expected scan_oracle(const std::vector<double>& values, const segments::Offsets& offsets, bool exclusive, bool ints);
// Segment totals of the values (or SpMV's products).
Expected reduce_oracle(const std::vector<double>& products, const segments::Offsets& offsets, bool ints);

// "segment 3 = [9, 12)" (what: "segment" or "row").
std::string segment_owner(const segments::Offsets& offsets, std::size_t s, const char* what);

// Totals of each segment read off an inclusive scan (0 for empty segments).
template <class T>
std::vector<T> totals_from_scan(const std::vector<T>& scan, const segments::Offsets& offsets) {
  std::vector<T> totals;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    totals.push_back(offsets[s] < offsets[s + 1] ? scan[static_cast<std::size_t>(offsets[s + 1] - 1)] : T(0));
  return totals;
}

// Who writes sums[s] in the merge-path kernel: the team whose items hold segment s's end.
OwnerFn merge_path_owner(const segments::Offsets& offsets, int tile_items, const char* what);

}  // namespace kpz::segscan

// The step tables of the one-team scans (oracle.cpp): a host replay, in double, of what each
// step of the Hillis-Steele and Blelloch kernels should leave in scratch (`--steps`).
namespace kpz::segscan {

struct HostPair {
  double v;
  int f;
};

// Rows of a step table: a label, then "v" and "f" lines aligned in columns.
struct Table {
  std::vector<std::pair<std::string, std::vector<HostPair>>> rows;
  std::vector<std::string> lines(std::size_t n) const;
};

// Step d: element i takes (v, f)[i - d] (+) (v, f)[i].
Table hillis_steele_table(const std::vector<double>& values, const std::vector<std::uint8_t>& flags);
// The up-sweep and down-sweep over the next power of two (leaves past N hold (0, 0)).
Table blelloch_table(const std::vector<double>& values, const std::vector<std::uint8_t>& flags);

}  // namespace kpz::segscan
