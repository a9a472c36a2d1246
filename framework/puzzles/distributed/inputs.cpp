// distributed's partitions, halo plans and seeded global inputs: host code every rank runs alike.
#include <algorithm>
#include <string>
#include <vector>

#include "distributed/spec.hpp"
#include "kpz/errors.hpp"
#include "kpz/random.hpp"

namespace kpz::distributed {

int Partition::owner(std::int64_t i) const {
  // The last rank whose slice starts at or before i and is not empty.
  const auto it = std::upper_bound(offsets.begin(), offsets.end() - 1, i);
  int r = static_cast<int>(it - offsets.begin()) - 1;
  while (r > 0 && count(r) == 0) --r;
  return r;
}

Partition even_partition(std::int64_t n, int ranks) {
  Partition p{std::vector<std::int64_t>(static_cast<std::size_t>(ranks) + 1)};
  const std::int64_t base = n / ranks, extra = n % ranks;
  for (int r = 0; r < ranks; ++r) p.offsets[r + 1] = p.offsets[r] + base + (r < extra ? 1 : 0);
  return p;
}

Partition uneven_partition(std::int64_t n, int ranks, std::uint64_t seed) {
  // Its own stream, so that the cuts do not shift the inputs drawn from the same seed.
  Rng rng(seed ^ 0x5EEDC075ull);
  Partition p{std::vector<std::int64_t>(static_cast<std::size_t>(ranks) + 1)};
  for (int r = 1; r < ranks; ++r) p.offsets[r] = rng.integer(0, n);
  p.offsets[ranks] = n;
  std::sort(p.offsets.begin(), p.offsets.end());
  return p;
}

Partition checked_partition(std::int64_t n, int ranks, bool uneven, std::uint64_t seed) {
  if (!uneven && n < ranks)
    throw UsageError("--size " + std::to_string(n) + " is smaller than the " + std::to_string(ranks) +
                     " ranks: an even split gives every rank at least one element; give --size " +
                     std::to_string(ranks) + " or more, or --uneven 1 (empty ranks allowed)");
  return uneven ? uneven_partition(n, ranks, seed) : even_partition(n, ranks);
}

std::int64_t HaloPlan::interior() const {
  if (halo == 0) return count;
  return std::max<std::int64_t>(0, count - (taps - 1));
}

HaloPlan halo_plan(const Partition& part, int rank, int taps) {
  HaloPlan plan{.rank = rank, .first = part.first(rank), .count = part.count(rank), .n = part.size(), .taps = taps};
  // The global range rank r needs past its slice: none for an empty slice (it has no outputs).
  const auto needed = [&](int r) {
    const std::int64_t end = part.first(r) + part.count(r);
    return part.count(r) == 0 ? std::pair{end, end} : std::pair{end, std::min(end + taps - 1, part.size())};
  };
  const auto [lo, hi] = needed(rank);
  plan.halo = hi - lo;
  for (int p = rank + 1; p < part.ranks(); ++p) {
    const std::int64_t from = std::max(lo, part.first(p)), to = std::min(hi, part.first(p) + part.count(p));
    if (from < to) plan.receives.push_back({.peer = p, .first = from, .count = to - from, .offset = from - lo});
  }
  for (int q = 0; q < rank; ++q) {
    const auto [qlo, qhi] = needed(q);
    const std::int64_t from = std::max(qlo, plan.first), to = std::min(qhi, plan.first + plan.count);
    if (from < to) plan.sends.push_back({.peer = q, .first = from, .count = to - from, .offset = from - plan.first});
  }
  return plan;
}

std::vector<std::int64_t> sum_inputs(std::int64_t n, std::uint64_t seed, bool worked) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  if (worked) {
    for (std::int64_t i = 0; i < n; ++i) v[i] = i + 1;
    return v;
  }
  Rng rng(seed);
  for (auto& x : v) x = rng.integer(-1000, 3000);
  return v;
}

ScanInputs scan_inputs(std::int64_t n, std::uint64_t seed, bool worked) {
  ScanInputs in{std::vector<std::int64_t>(static_cast<std::size_t>(n)), std::vector<std::uint8_t>(n)};
  // keys {0,0,0,1,1,1,2,2,2,3}, values 0..9: at every rank count from 2 to 4 (even or --uneven)
  // some rank starts inside a segment, so a run without the carry fails the worked example.
  if (worked) {
    const std::vector<int> keys{0, 0, 0, 1, 1, 1, 2, 2, 2, 3};
    for (std::int64_t i = 0; i < n; ++i) {
      in.values[i] = i;
      in.heads[i] = i == 0 || keys[i] != keys[i - 1];
    }
    return in;
  }
  // Segments of about 6 elements, some much longer: several of them span ranks.
  Rng rng(seed);
  for (std::int64_t i = 0; i < n; ++i) {
    in.values[i] = rng.integer(-5, 20);
    in.heads[i] = i == 0 || rng.integer(0, 5) == 0;
  }
  return in;
}

}  // namespace kpz::distributed
