// instances' registration: the variant, its options and checks, the trace budget; spec.hpp runs it.
#include <map>
#include <string>
#include <vector>

#include "instances/instances.hpp"
#include "instances/spec.hpp"

namespace kpz::instances {
namespace {

constexpr std::int64_t kMaxSize = std::int64_t{1} << 26;  // 256 MiB per array of floats

// The variants (VariantSpec::id): run switches on the id, never on the name.
enum class Variant { overlap };

template <class Space>
RunReport run_on(const Space& space, const RunRequest& req) {
  return run_case(space, req, kernels<Space>(req.impl).overlap);
}

// `kpuzzles trace` (docs/tracing.md) on the worked example: two flat kernels, no team; axpy
// reads x(i) and y(i) once and writes z(i) once, the reduction reads each w(i) once or, for its
// square, twice (w(i) * w(i)).
TraceSpec trace_config() {
  return traceable({}, 0, [](const Params& p) {
    const double n = static_cast<double>(p.get("size")), m = static_cast<double>(p.get("sum-size"));
    return std::vector<BudgetLimit>{{"global-reads", 2 * n + 2 * m, "x and y once, w at most twice"},
                                    {"global-reads-per-cell-per-team", 2, "w(i) twice for its square"},
                                    {"global-writes-per-cell", 1, "each z(i) once"},
                                    {"barriers-per-team", 0, "a flat kernel has none"},
                                    {"collectives-per-team", 0, ""},
                                    {"scratch-writes-per-team", 0, "no scratch"},
                                    {"scratch-reads-per-team", 0, "no scratch"}};
  });
}

PuzzleSpec make_spec() {
  const auto sizes = [](std::int64_t n, std::int64_t m) { return CheckCase{{"size", n}, {"sum-size", m}}; };
  // Workshop estimate (docs/instructor/estimates.md): 10 minutes to read, build and run, 1.5 per
  // line to write, 5 per new concept; rounded to 5 minutes.
  return {
      .name = "instances",
      .summary = "two independent kernels at once, each on its own execution space instance (CUDA: a stream)",
      .variants = {{.name = "overlap",
                    .id = int(Variant::overlap),
                    .summary = "z = 2 x + 1 (N = 8) and the sum of squares of w = 1..5, each on its own instance",
                    .options = {{"size", "N of z = alpha x + y (random inputs when a size is given)", 8, 0, kMaxSize},
                                {"sum-size", "M of sum = w(0)^2 + ... + w(M-1)^2 (random inputs when a size is given)",
                                 5, 0, kMaxSize}},
                    .functions = {"overlap", "sum_of_squares"},
                    // Empty jobs one at a time and both, one element each, sizes far apart both
                    // ways, and a z large enough that the host copies it in parallel.
                    .checks = {sizes(0, 5), sizes(8, 0), sizes(0, 0), sizes(1, 1), sizes(1, 4099), sizes(4099, 77),
                               sizes(100000, 3)},
                    .trace = trace_config(),
                    .minutes = 30,  // 8 lines; new: execution space instances, results that arrive later
                    .track = Track::stretch}},
      .run = KPZ_ON_REQUEST_SPACE(run_on),
      // `kpuzzles run`'s peak: per z element x, y, z, z_host and their host copies as floats, the
      // oracle's two doubles, about 48 bytes; per w element about 12.
      .bytes_needed =
          [](const VariantSpec&, const Params& p) {
            return 48.0 * static_cast<double>(p.get("size")) + 12.0 * static_cast<double>(p.get("sum-size"));
          },
      .course_position = 5,  // after basics, whose RangePolicy, parallel_reduce, deep_copy and fence it uses
      .learning_order = {"overlap"},
  };
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::instances
