// batched's registration: variants, options, inputs, oracle and checking.
#include <cmath>
#include <string>
#include <vector>

#include "batched/batched.hpp"
#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::batched {
namespace {

constexpr std::int64_t kMaxElements = std::int64_t{1} << 28;  // entries of all of A: 1 GiB of floats

struct Sizes {
  std::size_t batch, rows, cols;
};

struct Inputs {
  std::vector<float> A, x, rhs;  // row-major, one system after the other
};

// The worked example (docs/puzzles/batched.md): A_b(i, j) = b + i * N + j, x_b(j) = j + 1,
// rhs_b(i) = 10 (i + 1) + b. Anything else is random, asymmetric around 0, so that a sign error,
// a swapped index or a dropped term shows.
Inputs make_inputs(const Sizes& s, std::uint64_t seed, bool worked_example) {
  if (!worked_example) {
    Rng rng(seed);  // a braced list runs its initialisers in order: A draws first, then x, then rhs
    return Inputs{.A = random_floats(rng, s.batch * s.rows * s.cols, -1.0, 1.5),
                  .x = random_floats(rng, s.batch * s.cols, -2.0, 3.0),
                  .rhs = random_floats(rng, s.batch * s.rows, -1.0, 2.0)};
  }
  Inputs in{.A = std::vector<float>(s.batch * s.rows * s.cols),
            .x = std::vector<float>(s.batch * s.cols),
            .rhs = std::vector<float>(s.batch * s.rows)};
  for (std::size_t b = 0; b < s.batch; ++b) {
    for (std::size_t i = 0; i < s.rows; ++i) {
      in.rhs[b * s.rows + i] = static_cast<float>(10 * (i + 1) + b);
      for (std::size_t j = 0; j < s.cols; ++j)
        in.A[(b * s.rows + i) * s.cols + j] = static_cast<float>(b + i * s.cols + j);
    }
    for (std::size_t j = 0; j < s.cols; ++j) in.x[b * s.cols + j] = static_cast<float>(j + 1);
  }
  return in;
}

// Double-precision oracle: r (B x M) then rr (B), and per element the rounding a float kernel
// may show (rr's bound carries r's rounding: |2 r_i d_i + d_i^2| per term).
void oracle(const Sizes& s, const Inputs& in, std::vector<double>& expected, std::vector<double>& bound) {
  expected.assign(s.batch * (s.rows + 1), 0.0);
  bound.assign(expected.size(), 0.0);
  for (std::size_t b = 0; b < s.batch; ++b) {
    double rr = 0, rr_bound = 0;
    for (std::size_t i = 0; i < s.rows; ++i) {
      const std::size_t k = b * s.rows + i;
      double r = in.rhs[k], abs_sum = std::fabs(r);
      for (std::size_t j = 0; j < s.cols; ++j) {
        const double p = static_cast<double>(in.A[k * s.cols + j]) * in.x[b * s.cols + j];
        r -= p;
        abs_sum += std::fabs(p);
      }
      const double d = sum_error_bound(abs_sum, s.cols + 1);
      expected[k] = r;
      bound[k] = d;
      rr += r * r;
      rr_bound += 2 * std::fabs(r) * d + d * d + sum_error_bound(r * r, s.rows);
    }
    expected[s.batch * s.rows + b] = rr;
    bound[s.batch * s.rows + b] = rr_bound;
  }
}

// Who should have written element k of the output (r, then rr): row i of system b belongs to
// team b and the member whose TeamThreadRange share holds i; rr(b) to one member of team b.
OwnerFn owner_of(std::string_view space, const Sizes& s, int team_size) {
  const OwnerFn by_row = tile_owner(space, s.rows, team_size);
  const std::size_t r_size = s.batch * s.rows;
  return [=](std::size_t k) {
    if (k < r_size) return by_row(k) + " (r of system " + std::to_string(k / s.rows) + ")";
    return "team " + std::to_string(k - r_size) + " (rr of system " + std::to_string(k - r_size) + ")";
  };
}

enum class Variant { library, hand_written };

template <class Space>
RunReport run_on(const Space& space, const RunRequest& req) {
  const Sizes s{static_cast<std::size_t>(req.params.get("batch")), static_cast<std::size_t>(req.params.get("rows")),
                static_cast<std::size_t>(req.params.get("cols"))};
  if (static_cast<double>(s.batch) * static_cast<double>(s.rows) * static_cast<double>(s.cols) >
      static_cast<double>(kMaxElements))
    throw UsageError("batched: --batch x --rows x --cols must be at most " + std::to_string(kMaxElements) +
                     " (the entries of all the matrices)");
  const bool worked = !req.params.given("batch") && !req.params.given("rows") && !req.params.given("cols");

  // Host-side launch configuration: the framework's shape for the backend (kpz/launch_shape.hpp);
  // --team-size / --vector-length override it.
  const LaunchShape shape = launch_shape(space, team_needs(s.rows, s.cols), req);
  const Launch launch{.team_size = shape.team_size, .vector_length = shape.vector_length};

  const Inputs in = make_inputs(s, req.seed, worked);
  const auto A = batch_to_device<float***, Space>(space, "A", in.A, s.batch, s.rows, s.cols);
  const auto x = batch_to_device<float**, Space>(space, "x", in.x, s.batch, s.cols);
  const auto rhs = batch_to_device<float**, Space>(space, "rhs", in.rhs, s.batch, s.rows);
  // r's rows are M + 1 floats apart: a write past the end of row b lands in its poisoned guard,
  // not in system b + 1's first entry, where whether it shows would depend on which team wrote last.
  const auto r_rows = poisoned_output<float>(space, "r with a guard per row", s.batch * (s.rows + 1));
  Kokkos::LayoutRight padded(s.batch, s.rows);
  padded.stride = s.rows + 1;
  const BatchView<float**, Space> r(r_rows.data(), padded);
  const auto rr = poisoned_output<float>(space, "rr", s.batch);
  space.fence();

  const auto kern = kernels<Space>(req.impl);
  if (req.variant_as<Variant>() == Variant::hand_written)
    kern.hand_written(space, launch, A, x, rhs, r, rr);
  else
    kern.library(space, launch, A, x, rhs, r, rr);
  space.fence();
  const std::vector<float> rows = to_host(r_rows);
  std::vector<float> got, guards;
  for (std::size_t b = 0; b < s.batch; ++b) {
    got.insert(got.end(), rows.begin() + b * (s.rows + 1), rows.begin() + b * (s.rows + 1) + s.rows);
    guards.push_back(rows[b * (s.rows + 1) + s.rows]);
  }
  const std::vector<float> got_rr = to_host(rr);
  got.insert(got.end(), got_rr.begin(), got_rr.end());

  std::vector<double> expected, bound;
  oracle(s, in, expected, bound);

  RunReport report;
  report.notes.push_back("values: r (B rows of M), then rr (B); after them, one guard after each row of r");
  report.config.set("batch", s.batch).set("rows", s.rows).set("cols", s.cols);
  report.config.set("team_size", launch.team_size).set("vector_length", launch.vector_length);
  report.config.set("teams", s.batch).set("worked_example", worked);
  compare_within(report, got, expected, bound, owner_of(space_name<Space>(), s, launch.team_size));
  report.checked += guards.size();
  for (std::size_t b = 0; b < s.batch; ++b)
    if (!std::isnan(guards[b]))
      add_finding(report, got.size() + b, "no write past row " + std::to_string(b) + " of r",
                  "r(" + std::to_string(b) + ", " + std::to_string(s.rows) + ") = " + format_number(guards[b]),
                  "team " + std::to_string(b) + ": a loop over the rows of system " + std::to_string(b) +
                      " ran past M = " + std::to_string(s.rows));
  keep_arrays(report, req, got, expected, "A", in.A, "x", in.x, "rhs", in.rhs);
  return report;
}

PuzzleSpec make_spec() {
  const std::vector<OptionSpec> options = {
      {"batch", "number of systems B (random inputs when a size is given)", 2, 1, kMaxElements},
      {"rows", "rows M of every A_b (random inputs when a size is given)", 2, 1, 4096},
      {"cols", "columns N of every A_b (random inputs when a size is given)", 3, 1, 4096}};
  // One system; 1 x 1; one row; one column; fewer rows than a team; rows and columns that are not
  // a multiple of the team size or the lanes; wide and tall systems; teams of one member.
  const auto system = [](std::int64_t batch, std::int64_t rows, std::int64_t cols) {
    return CheckCase{{"batch", batch}, {"rows", rows}, {"cols", cols}};
  };
  const std::vector<CheckCase> checks = {
      system(1, 1, 1),   system(1, 37, 5),  system(5, 13, 29).team(1), system(301, 17, 33), system(7, 70, 1),
      system(1, 1, 40),  system(1, 37, 1),  system(3, 2, 3),           system(1, 5, 5),     system(2, 100, 3),
      system(3, 3, 100), system(1, 65, 67), system(4, 13, 29)};
  const TraceSpec untraceable{
      .not_traceable_reason =
          "batched is built only with Kokkos Kernels, whose routines take Kokkos Views: the trace build has none"};
  // Minutes by docs/instructor/estimates.md's rule; stretch: a one-day workshop ends with segscan.
  return {
      .name = "batched",
      .summary = "many small residuals r = rhs - A x and their norms, with Kokkos Kernels' team routines",
      .variants = {{.name = "library",
                    .id = int(Variant::library),
                    .summary = "one team per system calls Kokkos Kernels' team gemv and team dot",
                    .options = options,
                    .functions = {"library"},
                    .checks = checks,
                    .trace = untraceable,
                    .minutes = 30,  // 6 lines; new: Kokkos Kernels' team gemv and dot
                    .track = Track::stretch},
                   {.name = "hand-written",
                    .id = int(Variant::hand_written),
                    .summary = "one team per system: rows on the members, each row's dot product on the vector lanes",
                    .options = options,
                    .functions = {"hand_written"},
                    .checks = checks,
                    .trace = untraceable,
                    .minutes = 40,  // 12 lines; new: a batch of small systems, one team each
                    .track = Track::stretch}},
      .run = KPZ_ON_REQUEST_SPACE(run_on),
      // `kpuzzles run`'s peak: A on the host and the device (8 bytes an entry), the vectors and the
      // oracle's doubles (about 40 bytes per row and column).
      .bytes_needed =
          [](const VariantSpec&, const Params& p) {
            const double b = static_cast<double>(p.get("batch")), m = static_cast<double>(p.get("rows")),
                         n = static_cast<double>(p.get("cols"));
            return b * (8.0 * m * n + 40.0 * (m + n + 1));
          },
      .course_position = 60,  // after segscan (50): the course's last puzzle, composing with a library
      .learning_order = {"hand-written", "library"},
  };
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::batched
