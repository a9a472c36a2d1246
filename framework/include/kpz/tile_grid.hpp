#pragma once
// A launch helper for kernels over a 2D grid of tiles (a transpose, a stencil, a matrix product),
// so that a reference or a skeleton holds only the team's body: the lesson.
#include <cstddef>

#include "kpz/launch_shape.hpp"
#include "kpz/types.hpp"

namespace kpz {

// One team of launch.team_size threads x launch.vector_length lanes per tile x tile block of a
// rows x cols matrix (CUDA: a block per tile, blockIdx flattened), with scratch_bytes of level-0
// scratch each: body(team, r0, c0) handles rows [r0, r0 + tile) and columns [c0, c0 + tile), cut
// short at the matrix's edges (the body computes min(tile, rows - r0) itself).
template <class Space, class Body>
void tile_grid_launch(const Space& space, const LaunchShape& launch, const char* name, int rows, int cols,
                      std::size_t scratch_bytes, Body body) {
  const int tile = launch.tile;
  const int tile_cols = (cols + tile - 1) / tile;
  const int teams = (rows + tile - 1) / tile * tile_cols;
  const auto policy = TeamPolicy<Space>(space, teams, launch.team_size, launch.vector_length)
                          .set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
  Kokkos::parallel_for(
      name, policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int t = team.league_rank();
        body(team, t / tile_cols * tile, t % tile_cols * tile);
      });
}

}  // namespace kpz
