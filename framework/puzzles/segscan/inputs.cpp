// segscan's inputs: segment descriptions (conversions, validation, seeded generators), the
// worked example, seeded rows and values, --bad-input.
#include "segscan/spec.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "kpz/errors.hpp"

// Segment descriptions: conversions, validation and seeded generators (segments.hpp).
namespace kpz::segscan::segments {

namespace {
std::string at(const std::string& name, std::size_t k, std::int64_t v) {
  return name + "[" + std::to_string(k) + "] = " + std::to_string(v);
}

void require_mean_length(std::int64_t mean_length) {
  if (mean_length < 1) throw UsageError("mean segment length must be >= 1, got " + std::to_string(mean_length));
}
}  // namespace

void validate_offsets(const Offsets& offsets, std::int64_t n, const std::string& what, const std::string& n_name) {
  const std::string N = n_name + " = " + std::to_string(n);
  const std::string rule =
      "; " + what + " must start at 0, never decrease and end at " + N + " (segment s is [offsets[s], offsets[s+1]))";
  if (offsets.empty()) throw UsageError(what + " are empty" + rule);
  if (offsets[0] != 0) throw UsageError(what + " start at " + at("offsets", 0, offsets[0]) + rule);
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    if (offsets[k] > n) throw UsageError(what + ": " + at("offsets", k, offsets[k]) + " is past " + N + rule);
    if (offsets[k] < 0) throw UsageError(what + ": " + at("offsets", k, offsets[k]) + " is negative" + rule);
    if (k > 0 && offsets[k] < offsets[k - 1])
      throw UsageError(what + " are not monotone: " + at("offsets", k, offsets[k]) + " is less than " +
                       at("offsets", k - 1, offsets[k - 1]) + rule);
  }
  if (offsets.back() != n)
    throw UsageError(what + " end at " + at("offsets", offsets.size() - 1, offsets.back()) + ", not at " + N + rule);
}

Offsets offsets_from_ids(const std::vector<std::int64_t>& ids, std::int64_t num_segments) {
  const std::string rule = "; segment ids must be >= 0 and never decrease (element i belongs to segment ids[i])";
  std::int64_t max_id = -1;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0) throw UsageError("segment ids: " + at("ids", i, ids[i]) + " is negative" + rule);
    if (i > 0 && ids[i] < ids[i - 1])
      throw UsageError("segment ids decrease: " + at("ids", i, ids[i]) + " is less than " +
                       at("ids", i - 1, ids[i - 1]) + rule);
    max_id = ids[i];
  }
  if (num_segments < 0) num_segments = max_id + 1;
  if (num_segments < max_id + 1)
    throw UsageError("segment ids go up to " + std::to_string(max_id) + " but only " + std::to_string(num_segments) +
                     " segments were declared");
  // offsets[s] = number of elements with id < s.
  Offsets offsets(static_cast<std::size_t>(num_segments) + 1, 0);
  std::size_t i = 0;
  for (std::int64_t s = 0; s <= num_segments; ++s) {
    while (i < ids.size() && ids[i] < s) ++i;
    offsets[static_cast<std::size_t>(s)] = static_cast<std::int64_t>(i);
  }
  offsets.back() = static_cast<std::int64_t>(ids.size());
  return offsets;
}

Offsets offsets_from_flags(const std::vector<std::uint8_t>& flags) {
  Offsets offsets{0};
  for (std::size_t i = 1; i < flags.size(); ++i)
    if (flags[i]) offsets.push_back(static_cast<std::int64_t>(i));
  if (!flags.empty()) offsets.push_back(static_cast<std::int64_t>(flags.size()));
  return offsets;
}

std::vector<std::uint8_t> flags_from_offsets(const Offsets& offsets, std::int64_t n) {
  validate_offsets(offsets, n);
  std::vector<std::uint8_t> flags(static_cast<std::size_t>(n), 0);
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    if (offsets[s] < offsets[s + 1]) flags[static_cast<std::size_t>(offsets[s])] = 1;
  return flags;
}

std::vector<std::int64_t> ids_from_offsets(const Offsets& offsets, std::int64_t n) {
  validate_offsets(offsets, n);
  std::vector<std::int64_t> ids(static_cast<std::size_t>(n));
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i)
      ids[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(s);
  return ids;
}

std::int64_t longest(const Offsets& offsets) {
  std::int64_t best = 0;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) best = std::max(best, offsets[s + 1] - offsets[s]);
  return best;
}

Offsets random_offsets(Rng& rng, std::int64_t n, std::int64_t mean_length) {
  require_mean_length(mean_length);
  Offsets offsets{0};
  std::int64_t at_ = 0;
  while (at_ < n) {
    at_ = std::min(n, at_ + rng.integer(0, 2 * mean_length));
    offsets.push_back(at_);
  }
  if (n == 0) offsets.push_back(0);
  return offsets;
}

Offsets heavy_tail_offsets(Rng& rng, std::int64_t n, std::int64_t mean_length) {
  require_mean_length(mean_length);
  const double x_min = std::max<double>(1.0, static_cast<double>(mean_length) / 4.0);
  const double alpha = 1.2;
  Offsets offsets{0};
  std::int64_t at_ = 0;
  while (at_ < n) {
    std::int64_t len = 0;
    if (rng.uniform() >= 0.25) {
      const double u = 1.0 - rng.uniform();  // (0, 1]
      const double x = x_min * std::pow(u, -1.0 / alpha);
      len = x >= static_cast<double>(n) ? n : static_cast<std::int64_t>(x);
    }
    at_ = std::min(n, at_ + len);
    offsets.push_back(at_);
  }
  if (n == 0) offsets.push_back(0);
  return offsets;
}

Offsets unit_offsets(std::int64_t n) {
  Offsets offsets(static_cast<std::size_t>(n) + 1);
  for (std::int64_t i = 0; i <= n; ++i) offsets[static_cast<std::size_t>(i)] = i;
  return offsets;
}

Offsets single_offsets(std::int64_t n) {
  return {0, n};
}

Offsets gappy_offsets(Rng& rng, std::int64_t n, std::int64_t mean_length) {
  require_mean_length(mean_length);
  Offsets offsets{0, 0};  // an empty first segment
  std::int64_t at_ = 0;
  while (at_ < n) {
    at_ = std::min(n, at_ + rng.integer(1, 2 * mean_length));
    offsets.push_back(at_);
    const std::int64_t empties = rng.integer(1, 3);
    for (std::int64_t e = 0; e < empties; ++e) offsets.push_back(at_);  // empty segments
  }
  return offsets;
}

}  // namespace kpz::segscan::segments

// segscan's inputs: the worked example, seeded segments and rows, --bad-input.
namespace kpz::segscan {

const std::vector<std::int64_t> kWorkedIds{0, 0, 0, 1, 1, 2, 2, 2, 2, 3};

const char* shape_name(std::int64_t shape) {
  switch (shape) {
    case 1:
      return "heavy tail";
    case 2:
      return "all of length 1";
    case 3:
      return "one segment";
    case 4:
      return "empty segments";
    default:
      return "random lengths 0..2L";
  }
}

segments::Offsets generate_offsets(std::int64_t shape, Rng& rng, std::int64_t n, std::int64_t mean) {
  // The generators' "mean segment length must be >= 1" is this flag's rule here.
  if (shape != 2 && shape != 3 && mean < 1) throw UsageError("--mean-length must be at least 1");
  switch (shape) {
    case 1:
      return segments::heavy_tail_offsets(rng, n, mean);
    case 2:
      return segments::unit_offsets(n);
    case 3:
      return segments::single_offsets(n);
    case 4:
      return segments::gappy_offsets(rng, n, mean);
    default:
      return segments::random_offsets(rng, n, mean);
  }
}

segments::Offsets generate_rows(std::int64_t shape, Rng& rng, std::int64_t rows, std::int64_t mean) {
  std::vector<std::int64_t> len(static_cast<std::size_t>(rows), 0);
  const double x_min = std::max<double>(1.0, static_cast<double>(mean) / 4.0);
  for (std::int64_t r = 0; r < rows; ++r) {
    auto& l = len[static_cast<std::size_t>(r)];
    switch (shape) {
      case 1:
        if (rng.uniform() >= 0.25)
          l = static_cast<std::int64_t>(std::min(1e12, x_min * std::pow(1.0 - rng.uniform(), -1.0 / 1.2)));
        break;
      case 2:
        l = 1;
        break;
      case 3:
        l = r == rows / 2 ? rows * mean : 0;
        break;
      case 4:
        l = (r % 2 == 0 || r == rows - 1) ? 0 : rng.integer(1, 2 * mean);
        break;  // first and last empty
      default:
        l = rng.integer(0, 2 * mean);
    }
  }
  segments::Offsets offsets(static_cast<std::size_t>(rows) + 1, 0);
  for (std::size_t r = 0; r < len.size(); ++r) {
    offsets[r + 1] = offsets[r] + len[r];
    if (offsets[r + 1] > kMaxSize)
      throw UsageError("--size " + std::to_string(rows) + " rows with --mean-length " + std::to_string(mean) +
                       " give more than 2^28 nonzeros: use fewer rows or shorter ones");
  }
  return offsets;
}

void apply_bad_input(std::int64_t bad, segments::Offsets offsets, std::int64_t n, const std::string& what,
                     const std::string& n_name) {
  if (bad == 1) {  // not monotone: swap two different neighbours
    std::size_t k = 0;
    for (std::size_t i = 1; i + 1 < offsets.size(); ++i)
      if (offsets[i] < offsets[i + 1] && (k == 0 || (i <= offsets.size() / 2))) k = i;
    if (k == 0)
      offsets = {0, n, 0, n};
    else
      std::swap(offsets[k], offsets[k + 1]);
    segments::validate_offsets(offsets, n, what, n_name);
  } else if (bad == 2) {  // the last offset points past the end
    offsets.back() = n + 1;
    segments::validate_offsets(offsets, n, what, n_name);
  } else if (bad == 3) {  // ids that decrease: element 0 claims a later segment than the rest
    if (n < 2) throw UsageError("--bad-input 3 (segment ids that decrease) needs at least 2 elements");
    std::vector<std::int64_t> ids = segments::ids_from_offsets(offsets, n);
    ids[0] = ids.back() + 1;
    (void)segments::offsets_from_ids(ids);
  }
  throw std::logic_error("--bad-input " + std::to_string(bad) + " produced a valid description");
}

}  // namespace kpz::segscan
