#pragma once
// Launch helpers for kernels over tiles: a 1D array cut into tiles (a scan, an exchange, a
// convolution) or a 2D grid of tiles (a transpose, a stencil, a matrix product), so that a
// reference or a skeleton holds only the team's body: the lesson.
#include <cstddef>
#include <string>

#include "kpz/launch_shape.hpp"
#include "kpz/types.hpp"

namespace kpz {

// A team's tile of a 1D array of n elements, as tile_launch hands it to the body.
struct Tile {
  int index;  // which tile: the team's league rank
  int first;  // its first element
  int count;  // its elements inside the array: size, or fewer in the last tile
  int size;   // elements per tile (launch.tile)
};

// One team of launch.team_size threads x launch.vector_length lanes per tile of launch.tile
// consecutive elements of `elements` (CUDA: a block per tile), with scratch_bytes of level-0 scratch
// each: body(team, tile) handles elements [tile.first, tile.first + tile.count). Shape: any
// launch description with team_size, vector_length and tile (LaunchShape, or a puzzle's own).
// A scratch request over the backend's limit is refused on the host (UsageError, exit code 2):
// Kokkos would hand the team a null scratch pointer.
template <class Space, class Shape, class Body>
void tile_launch(const Space& space, const Shape& launch, const char* name, std::size_t elements,
                 std::size_t scratch_bytes, Body body) {
  const int n = static_cast<int>(elements);
  const int size = launch.tile;
  if (scratch_bytes > scratch_size_max<Space>(0))  // the message only when it is needed: launches are timed
    check_scratch<Space>(scratch_bytes, 0, std::string(name) + " with tiles of " + std::to_string(size) + " elements",
                         ": use a smaller tile");
  const auto policy = TeamPolicy<Space>(space, (n + size - 1) / size, launch.team_size, launch.vector_length)
                          .set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
  Kokkos::parallel_for(
      name, policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int index = team.league_rank();
        const int first = index * size;
        body(team, Tile{index, first, Kokkos::min(size, n - first), size});
      });
}

// One team of launch.team_size threads x launch.vector_length lanes per tile x tile block of a
// rows x cols matrix (CUDA: a block per tile, blockIdx flattened), with scratch_bytes of level-0
// scratch each: body(team, r0, c0) handles rows [r0, r0 + tile) and columns [c0, c0 + tile), cut
// short at the matrix's edges (the body computes min(tile, rows - r0) itself).
template <class Space, class Body>
void tile_grid_launch(const Space& space, const LaunchShape& launch, const char* name, int rows, int cols,
                      std::size_t scratch_bytes, Body body) {
  const int tile = launch.tile;
  if (scratch_bytes > scratch_size_max<Space>(0))
    check_scratch<Space>(scratch_bytes, 0,
                         std::string(name) + " with tiles of " + std::to_string(tile) + " x " + std::to_string(tile),
                         ": use a smaller tile");
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
