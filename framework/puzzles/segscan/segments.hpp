#pragma once
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
#include <cstdint>
#include <string>
#include <vector>

#include "kpz/random.hpp"

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
