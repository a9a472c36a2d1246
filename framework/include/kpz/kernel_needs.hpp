#pragma once
// What a team kernel asks of its launch (KernelNeeds) and the launch the framework answers with
// (LaunchShape): plain data, so that a variant can declare its needs (VariantSpec::needs) and a
// request carry the answer (RunRequest::launch). The answer is computed in kpz/launch_shape.hpp.
#include "kpz/json.hpp"

namespace kpz {

// What one kernel asks of its launch. Counts are "at most": the backend may give fewer.
struct KernelNeeds {
  // The kernel splits a member's work over vector lanes (ThreadVectorRange, TeamVectorRange).
  // Without such loops every lane of a member runs the member's whole body: a race on what the
  // body writes, so launch_shape refuses a vector length above 1 for it.
  bool vector_loops = false;
  int gpu_team = 256;   // members per team on a GPU (a block of gpu_team * gpu_vector threads)
  int gpu_vector = 1;   // vector lanes per member on a GPU (a power of two <= 32; > 1: vector_loops)
  int host_vector = 1;  // vector length on a CPU: the logical lanes of ThreadVectorRange loops
                        // that use team.vector_length(); Kokkos runs them as one SIMD loop
  int check_team = 64;  // members per team when checking on a CPU (bounded by the thread count)
  bool power_of_two_team = false;
  int gpu_tile = 0;  // elements per team, where the kernel has tiles (0: no tile)
  int host_tile = 0;
  // Loads in flight per thread, where the kernel is compiled for several (with_in_flight): how
  // many independent global loads one thread issues before it stores the first. A GPU hides its
  // memory latency with them; a CPU thread runs its lanes as one loop that the compiler
  // vectorises, and several guarded rows in that loop defeat the vectoriser, so a CPU wants one.
  int gpu_in_flight = 1;
  int host_in_flight = 1;
};

struct LaunchShape {
  int team_size = 1;
  int vector_length = 1;
  int tile = 0;       // 0 where the kernel has no tile
  int in_flight = 1;  // loads in flight per thread (KernelNeeds' gpu_in_flight or host_in_flight)

  // Teams needed to cover n elements with this shape's tile.
  long long league(long long n) const { return tile > 0 ? (n + tile - 1) / tile : 1; }
  Json to_json() const {
    Json j = Json::object();
    j.set("team_size", team_size).set("vector_length", vector_length);
    if (tile > 0) j.set("tile", tile);
    if (in_flight > 1) j.set("in_flight", in_flight);
    return j;
  }
};

}  // namespace kpz
