// instances' inputs: the page's worked example, or seeded random ones.
#include <vector>

#include "instances/spec.hpp"
#include "kpz/random.hpp"

namespace kpz::instances {

Inputs make_inputs(const RunRequest& req) {
  const auto n = static_cast<std::size_t>(req.params.get("size"));
  const auto m = static_cast<std::size_t>(req.params.get("sum-size"));
  Inputs in{.worked = !req.params.given("size") && !req.params.given("sum-size")};
  if (in.worked) {  // the page's example: alpha = 2, x = 0, 1, 2, ..., y = 1; w = 1, 2, 3, ...
    in.alpha = 2.0f;
    for (std::size_t i = 0; i < n; ++i) in.x.push_back(static_cast<float>(i)), in.y.push_back(1.0f);
    for (std::size_t i = 0; i < m; ++i) in.w.push_back(static_cast<float>(i + 1));
    return in;
  }
  // Asymmetric ranges: a sign error, a swapped x and y or a dropped term changes the result.
  Rng rng(req.seed);
  in.alpha = static_cast<float>(rng.uniform(0.5, 2.5));
  in.x = random_floats(rng, n, -2.0, 3.0);
  in.y = random_floats(rng, n, -1.0, 2.0);
  in.w = random_floats(rng, m, -1.5, 2.5);
  return in;
}

}  // namespace kpz::instances
