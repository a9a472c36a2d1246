// segscan's inputs: the worked example, seeded segments and rows, --bad-input.
#include "segscan/inputs.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "kpz/errors.hpp"
#include "segscan/variants.hpp"

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
