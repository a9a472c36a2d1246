// butterfly's run: one case of a variant on a space: the inputs (the docs' worked examples or
// seeded values), the oracle, the --steps table, the launch and the comparison.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "butterfly/butterfly.hpp"
#include "butterfly/spec.hpp"
#include "kpz/check.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"

namespace kpz::butterfly {

namespace {

// Worked examples from the docs when no size is given; otherwise seeded random values in
// [-50, 50) rounded to quarters, so negatives and ties are common and max/min are exact.
std::vector<float> make_input(const RunRequest& req, const VariantInfo& v, int n, int group) {
  std::vector<float> in(static_cast<std::size_t>(n));
  const bool worked = !req.params.given("size");
  if (worked && v.kind == Kind::pair_swap) {
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  } else if (worked && v.kind == Kind::all_reduce) {
    for (int i = 0; i < n; ++i) in[i] = (i % group == group - 1) ? 1000.0f : 2.0f * static_cast<float>(i % group);
  } else if (worked && v.digits) {
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i < 32 ? i % 10 : i);
  } else {
    Rng rng(req.seed);
    for (auto& x : in) x = static_cast<float>(std::floor(rng.uniform(-200.0, 200.0)) / 4.0);
  }
  return in;
}

// The oracle: computed per group directly, not by replaying the butterfly.
void oracle(const std::vector<float>& in, int group, VariantInfo v, std::vector<double>& expected,
            std::vector<double>& bound) {
  const std::size_t n = in.size();
  expected.assign(n, 0.0);
  bound.assign(n, 0.0);
  for (std::size_t g = 0; g < n; g += group) {
    double mx = in[g], mn = in[g], sum = 0, abs_sum = 0;
    for (std::size_t i = g; i < g + group; ++i) {
      mx = std::max<double>(mx, in[i]);
      mn = std::min<double>(mn, in[i]);
      sum += in[i];
      abs_sum += std::fabs(in[i]);
    }
    for (std::size_t i = g; i < g + group; ++i) {
      switch (v.kind) {
        case Kind::pair_swap:
          expected[i] = in[i ^ 1];
          break;
        case Kind::all_reduce:
          expected[i] = v.op == Op::max ? mx : v.op == Op::min ? mn : sum;
          if (v.op == Op::sum) bound[i] = sum_error_bound(abs_sum, group);
          break;
        case Kind::conditional:
        case Kind::vector:
          expected[i] = (i % 2 == 0) ? mx : mn;
          break;
        case Kind::in_place:
          expected[i] = mx;
          break;
      }
    }
  }
}

// --steps: the lane values of group 0 after every mask, replayed on the host.
std::vector<std::string> trace_lines(const std::vector<float>& in, int group, VariantInfo v) {
  std::vector<std::string> lines;
  auto row = [](const std::string& label, const std::vector<float>& x) {
    std::string s = label;
    for (float f : x) s += " " + format_number(f);
    return s;
  };
  std::vector<float> hi(in.begin(), in.begin() + group), lo = hi;
  lines.push_back(row("group 0 lanes:  ", hi));
  if (v.kind == Kind::pair_swap) {
    for (int i = 0; i < group; ++i) lo[i] = hi[i ^ 1];
    lines.push_back(row("after mask 1:   ", lo));
    return lines;
  }
  if (v.kind == Kind::vector) {
    // No steps to show: Kokkos' nested reduction is one call. Show what the lanes hold after it.
    const float mx = *std::max_element(hi.begin(), hi.end()), mn = *std::min_element(hi.begin(), hi.end());
    lines.push_back("after parallel_reduce(ThreadVectorRange, MinMax): max " + format_number(mx) + ", min " +
                    format_number(mn) + " in every lane");
    for (int i = 0; i < group; ++i) hi[i] = i % 2 == 0 ? mx : mn;
    lines.push_back(row("written:        ", hi));
    return lines;
  }
  for (int mask = group / 2; mask >= 1; mask /= 2) {
    std::vector<float> h = hi, l = lo;
    for (int i = 0; i < group; ++i) {
      h[i] = apply(v.kind == Kind::conditional ? Op::max : v.op, hi[i], hi[i ^ mask]);
      l[i] = apply(Op::min, lo[i], lo[i ^ mask]);
    }
    hi = h;
    lo = l;
    const std::string m = "after mask " + std::to_string(mask) + ": ";
    lines.push_back(row(m + (v.kind == Kind::conditional ? "max" : ""), hi));
    if (v.kind == Kind::conditional) lines.push_back(row(m + "min", lo));
  }
  return lines;
}

template <class Space>
RunReport run_on(const Space& space, const RunRequest& req) {
  const VariantInfo v = info(req.variant_as<Variant>());
  const int group = static_cast<int>(req.params.get("group-size"));
  if (group < 2 || group > 32 || (group & (group - 1)))
    throw UsageError("--group-size " + std::to_string(group) + " is not allowed: use 2, 4, 8, 16 or 32");
  const bool parallel = v.kind == Kind::all_reduce;
  const int n = static_cast<int>(parallel && !req.params.given("size") ? group : req.params.get("size"));
  if (n % group)
    throw UsageError("--size " + std::to_string(n) + " must be a multiple of --group-size " + std::to_string(group));
  LaunchShape shape =
      butterfly_shape(space, v.kind == Kind::vector, group, {req.team_size, req.vector_length}, Purpose::check);
  if (req.params.get("tile")) shape.tile = static_cast<int>(req.params.get("tile"));
  const int team_size = shape.team_size, tile = shape.tile;
  if (tile % group)
    throw UsageError("--tile " + std::to_string(tile) + " must be a multiple of --group-size " + std::to_string(group));
  if (v.kind != Kind::vector)
    check_scratch_option<Space>(
        "butterfly with a tile of " + std::to_string(tile) + " lanes", "--tile", tile, 0,
        [&](int x) { return scratch_bytes<Space>(x); }, group);

  const std::vector<float> host_in = make_input(req, v, n, group);
  require_finite(host_in, "butterfly input");
  auto in = to_device(space, "in", host_in);
  View<float*, Space> out = poisoned_output<float>(space, "out", static_cast<std::size_t>(n));
  space.fence();
  const Launch launch{.team_size = team_size,
                      .tile = tile,
                      .group = group,
                      .vector_length = shape.vector_length,
                      .in_flight = shape.in_flight};
  View<const float*, Space> cin = in;
  const auto kern = kernels<Space>(req.impl);
  switch (v.kind) {
    case Kind::pair_swap:
      kern.pair_swap(space, launch, cin, out);
      break;
    case Kind::all_reduce:
      kern.all_reduce(space, launch, v.op, cin, out);
      break;
    case Kind::conditional:
      kern.conditional(space, launch, cin, out);
      break;
    case Kind::in_place:
      kern.bug_in_place(space, launch, cin, out);
      break;
    case Kind::vector:
      kern.vector_minmax(space, launch, cin, out);
      break;
  }
  space.fence();
  const std::vector<float> got = to_host(out);

  std::vector<double> expected, bound;
  oracle(host_in, group, v, expected, bound);
  RunReport report;
  report.config.set("size", n).set("group_size", group);
  const Json shape_json = shape.to_json();
  for (const char* key : {"team_size", "vector_length", "tile"}) report.config.set(key, *shape_json.find(key));
  report.config.set("teams", (n + tile - 1) / tile);
  if (req.steps) {
    if (group > 8)
      report.notes.push_back("(--steps prints groups of at most 8 lanes: add --group-size 8)");
    else
      report.notes = trace_lines(host_in, group, v);
  }
  OwnerFn owner = tile_owner<Space>(tile, team_size);
  if (v.kind == Kind::vector) {  // members own rows of launch.in_flight groups, lanes own elements
    const std::size_t per_row = launch.in_flight;
    const std::size_t rows = (tile / group + per_row - 1) / per_row;  // per team
    owner = [rows_owner = tile_owner<Space>(rows, team_size), group, tile, rows, per_row](std::size_t i) {
      const std::size_t row = (i / tile) * rows + (i % tile) / group / per_row;
      return rows_owner(row) + ", lane " + std::to_string(i % group);
    };
  }
  compare_within(report, got, expected, bound, owner);
  keep_arrays(report, req, got, expected, "in", host_in);
  return report;
}

}  // namespace

RunReport run(const RunRequest& req) {
  return with_space(req.space, [&](const auto& space) { return run_on(space, req); });
}

}  // namespace kpz::butterfly
