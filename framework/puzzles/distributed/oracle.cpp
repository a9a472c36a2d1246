// distributed's oracles and the verdict's words: host code, run on rank 0 over the global inputs.
#include <string>
#include <vector>

#include "distributed/spec.hpp"

namespace kpz::distributed {

std::int64_t sum_oracle(const std::vector<std::int64_t>& values) {
  std::int64_t sum = 0;
  for (const std::int64_t v : values) sum += v;
  return sum;
}

std::vector<std::int64_t> scan_oracle(const ScanInputs& in) {
  std::vector<std::int64_t> out(in.values.size());
  std::int64_t run = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    run = in.heads[i] ? in.values[i] : run + in.values[i];
    out[i] = run;
  }
  return out;
}

std::vector<std::int64_t> segment_sums(const ScanInputs& in, const std::vector<std::int64_t>& scan) {
  std::vector<std::int64_t> sums;
  for (std::size_t i = 0; i < scan.size(); ++i)
    if (i + 1 == scan.size() || in.heads[i + 1]) sums.push_back(scan[i]);
  return sums;
}

OwnerFn slice_owner(const Partition& part) {
  return [part](std::size_t index) {
    const auto i = static_cast<std::int64_t>(index);
    const int r = part.owner(i);
    return "rank " + std::to_string(r) + ", element " + std::to_string(i) + " of its slice " +
           std::to_string(part.first(r)) + ".." + std::to_string(part.first(r) + part.count(r) - 1);
  };
}

std::string describe_slices(const Partition& part) {
  std::string s;
  for (int r = 0; r < part.ranks(); ++r)
    s += (r ? ", rank " : "rank ") + std::to_string(r) + " [" + std::to_string(part.first(r)) + ", " +
         std::to_string(part.first(r) + part.count(r)) + ")";
  return s;
}

}  // namespace kpz::distributed
