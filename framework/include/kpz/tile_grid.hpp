#pragma once
// Launch helpers for kernels over tiles: a 1D array cut into tiles (a scan, an exchange, a
// convolution) or a 2D grid of tiles (a transpose, a stencil, a matrix product), so that a
// reference or a skeleton holds only the team's body: the lesson.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

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

namespace detail {
// The level-0 scratch a tile launch asks for, refused on the host when the backend cannot give it
// (Kokkos would hand the team a null scratch pointer): `scratch` is the bytes, or bytes_of(tile),
// which lets the refusal name the largest tile that fits. `what` is called only on a refusal.
template <class Space, class Scratch, class What>
std::size_t tile_scratch_request(const Scratch& scratch, int tile, const char* name, const What& what) {
  if (tile < 1)  // a variant's declared needs give a tile (RunRequest::launch): a run outside the registry does not
    throw std::logic_error(std::string(name) + ": a tile launch needs a tile of at least 1 element, not " +
                           std::to_string(tile));
  if constexpr (std::is_invocable_r_v<std::size_t, const Scratch&, int>) {
    return check_scratch_option<Space>(what, "a tile", tile, 0, scratch);
  } else {
    check_scratch<Space>(scratch, 0, what, ": use a smaller tile");
    return scratch;
  }
}

// The launches themselves, in functions of their own: nvcc allows no type local to a caller
// (bytes_of may be a lambda) among the template arguments of a function holding a device lambda.
template <class Space, class Body>
void launch_tiles(const TeamPolicy<Space>& policy, const char* name, int n, int size, Body body) {
  Kokkos::parallel_for(
      name, policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int index = team.league_rank();
        const int first = index * size;
        body(team, Tile{index, first, Kokkos::min(size, n - first), size});
      });
}

template <class Space, class Body>
void launch_tile_grid(const TeamPolicy<Space>& policy, const char* name, int tile, int tile_cols, Body body) {
  Kokkos::parallel_for(
      name, policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int t = team.league_rank();
        body(team, t / tile_cols * tile, t % tile_cols * tile);
      });
}
}  // namespace detail

// One team of launch.team_size threads x launch.vector_length lanes per tile of launch.tile
// consecutive elements of `elements` (CUDA: a block per tile), with scratch_bytes of level-0 scratch
// each (a number, or a function of the tile: then a refusal names the largest tile that fits):
// body(team, tile) handles elements [tile.first, tile.first + tile.count). Shape: any launch
// description with team_size, vector_length and tile (LaunchShape, or a puzzle's own). A scratch
// request over the backend's limit is refused on the host (UsageError, exit code 2).
template <class Space, class Shape, class Scratch, class Body>
void tile_launch(const Space& space, const Shape& launch, const char* name, std::size_t elements,
                 const Scratch& scratch, Body body) {
  const int n = static_cast<int>(elements);
  const int size = launch.tile;
  const std::size_t scratch_bytes = detail::tile_scratch_request<Space>(
      scratch, size, name, [&] { return std::string(name) + " with tiles of " + std::to_string(size) + " elements"; });
  detail::launch_tiles(TeamPolicy<Space>(space, (n + size - 1) / size, launch.team_size, launch.vector_length)
                           .set_scratch_size(0, Kokkos::PerTeam(scratch_bytes)),
                       name, n, size, body);
}

// One team of launch.team_size threads x launch.vector_length lanes per tile x tile block of a
// rows x cols matrix (CUDA: a block per tile, blockIdx flattened), with scratch_bytes of level-0
// scratch each (as tile_launch's): body(team, r0, c0) handles rows [r0, r0 + tile) and columns
// [c0, c0 + tile), cut short at the matrix's edges (the body computes min(tile, rows - r0) itself).
template <class Space, class Scratch, class Body>
void tile_grid_launch(const Space& space, const LaunchShape& launch, const char* name, int rows, int cols,
                      const Scratch& scratch, Body body) {
  const int tile = launch.tile;
  const std::size_t scratch_bytes = detail::tile_scratch_request<Space>(scratch, tile, name, [&] {
    return std::string(name) + " with tiles of " + std::to_string(tile) + " x " + std::to_string(tile);
  });
  const int tile_cols = (cols + tile - 1) / tile;
  const int teams = (rows + tile - 1) / tile * tile_cols;
  detail::launch_tile_grid(TeamPolicy<Space>(space, teams, launch.team_size, launch.vector_length)
                               .set_scratch_size(0, Kokkos::PerTeam(scratch_bytes)),
                           name, tile, tile_cols, body);
}

}  // namespace kpz
