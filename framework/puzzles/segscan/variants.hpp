#pragma once
// segscan's variants as its runner sees them (spec.cpp, run_scans.cpp, run_reductions.cpp): which
// kernel a variant runs, and its launch shape.
#include <cstdint>
#include <string>

#include "kpz/launch_shape.hpp"
#include "kpz/registry.hpp"
#include "segscan/segscan.hpp"

namespace kpz::segscan {

inline constexpr std::int64_t kMaxSize = std::int64_t{1} << 28;  // values (or nonzeros) per run

// The variants (VariantSpec::id), the one-team scans first: run_scans.cpp indexes their kernels
// by the id.
enum class Kind { simple, exclusive, work_efficient, multi_team, reduce, spmv, vector_scan };
inline bool one_team(Kind k) {
  return k == Kind::simple || k == Kind::exclusive || k == Kind::work_efficient;
}
inline bool is_scan(Kind k) {
  return k != Kind::reduce && k != Kind::spmv && k != Kind::vector_scan;
}

// Launch shapes (kpz/launch_shape.hpp). The scratch-and-barrier kernels keep their shapes:
// 256 members on a GPU, as many as the backend gives when checking on a CPU, vector length 1
// (they have no vector loops). --vector-scan: 8 members of 32 lanes on a GPU (a warp per row).
inline KernelNeeds segscan_needs(Kind kind) {
  KernelNeeds needs;
  needs.gpu_team = 256;
  needs.check_team = 64;
  needs.gpu_tile = needs.host_tile = 1024;
  if (kind == Kind::vector_scan) {
    needs.gpu_team = 8;
    needs.gpu_vector = 32;
    needs.gpu_tile = 16384;  // default_vector_scan_tile()
    needs.host_tile = 4096;
  }
  return needs;
}

template <class Space>
LaunchShape segscan_shape(const Space& space, const RunRequest& req, Kind kind) {
  const bool lanes = kind == Kind::vector_scan;
  LaunchShape shape = launch_shape(space, segscan_needs(kind),
                                   ShapeRequest{req.team_size, lanes ? req.vector_length : 0}, Purpose::check);
  if (!one_team(kind) && req.params.get("tile")) shape.tile = static_cast<int>(req.params.get("tile"));
  return shape;
}

// Calls run(space, value) on req.space, with value an int (--int 1) or a float: its type is the
// type of the values the run scans or reduces.
template <class Run>
RunReport with_space_and_values(const RunRequest& req, const Run& run) {
  return with_space(req.space, [&](const auto& space) {
    return req.params.get("int") != 0 ? run(space, int{}) : run(space, float{});
  });
}

// One run of a scan variant (simple, exclusive, work-efficient, multi-team: run_scans.cpp) or
// of a reduction (reduce, spmv, vector-scan: run_reductions.cpp) on req.space.
RunReport run_scans(const RunRequest& req, Kind kind);
RunReport run_reductions(const RunRequest& req, Kind kind);

}  // namespace kpz::segscan
