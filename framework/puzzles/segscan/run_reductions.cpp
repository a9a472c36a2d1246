// segscan's segmented reductions (reduce, vector-scan) and SpMV: inputs, the learner's kernel or
// the framework's merge path, Kokkos Kernels' spmv beside it, check.
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "kpz/check.hpp"
#include "kpz/random.hpp"
#include "kpz/transfer.hpp"
#include "segscan/fast/kernels.hpp"
#include "segscan/segscan.hpp"
#include "segscan/spec.hpp"

namespace kpz::segscan {

namespace {

template <class Space, class T>
RunReport run_reduce(const Space& space, const RunRequest& req, Kind kind, T /*values of this type*/) {
  const bool ints = std::is_same_v<T, int>;
  const bool spmv_kind = kind == Kind::spmv;
  const std::int64_t shape = req.params.get("shape");
  const std::int64_t mean = req.params.get("mean-length");
  const std::int64_t size = req.params.get("size");
  const bool merge_path = kind != Kind::vector_scan && req.params.get("merge-path") != 0;

  const bool vector_kind = kind == Kind::vector_scan;
  const LaunchShape lshape = segscan_shape(space, req, kind);
  const int team_size = lshape.team_size;
  Launch launch{.team_size = team_size, .tile = lshape.tile, .vector_length = lshape.vector_length};
  // --vector-scan's row: the option, else the host's choice for the data (vector_scan_row); the
  // scratch check before the data exist takes the shorter of the two automatic rows (more rows).
  const int row_option = vector_kind ? static_cast<int>(req.params.get("row")) : 0;
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
    check_scratch_option<Space>("segscan --vector-scan with a tile of " + std::to_string(launch.tile) + " elements",
                                "--tile", launch.tile, 0, [&](int x) {
                                  return vector_scan_scratch_bytes<Space, T>(
                                      x, launch.vector_length, row_option ? row_option : kShortSegmentRow);
                                });
  } else {
    if (launch.tile < 2) throw UsageError("--tile must be at least 2 (the scan of the tiles' carries must shrink)");
    check_scratch_option<Space>(
        "segscan --" + req.variant_name() + " with a tile of " + std::to_string(launch.tile) + " elements", "--tile",
        launch.tile, 0, [&](int x) { return hillis_steele_scratch_bytes<Space, T>(x); });
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
  if (vector_kind) launch.row = row_option ? row_option : vector_scan_row(n, segs);
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
  View<T*, Space> out = poisoned_output<T>(space, "sums", static_cast<std::size_t>(segs));
  const auto kern = kernels<Space, T>(req.impl);
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
      kern.spmv(space, launch, co, d_columns, d_matrix, d_x, out);
    }
    space.fence();
    if constexpr (std::is_same_v<T, float>) {
      if (have_kokkos_kernels()) {
        // The same product by KokkosSparse::spmv (SPMV_NATIVE), checked against the same oracle.
        View<T*, Space> y_kk = poisoned_output<T>(space, "y_kokkos_kernels", static_cast<std::size_t>(segs));
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
        report.notes.push_back(
            std::string("KokkosSparse::spmv (SPMV_NATIVE) on the same matrix: ") +
            (kk_report.pass ? "matches the oracle"
                            : "DIFFERS from the oracle in " + std::to_string(kk_report.mismatch_count) + " rows"));
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
      View<SegPair<T>*, Space> tile_totals(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "tile_totals"),
                                           tiles);
      View<int*, Space> tile_open(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "tile_open"), tiles);
      kern.vector_scan(space, launch, d_values, co, out, tile_totals, tile_open);
    } else {
      kern.reduce(space, launch, d_values, co, out);
    }
  }
  space.fence();
  const std::vector<T> got = to_host(out);

  if (spmv_kind)
    report.config.set("rows", segs).set("cols", size).set("nnz", n);
  else
    report.config.set("size", n).set("segments", segs);
  report.config.set("longest", segments::longest(offsets)).set("mean_length", mean).set("shape", shape_name(shape));
  report.config.set("values", ints ? "int" : "float").set("team_size", team_size);
  report.config.set("vector_length", vector_kind ? launch.vector_length : 1);
  // The row the launch took for these data (both automatic rows are tested: vector_scan_test).
  if (vector_kind) report.config.set("row", launch.row);
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
  if (spmv_kind)
    keep_arrays(report, req, got, expected.value, "offsets", offsets, "columns", columns, "matrix_values",
                matrix_values, "x", x);
  else
    keep_arrays(report, req, got, expected.value, "values", values, "offsets", offsets);
  return report;
}

}  // namespace

RunReport run_reductions(const RunRequest& req, Kind kind) {
  return with_space_and_values(req, [&](const auto& space, auto value) { return run_reduce(space, req, kind, value); });
}

}  // namespace kpz::segscan
