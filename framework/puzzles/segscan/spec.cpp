// segscan's registration: variants, options, segment descriptions, inputs, oracle, checking,
// the step tables and the Kokkos Kernels comparison.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/random.hpp"
#include "kpz/segments.hpp"
#include "kpz/transfer.hpp"
#include "segscan/segscan.hpp"

namespace kpz::segscan {

// `kpuzzles trace` configurations and budgets of every variant (trace_config.cpp).
void set_trace_configs(PuzzleSpec& spec);

namespace {

constexpr std::int64_t kMaxSize = std::int64_t{1} << 28;  // values (or nonzeros) per run

enum class Kind { simple, exclusive, work_efficient, multi_team, reduce, spmv, vector_scan };

Kind kind_of(const std::string& v) {
  if (v == "simple") return Kind::simple;
  if (v == "exclusive") return Kind::exclusive;
  if (v == "work-efficient") return Kind::work_efficient;
  if (v == "reduce") return Kind::reduce;
  if (v == "spmv") return Kind::spmv;
  if (v == "vector-scan") return Kind::vector_scan;
  return Kind::multi_team;
}

bool one_team(Kind k) { return k == Kind::simple || k == Kind::exclusive || k == Kind::work_efficient; }
bool is_scan(Kind k) { return k != Kind::reduce && k != Kind::spmv && k != Kind::vector_scan; }

// Launch shapes (kpz/launch_shape.hpp). The scratch-and-barrier kernels keep their shapes:
// 256 members on a GPU, as many as the backend gives when checking on a CPU, vector length 1
// (they have no vector loops). --vector-scan: 8 members of 32 lanes on a GPU (a warp per row).
KernelNeeds segscan_needs(Kind kind) {
  KernelNeeds needs;
  needs.gpu_team = 256;
  needs.check_team = 64;
  needs.gpu_tile = needs.host_tile = 1024;
  if (kind == Kind::vector_scan) {
    needs.gpu_team = 8;
    needs.gpu_vector = 32;
    needs.gpu_tile = 4096;
    needs.host_tile = 4096;
  }
  return needs;
}

// The one-team carries launch of --vector-scan scans one pair per tile (65536 at N = 2^28 on a
// GPU): a whole block of 32 x 32 lanes there, so that each member's chunk stays short.
template <class Space>
int vector_scan_carry_team(const Space& space, int team_size, int vector_length, Purpose purpose) {
  KernelNeeds needs = segscan_needs(Kind::vector_scan);
  needs.gpu_team = 32;
  return launch_shape(space, needs, ShapeRequest{team_size, vector_length}, purpose).team_size;
}

template <class Space>
LaunchShape segscan_shape(const Space& space, const RunRequest& req, Kind kind) {
  const bool lanes = kind == Kind::vector_scan;
  LaunchShape shape = launch_shape(space, segscan_needs(kind), ShapeRequest{req.team_size, lanes ? req.vector_length : 0},
                                   Purpose::check);
  if (!one_team(kind) && req.params.get("tile")) shape.tile = static_cast<int>(req.params.get("tile"));
  return shape;
}

// The worked example of the issue and the docs: segments {0,1,2} {3,4} {5,6,7,8} {9}.
const std::vector<std::int64_t> kWorkedIds{0, 0, 0, 1, 1, 2, 2, 2, 2, 3};

const char* shape_name(std::int64_t shape) {
  switch (shape) {
    case 1: return "heavy tail";
    case 2: return "all of length 1";
    case 3: return "one segment";
    case 4: return "empty segments";
    default: return "random lengths 0..2L";
  }
}

segments::Offsets generate_offsets(std::int64_t shape, Rng& rng, std::int64_t n, std::int64_t mean) {
  switch (shape) {
    case 1: return segments::heavy_tail_offsets(rng, n, mean);
    case 2: return segments::unit_offsets(n);
    case 3: return segments::single_offsets(n);
    case 4: return segments::gappy_offsets(rng, n, mean);
    default: return segments::random_offsets(rng, n, mean);
  }
}

// SpMV rows: lengths per row for the same shapes (shape 3: one row holds every nonzero).
segments::Offsets generate_rows(std::int64_t shape, Rng& rng, std::int64_t rows, std::int64_t mean) {
  std::vector<std::int64_t> len(static_cast<std::size_t>(rows), 0);
  const double x_min = std::max<double>(1.0, static_cast<double>(mean) / 4.0);
  for (std::int64_t r = 0; r < rows; ++r) {
    auto& l = len[static_cast<std::size_t>(r)];
    switch (shape) {
      case 1:
        if (rng.uniform() >= 0.25) l = static_cast<std::int64_t>(std::min(1e12, x_min * std::pow(1.0 - rng.uniform(), -1.0 / 1.2)));
        break;
      case 2: l = 1; break;
      case 3: l = r == rows / 2 ? rows * mean : 0; break;
      case 4: l = (r % 2 == 0 || r == rows - 1) ? 0 : rng.integer(1, 2 * mean); break;  // first and last empty
      default: l = rng.integer(0, 2 * mean);
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

// --bad-input K replaces a valid description by a broken one, to show (and test) the checks
// that guard descriptions supplied from outside: the framework's conversion throws UsageError.
void apply_bad_input(std::int64_t bad, segments::Offsets offsets, std::int64_t n, const std::string& what,
                     const std::string& n_name) {
  if (bad == 1) {  // not monotone: swap two different neighbours
    std::size_t k = 0;
    for (std::size_t i = 1; i + 1 < offsets.size(); ++i)
      if (offsets[i] < offsets[i + 1] && (k == 0 || (i <= offsets.size() / 2))) k = i;
    if (k == 0) offsets = {0, n, 0, n};
    else std::swap(offsets[k], offsets[k + 1]);
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

// Host replay of the scans, in double: what each step of the kernels should leave in scratch.
struct HostPair {
  double v;
  int f;
};
HostPair join(const HostPair& a, const HostPair& b) { return {b.f ? b.v : a.v + b.v, a.f | b.f}; }

std::string cell(const std::string& s, std::size_t w) { return std::string(w > s.size() ? w - s.size() : 0, ' ') + s; }

// Rows of a step table: a label, then "v" and "f" lines aligned in columns.
struct Table {
  std::vector<std::pair<std::string, std::vector<HostPair>>> rows;
  std::vector<std::string> lines(std::size_t n) const {
    std::size_t w = std::to_string(n).size() + 1, label = 8;
    for (const auto& [name, row] : rows) {
      label = std::max(label, name.size() + 1);
      for (const auto& p : row) w = std::max(w, format_number(p.v).size() + 1);
    }
    std::vector<std::string> out;
    std::string head = cell("i", label + 2) + " ";
    for (std::size_t i = 0; i < n; ++i) head += cell(std::to_string(i), w);
    out.push_back(head);
    for (const auto& [name, row] : rows) {
      std::string v = name + std::string(label - name.size(), ' ') + " v ", f = std::string(label, ' ') + " f ";
      for (std::size_t i = 0; i < row.size(); ++i) {
        v += cell(format_number(row[i].v), w);
        f += cell(std::to_string(row[i].f), w);
      }
      out.push_back(v);
      out.push_back(f);
    }
    return out;
  }
};

std::vector<HostPair> host_pairs(const std::vector<double>& values, const std::vector<std::uint8_t>& flags) {
  std::vector<HostPair> p(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) p[i] = {values[i], flags[i]};
  return p;
}

Table hillis_steele_table(const std::vector<double>& values, const std::vector<std::uint8_t>& flags) {
  Table t;
  std::vector<HostPair> cur = host_pairs(values, flags);
  t.rows.push_back({"input", cur});
  for (std::size_t d = 1; d < cur.size(); d *= 2) {
    std::vector<HostPair> next = cur;
    for (std::size_t i = d; i < cur.size(); ++i) next[i] = join(cur[i - d], cur[i]);
    cur = next;
    t.rows.push_back({"d = " + std::to_string(d), cur});
  }
  return t;
}

Table blelloch_table(const std::vector<double>& values, const std::vector<std::uint8_t>& flags) {
  const std::size_t p = static_cast<std::size_t>(next_pow2(static_cast<int>(values.size())));
  std::vector<HostPair> a = host_pairs(values, flags);
  a.resize(p, HostPair{0, 0});
  Table t;
  t.rows.push_back({"leaves", a});
  for (std::size_t d = 1; d < p; d *= 2) {
    for (std::size_t right = 2 * d - 1; right < p; right += 2 * d) a[right] = join(a[right - d], a[right]);
    t.rows.push_back({"up d = " + std::to_string(d), a});
  }
  a[p - 1] = {0, 0};
  t.rows.push_back({"root := 0", a});
  for (std::size_t d = p / 2; d >= 1; d /= 2) {
    for (std::size_t right = 2 * d - 1; right < p; right += 2 * d) {
      const HostPair left = a[right - d];
      a[right - d] = a[right];
      a[right] = join(a[right], left);
    }
    t.rows.push_back({"down d = " + std::to_string(d), a});
  }
  return t;
}

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

void require_int_range(double abs_sum, const std::string& where) {
  if (abs_sum > static_cast<double>(std::numeric_limits<int>::max()))
    throw UsageError("integer sums of " + where + " could overflow int: use --int 0 or shorter segments");
}

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
Expected scan_oracle(const std::vector<double>& values, const segments::Offsets& offsets, bool exclusive, bool ints) {
  Expected e;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    double sum = 0, abs_sum = 0;
    std::size_t terms = 0;
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      const double v = values[static_cast<std::size_t>(i)];
      if (exclusive) e.add(sum, abs_sum, terms);
      sum += v;
      abs_sum += std::fabs(v);
      ++terms;
      if (!exclusive) e.add(sum, abs_sum, terms);
    }
    if (ints) require_int_range(abs_sum, "segment " + std::to_string(s));
  }
  return e;
}

Expected reduce_oracle(const std::vector<double>& products, const segments::Offsets& offsets, bool ints) {
  Expected e;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    double sum = 0, abs_sum = 0;
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      sum += products[static_cast<std::size_t>(i)];
      abs_sum += std::fabs(products[static_cast<std::size_t>(i)]);
    }
    if (ints) require_int_range(abs_sum, "segment " + std::to_string(s));
    e.add(sum, abs_sum, static_cast<std::size_t>(offsets[s + 1] - offsets[s]));
  }
  return e;
}

template <class T>
std::vector<T> random_values(Rng& rng, std::size_t n, double lo, double hi, std::int64_t ilo, std::int64_t ihi) {
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) x = static_cast<T>(rng.uniform(lo, hi));
    else x = static_cast<T>(rng.integer(ilo, ihi));
  }
  return v;
}

std::string segment_owner(const segments::Offsets& offsets, std::size_t s, const char* what) {
  return std::string(what) + " " + std::to_string(s) + " = [" + std::to_string(offsets[s]) + ", " +
         std::to_string(offsets[s + 1]) + ")";
}

// Totals of each segment read off an inclusive scan (0 for empty segments).
template <class T>
std::vector<T> totals_from_scan(const std::vector<T>& scan, const segments::Offsets& offsets) {
  std::vector<T> totals;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    totals.push_back(offsets[s] < offsets[s + 1] ? scan[static_cast<std::size_t>(offsets[s + 1] - 1)] : T(0));
  return totals;
}

template <class Space, class T>
RunReport run_scan(const Space& space, const RunRequest& req, Kind kind) {
  const bool ints = std::is_same_v<T, int>;
  const std::int64_t shape = req.params.get("shape");
  const std::int64_t mean = req.params.get("mean-length");
  const bool worked = one_team(kind) && !req.params.given("size") && !req.params.given("mean-length") &&
                      !req.params.given("shape");
  const std::int64_t n = worked ? static_cast<std::int64_t>(kWorkedIds.size()) : req.params.get("size");

  // Host-side validation and launch configuration first.
  const LaunchShape lshape = segscan_shape(space, req, kind);
  const int team_size = lshape.team_size;
  Launch launch{team_size, static_cast<int>(n)};
  const std::string pairs = " (value, flag) pairs";
  if (kind == Kind::simple || kind == Kind::exclusive) {
    check_scratch<Space>(hillis_steele_scratch_bytes<Space, T>(static_cast<int>(n)), 0,
                         "segscan --" + req.variant + " with N=" + std::to_string(n) + " (one team holds two buffers of N" +
                             pairs + ")");
  } else if (kind == Kind::work_efficient) {
    check_scratch<Space>(blelloch_scratch_bytes<Space, T>(static_cast<int>(n)), 0,
                         "segscan --work-efficient with N=" + std::to_string(n) + " (one team holds " +
                             std::to_string(next_pow2(static_cast<int>(n))) + pairs + ")");
  } else {
    launch.tile = lshape.tile;
    if (launch.tile < 2) throw UsageError("--tile must be at least 2 (the scan of the tiles' carries must shrink)");
    check_scratch<Space>(hillis_steele_scratch_bytes<Space, T>(launch.tile), 0,
                         "segscan --multi-team with a tile of " + std::to_string(launch.tile) + " elements");
  }

  // The segment description: given as ids (the worked example) or generated as offsets; the
  // framework converts and validates, and the kernels get head flags.
  Rng seg_rng(req.seed), val_rng(req.seed ^ 0x5E65CA17ull);
  segments::Offsets offsets = worked ? segments::offsets_from_ids(kWorkedIds) : generate_offsets(shape, seg_rng, n, mean);
  if (const std::int64_t bad = req.params.get("bad-input")) apply_bad_input(bad, offsets, n, "segment offsets", "N");
  const std::vector<std::uint8_t> flags = segments::flags_from_offsets(offsets, n);

  std::vector<T> values(static_cast<std::size_t>(n));
  if (worked) {
    for (std::int64_t i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = static_cast<T>(i);
  } else {
    values = random_values<T>(val_rng, static_cast<std::size_t>(n), -2.0, 3.0, -3, 7);
  }
  const std::vector<double> dvalues = as_double(values);
  const Expected expected = scan_oracle(dvalues, offsets, kind == Kind::exclusive, ints);

  auto d_values = to_device(space, "values", values);
  auto d_flags = to_device(space, "flags", flags);
  View<T*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "out"), static_cast<std::size_t>(n));
  poison(out);
  space.fence();
  View<const T*, Space> cv = d_values;
  View<const Flag*, Space> cf = d_flags;
  const bool ref = req.impl == Impl::reference;
  switch (kind) {
    case Kind::simple: (ref ? reference::inclusive_simple<Space, T> : exercise::inclusive_simple<Space, T>)(space, team_size, cv, cf, out); break;
    case Kind::exclusive: (ref ? reference::exclusive<Space, T> : exercise::exclusive<Space, T>)(space, team_size, cv, cf, out); break;
    case Kind::work_efficient: (ref ? reference::work_efficient<Space, T> : exercise::work_efficient<Space, T>)(space, team_size, cv, cf, out); break;
    default: (ref ? reference::multi_team<Space, T> : exercise::multi_team<Space, T>)(space, launch, cv, cf, out); break;
  }
  space.fence();
  const std::vector<T> got = to_host(out);

  RunReport report;
  const int teams = one_team(kind) ? 1 : static_cast<int>((n + launch.tile - 1) / launch.tile);
  report.config.set("size", n).set("segments", segments::count(offsets)).set("longest", segments::longest(offsets));
  if (!worked) report.config.set("mean_length", mean).set("shape", shape_name(shape));
  report.config.set("values", ints ? "int" : "float").set("team_size", team_size).set("vector_length", 1);
  if (!one_team(kind)) report.config.set("tile", launch.tile);
  if (req.vector_length > 1) report.notes.push_back("--vector-length applies to --vector-scan only: this kernel has no vector loops");
  report.config.set("teams", teams).set("worked_example", worked);

  // Step tables (host replay of the kernel's steps).
  const bool small = n <= 32;
  if (small && (kind == Kind::simple || (req.trace && kind == Kind::exclusive))) {
    report.notes.push_back("Hillis-Steele steps (replayed on the host; step d: element i takes (v, f)[i - d] (+) (v, f)[i]):");
    for (auto& l : hillis_steele_table(dvalues, flags).lines(static_cast<std::size_t>(n))) report.notes.push_back(l);
  }
  if (small && req.trace && kind == Kind::work_efficient) {
    report.notes.push_back("Blelloch steps (replayed on the host; leaves past N hold the identity (0, 0)):");
    for (auto& l : blelloch_table(dvalues, flags).lines(static_cast<std::size_t>(next_pow2(static_cast<int>(n)))))
      report.notes.push_back(l);
  }
  if (req.trace && !small) report.notes.push_back("(--trace prints step tables for N <= 32)");
  if (kind != Kind::exclusive && segments::count(offsets) <= 64) {
    const std::vector<T> totals = totals_from_scan(got, offsets);
    report.notes.push_back("segment totals: " + Json::array_of(totals).dump());
    report.extra.set("segment_totals", Json::array_of(totals));
  }

  check_output(report, got, expected, tile_owner(space_name<Space>(), static_cast<std::size_t>(launch.tile), team_size));
  if (req.keep_arrays) {
    report.inputs.set("values", Json::array_of(values)).set("flags", Json::array_of(flags));
    report.inputs.set("offsets", Json::array_of(offsets));
    if (worked) report.inputs.set("ids", Json::array_of(kWorkedIds));
    report.output = Json::array_of(got);
    report.expected = Json::array_of(expected.value);
  }
  return report;
}

// Who writes sums[s] in the merge-path kernel: the team whose items hold segment s's end.
OwnerFn merge_path_owner(const segments::Offsets& offsets, int tile_items, const char* what) {
  return [=](std::size_t s) {
    const std::int64_t item = static_cast<std::int64_t>(s) + offsets[s + 1];
    return segment_owner(offsets, s, what) + ", merge-path team " + std::to_string(item / tile_items);
  };
}

template <class Space, class T>
RunReport run_reduce(const Space& space, const RunRequest& req, Kind kind) {
  const bool ints = std::is_same_v<T, int>;
  const bool spmv_kind = kind == Kind::spmv;
  const std::int64_t shape = req.params.get("shape");
  const std::int64_t mean = req.params.get("mean-length");
  const std::int64_t size = req.params.get("size");
  const bool merge_path = kind != Kind::vector_scan && req.params.get("merge-path") != 0;

  const bool vector_kind = kind == Kind::vector_scan;
  const LaunchShape lshape = segscan_shape(space, req, kind);
  const int team_size = lshape.team_size;
  Launch launch{team_size, lshape.tile, lshape.vector_length};
  if (vector_kind) launch.carry_team = vector_scan_carry_team(space, req.team_size, lshape.vector_length, Purpose::check);
  MergePathPlan plan = default_merge_path_plan<Space>(team_size, spmv_kind);
  if (merge_path) {
    if (req.params.get("tile")) {
      plan.tile_items = launch.tile;
      plan.chunk = std::max(2, std::min(plan.chunk, launch.tile));
    }
    check_scratch<Space>(merge_path_scratch_bytes<Space, T>(plan), 0,
                         "segscan merge path with " + std::to_string(plan.tile_items) + " items per team");
    check_scratch<Space>(merge_path_carry_scratch_bytes<Space, T>(plan), 0, "segscan merge path carry scan");
  } else if (vector_kind) {
    check_scratch<Space>(vector_scan_scratch_bytes<Space, T>(launch.tile), 0,
                         "segscan --vector-scan with a tile of " + std::to_string(launch.tile) + " elements");
    check_scratch<Space>(2 * pair_buffer_bytes<Space, T>(launch.carry_team), 0, "segscan --vector-scan carries");
  } else {
    if (launch.tile < 2) throw UsageError("--tile must be at least 2 (the scan of the tiles' carries must shrink)");
    check_scratch<Space>(hillis_steele_scratch_bytes<Space, T>(launch.tile), 0,
                         "segscan --" + req.variant + " with a tile of " + std::to_string(launch.tile) + " elements");
  }

  Rng seg_rng(req.seed), val_rng(req.seed ^ 0x5E65CA17ull);
  const std::string what = spmv_kind ? "CSR row offsets" : "segment offsets";
  const std::string n_name = spmv_kind ? "nnz" : "N";
  const segments::Offsets offsets =
      spmv_kind ? generate_rows(shape, seg_rng, size, mean) : generate_offsets(shape, seg_rng, size, mean);
  const std::int64_t n = offsets.back();  // values, or nonzeros
  if (const std::int64_t bad = req.params.get("bad-input")) apply_bad_input(bad, offsets, n, what, n_name);
  segments::validate_offsets(offsets, n, what, n_name);
  const std::int64_t segs = segments::count(offsets);
  const std::vector<int> offsets32(offsets.begin(), offsets.end());

  std::vector<T> values, matrix_values, x;
  std::vector<int> columns;
  std::vector<double> terms;  // what each item adds: the value, or the product A(j) * x(col(j))
  if (spmv_kind) {
    const std::int64_t cols = size;
    columns.resize(static_cast<std::size_t>(n));
    for (auto& c : columns) c = static_cast<int>(seg_rng.integer(0, cols - 1));
    matrix_values = random_values<T>(val_rng, static_cast<std::size_t>(n), -1.0, 2.0, -3, 7);
    x = random_values<T>(val_rng, static_cast<std::size_t>(cols), -2.0, 3.0, -3, 7);
    terms.resize(static_cast<std::size_t>(n));
    for (std::size_t j = 0; j < terms.size(); ++j)
      terms[j] = static_cast<double>(matrix_values[j]) * static_cast<double>(x[static_cast<std::size_t>(columns[j])]);
  } else {
    values = random_values<T>(val_rng, static_cast<std::size_t>(n), -2.0, 3.0, -3, 7);
    terms = as_double(values);
  }
  const Expected expected = reduce_oracle(terms, offsets, ints);

  auto d_offsets = to_device(space, "offsets", offsets32);
  View<T*, Space> out(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "sums"), static_cast<std::size_t>(segs));
  poison(out);
  const bool ref = req.impl == Impl::reference;
  View<const int*, Space> co = d_offsets;
  RunReport report;
  if (spmv_kind) {
    auto d_columns = to_device(space, "columns", columns);
    auto d_matrix = to_device(space, "matrix_values", matrix_values);
    auto d_x = to_device(space, "x", x);
    space.fence();
    if (merge_path) {
      MergePathWorkspace<Space, T> ws(space, plan, segs, n);
      merge_path_spmv(space, plan, ws, co, View<const int*, Space>(d_columns), View<const T*, Space>(d_matrix),
                      View<const T*, Space>(d_x), out);
    } else {
      (ref ? reference::spmv<Space, T> : exercise::spmv<Space, T>)(space, launch, co, d_columns, d_matrix, d_x, out);
    }
    space.fence();
    if constexpr (std::is_same_v<T, float>) {
      if (have_kokkos_kernels()) {
        // The same product by KokkosSparse::spmv (SPMV_NATIVE), checked against the same oracle.
        View<T*, Space> y_kk(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "y_kokkos_kernels"), static_cast<std::size_t>(segs));
        poison(y_kk);
        {
          KokkosKernelsSpmv<Space, T> kk(space, static_cast<int>(segs), static_cast<int>(size), d_offsets, d_columns,
                                         d_matrix, d_x, y_kk);
          kk();
          space.fence();
        }
        RunReport kk_report;
        check_output(kk_report, to_host(y_kk), expected, nullptr);
        Json j = Json::object();
        j.set("algorithm", "SPMV_NATIVE").set("pass", kk_report.pass).set("mismatch_count", kk_report.mismatch_count);
        report.extra.set("kokkos_kernels", j);
        report.notes.push_back(std::string("KokkosSparse::spmv (SPMV_NATIVE) on the same matrix: ") +
                               (kk_report.pass ? "matches the oracle" : "DIFFERS from the oracle in " +
                                                                            std::to_string(kk_report.mismatch_count) + " rows"));
      }
    }
  } else {
    auto d_values = to_device(space, "values", values);
    space.fence();
    if (merge_path) {
      MergePathWorkspace<Space, T> ws(space, plan, segs, n);
      merge_path_reduce(space, plan, ws, View<const T*, Space>(d_values), co, out);
    } else if (vector_kind) {
      const auto tiles = static_cast<std::size_t>(lshape.league(n));
      View<SegPair<T>*, Space> tile_totals(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "tile_totals"), tiles);
      View<int*, Space> tile_open(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "tile_open"), tiles);
      (ref ? reference::vector_scan<Space, T> : exercise::vector_scan<Space, T>)(space, launch, d_values, co, out,
                                                                                  tile_totals, tile_open);
    } else {
      (ref ? reference::reduce<Space, T> : exercise::reduce<Space, T>)(space, launch, d_values, co, out);
    }
  }
  space.fence();
  const std::vector<T> got = to_host(out);

  if (spmv_kind) report.config.set("rows", segs).set("cols", size).set("nnz", n);
  else report.config.set("size", n).set("segments", segs);
  report.config.set("longest", segments::longest(offsets)).set("mean_length", mean).set("shape", shape_name(shape));
  report.config.set("values", ints ? "int" : "float").set("team_size", team_size);
  report.config.set("vector_length", vector_kind ? launch.vector_length : 1);
  if (vector_kind) report.config.set("carry_team", launch.carry_team);
  if (!vector_kind && req.vector_length > 1) report.notes.push_back("--vector-length applies to --vector-scan only: this kernel has no vector loops");
  if (merge_path) {
    report.config.set("kernel", "merge path").set("tile_items", plan.tile_items);
    report.config.set("teams", segs ? (segs + n + plan.tile_items - 1) / plan.tile_items : 0);
  } else {
    report.config.set("tile", launch.tile).set("teams", (n + launch.tile - 1) / launch.tile);
  }
  const char* seg_word = spmv_kind ? "row" : "segment";
  const int tile = launch.tile;
  const OwnerFn owner =
      merge_path ? merge_path_owner(offsets, plan.tile_items, seg_word)
      : vector_kind
          ? OwnerFn([=](std::size_t s) {  // the team whose tile holds the segment's end (tile 0 for ends at 0)
              const std::int64_t end = offsets[s + 1];
              return segment_owner(offsets, s, seg_word) + ", vector-scan team " +
                     std::to_string(end > 0 ? (end - 1) / tile : 0);
            })
          : OwnerFn([=](std::size_t s) { return segment_owner(offsets, s, seg_word); });
  check_output(report, got, expected, owner);
  if (req.keep_arrays) {
    if (spmv_kind) {
      report.inputs.set("offsets", Json::array_of(offsets)).set("columns", Json::array_of(columns));
      report.inputs.set("matrix_values", Json::array_of(matrix_values)).set("x", Json::array_of(x));
    } else {
      report.inputs.set("values", Json::array_of(values)).set("offsets", Json::array_of(offsets));
    }
    report.output = Json::array_of(got);
    report.expected = Json::array_of(expected.value);
  }
  return report;
}

template <class Space>
RunReport run_on(const Space& space, const RunRequest& req) {
  const Kind kind = kind_of(req.variant);
  const bool ints = req.params.get("int") != 0;
  if (is_scan(kind)) return ints ? run_scan<Space, int>(space, req, kind) : run_scan<Space, float>(space, req, kind);
  return ints ? run_reduce<Space, int>(space, req, kind) : run_reduce<Space, float>(space, req, kind);
}

PuzzleSpec make_spec() {
  const OptionSpec mean{"mean-length", "L: random segment lengths 0..2L (shape 0)", 32, 1, kMaxSize};
  const OptionSpec ints{"int", "1: int values (exact); 0: float values (a tolerance)", 0, 0, 1};
  const OptionSpec shape{"shape",
                         "segments: 0 random lengths 0..2L, 1 heavy tail, 2 all of length 1, 3 one segment, "
                         "4 empty segments between the others",
                         0, 0, 4};
  const OptionSpec bad{"bad-input",
                       "replace the segments by a broken description to see the checks: 1 offsets not monotone, "
                       "2 an offset past N, 3 segment ids decreasing",
                       0, 0, 3};
  const OptionSpec tile{"tile", "elements per team (0: 1024), or merge items per team with --merge-path 1", 0, 0, 1 << 13};
  const OptionSpec vtile{"tile", "elements per team (0: the launch shape's, 4096)", 0, 0,
                         1 << 13};
  const OptionSpec merge{"merge-path", "1: run the framework's merge-path kernel (the benchmark's) instead of yours",
                         0, 0, 1};
  auto size = [](std::int64_t fallback, std::int64_t max, const char* help) {
    return OptionSpec{"size", help, fallback, 1, max};
  };
  auto mean_of = [&](std::int64_t fallback) {
    OptionSpec o = mean;
    o.fallback = fallback;
    return o;
  };
  PuzzleSpec spec;
  spec.name = "segscan";
  spec.summary = "segmented scans with head flags in team scratch, carries across teams, segmented reduce and SpMV";
  spec.doc = "puzzles/segscan.md";
  spec.variants = {
      {"multi-team", "inclusive segmented scan of any N over many teams: tile scans, scan of tile carries, carry-in",
       {size((1 << 20) + 3, kMaxSize, "N (random values and segments)"), mean, ints, shape, bad, tile}},
      {"simple", "ids {0,0,0,1,1,2,2,2,2,3}, values 0..9, one team: Hillis-Steele steps 1, 2, 4, 8 in scratch",
       {size(10, 1 << 16, "N (random inputs when given)"), mean_of(3), ints, shape, bad}},
      {"exclusive", "the worked example, exclusive: every segment restarts at 0",
       {size(10, 1 << 16, "N (random inputs when given)"), mean_of(3), ints, shape, bad}},
      {"work-efficient", "the worked example by a Blelloch up-sweep and down-sweep in scratch (same results)",
       {size(10, 1 << 16, "N (random inputs when given)"), mean_of(3), ints, shape, bad}},
      {"reduce", "segment totals from CSR offsets (empty segments give 0): a scan read at segment ends",
       {size((1 << 20) + 3, kMaxSize, "N values (random values and segments)"), mean_of(8), ints, shape, bad, tile,
        merge}},
      {"spmv", "y = A x for a random CSR matrix: the segmented reduction of the products A(j) * x(col(j))",
       {size(100003, kMaxSize, "rows = columns of A"), mean_of(8), ints, shape, bad, tile, merge}},
      {"vector-scan",
       "segment totals with Kokkos' vector-level parallel_scan and the segmented operator as a reducer: "
       "rows on lanes, rows and tiles stitched by carries",
       {size((1 << 20) + 3, kMaxSize, "N values (random values and segments)"), mean, ints, shape, bad, vtile}},
  };
  // The learner loop: the function each variant exercises (`combine`, which every variant uses,
  // comes with all of them), the cases it must pass besides its defaults, and the course order.
  const std::vector<std::string> one_team = {"--size 1", "--size 100 --shape 4", "--size 37 --shape 3 --int 1 --team-size 1"};
  set_exercise(spec, "simple", "hillis_steele", one_team);
  set_exercise(spec, "exclusive", "exclusive", one_team);
  set_exercise(spec, "work-efficient", "work_efficient", one_team);
  set_exercise(spec, "multi-team", "multi_team",
               {"--size 1", "--size 5000 --tile 64 --shape 1", "--size 3000 --shape 3 --int 1 --tile 128"});
  set_exercise(spec, "reduce", "reduce", {"--size 1", "--size 5000 --shape 4 --tile 64", "--size 3001 --shape 2 --int 1"});
  set_exercise(spec, "spmv", "spmv", {"--size 1", "--size 300 --tile 64", "--size 1000 --shape 4 --team-size 1"});
  // --vector-scan: segments longer than a row (128), a tile and a team; empty ones; one segment
  // of everything; teams of one member; several vector lengths; at least 3 teams everywhere.
  set_exercise(spec, "vector-scan", "vector_scan_tiles",
               {"--size 1", "--size 1000 --tile 300 --shape 4", "--size 3000 --shape 3 --int 1 --tile 256",
                "--size 5000 --tile 512 --mean-length 700 --team-size 1", "--size 4099 --tile 1024 --vector-length 4",
                "--size 2000 --tile 200 --shape 2 --int 1 --vector-length 2", "--size 20000 --shape 1 --mean-length 300 --tile 1000"});
  spec.course_position = 5;
  spec.learning_order = {"simple", "exclusive", "work-efficient", "multi-team", "reduce", "vector-scan", "spmv"};
  set_trace_configs(spec);  // trace_config.cpp
  spec.run = [](const RunRequest& req) {
    return with_space(req.space, [&](const auto& space) { return run_on(space, req); });
  };
  spec.bytes_moved = [](const Params& p) {
    // Values, offsets and outputs for a segmented reduction with about N / L segments.
    const double n = static_cast<double>(p.get("size"));
    const double segs = n / static_cast<double>(p.get("mean-length"));
    return 4.0 * (n + 2.0 * segs + 1.0);
  };
  // `kpuzzles run`'s peak, measured at 2^21 and 2^22: per value (or nonzero) and per segment (or
  // row): scans 42 + 12, reductions 19 + 55, SpMV 34 per nonzero + 38 per row.
  spec.bytes_needed = [](const std::string& variant, const Params& p) {
    const double size = static_cast<double>(p.get("size")), mean = static_cast<double>(p.get("mean-length"));
    const std::int64_t shape = p.get("shape");
    if (variant == "spmv") return 34.0 * std::min(size * mean, static_cast<double>(kMaxSize)) + 38.0 * size;
    const double segs = shape == 2 ? size : shape == 3 ? 1.0 : std::min(size, (shape == 4 ? 2.0 : 1.0) * size / mean);
    return is_scan(kind_of(variant)) ? 42.0 * size + 12.0 * segs : 19.0 * size + 55.0 * segs;
  };
  return spec;
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::segscan
