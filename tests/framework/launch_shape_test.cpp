// The framework's launch shapes (kpz/launch_shape.hpp): one place decides team size, vector
// length and tile per backend and purpose; user overrides are checked against the backend.
#include <gtest/gtest.h>

#include "kpz/launch_shape.hpp"
#include "kpz/tile_grid.hpp"

namespace {

using kpz::KernelNeeds;
using kpz::LaunchShape;
using kpz::Purpose;
using kpz::ShapeRequest;

TEST(LaunchShape, CpuTimesWithKokkosRecommendationAndChecksWithLargeTeams) {
  for (const auto& name : kpz::enabled_space_names()) {
    kpz::with_space(name, [&](const auto& space) {
      using Space = std::decay_t<decltype(space)>;
      KernelNeeds needs;
      needs.vector_loops = true;
      needs.gpu_team = 128, needs.gpu_vector = 8, needs.host_vector = 16, needs.check_team = 6;
      needs.gpu_tile = 2048, needs.host_tile = 8192;
      const LaunchShape check = kpz::launch_shape(space, needs, ShapeRequest{}, Purpose::check);
      const LaunchShape speed = kpz::launch_shape(space, needs, ShapeRequest{}, Purpose::speed);
      if constexpr (kpz::is_gpu_v<Space>) {
        EXPECT_EQ(check.team_size, 128);
        EXPECT_EQ(check.vector_length, 8);
        EXPECT_EQ(check.tile, 2048);
        EXPECT_EQ(speed.team_size, check.team_size) << "a GPU checks and times with one shape";
      } else {
        const int max = kpz::team_size_max(space, speed.vector_length);
        EXPECT_EQ(speed.team_size, kpz::team_size_recommended(space, speed.vector_length)) << name;
        EXPECT_EQ(check.team_size, std::min(6, max)) << name;
        EXPECT_EQ(speed.vector_length, 16);
        EXPECT_EQ(speed.tile, 8192);
      }
      EXPECT_EQ(speed.league(1), 1);
      EXPECT_EQ(speed.league(speed.tile + 1), 2);
      return 0;
    });
  }
}

TEST(LaunchShape, OverridesAreHonouredAndCheckedAgainstTheBackend) {
  for (const auto& name : kpz::enabled_space_names()) {
    kpz::with_space(name, [&](const auto& space) {
      using Space = std::decay_t<decltype(space)>;
      const KernelNeeds needs{.vector_loops = true};
      const int vmax = kpz::vector_length_max<Space>();
      const LaunchShape one = kpz::launch_shape(space, needs, ShapeRequest{1, 2}, Purpose::speed);
      EXPECT_EQ(one.team_size, 1);
      EXPECT_EQ(one.vector_length, 2);
      EXPECT_THROW(kpz::launch_shape(space, needs, ShapeRequest{0, 3}, Purpose::check), kpz::UsageError);
      EXPECT_THROW(kpz::launch_shape(space, needs, ShapeRequest{0, 2 * vmax}, Purpose::check), kpz::UsageError);
      const int tmax = kpz::team_size_max(space, 1);
      EXPECT_THROW(kpz::launch_shape(space, needs, ShapeRequest{tmax + 1, 0}, Purpose::check), kpz::UsageError);
      KernelNeeds pow2;
      pow2.power_of_two_team = true, pow2.check_team = 7, pow2.gpu_team = 96;
      const LaunchShape p = kpz::launch_shape(space, pow2, ShapeRequest{}, Purpose::check);
      EXPECT_EQ(p.team_size & (p.team_size - 1), 0) << p.team_size;
      if (tmax >= 3) EXPECT_THROW(kpz::launch_shape(space, pow2, ShapeRequest{3, 0}, Purpose::check), kpz::UsageError);
      return 0;
    });
  }
}

TEST(LaunchShape, WantedVectorLengthIsClampedToAPowerOfTwoTheBackendAllows) {
  kpz::with_space(kpz::default_space_name(), [](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    KernelNeeds needs;
    needs.vector_loops = true;
    needs.gpu_vector = needs.host_vector = 1 << 20;
    const LaunchShape s = kpz::launch_shape(space, needs, ShapeRequest{}, Purpose::speed);
    EXPECT_EQ(s.vector_length, kpz::vector_length_max<Space>());
    needs.gpu_vector = needs.host_vector = 24;
    EXPECT_EQ(kpz::launch_shape(space, needs, ShapeRequest{}, Purpose::speed).vector_length, 16);
    return 0;
  });
}

// A kernel without vector loops runs its body on every lane of a member: a vector length above 1
// is refused for it (one lane is allowed, and so is the framework's default), and a kernel that
// asks for lanes without declaring vector loops is a programming error.
TEST(LaunchShape, KernelsWithoutVectorLoopsRefuseVectorLanes) {
  for (const auto& name : kpz::enabled_space_names()) {
    kpz::with_space(name, [&](const auto& space) {
      const KernelNeeds scalar;
      EXPECT_EQ(kpz::launch_shape(space, scalar, ShapeRequest{}, Purpose::check).vector_length, 1) << name;
      EXPECT_EQ(kpz::launch_shape(space, scalar, ShapeRequest{0, 1}, Purpose::check).vector_length, 1) << name;
      try {
        (void)kpz::launch_shape(space, scalar, ShapeRequest{0, 2}, Purpose::speed);
        ADD_FAILURE() << name << ": --vector-length 2 was accepted for a kernel without vector loops";
      } catch (const kpz::ShapeError& e) {
        EXPECT_NE(std::string(e.what()).find("--vector-length 2 is not allowed for this kernel"), std::string::npos)
            << e.what();
      }
      EXPECT_THROW(kpz::launch_shape(space, KernelNeeds{.gpu_vector = 4}, ShapeRequest{}, Purpose::check),
                   std::logic_error);
      EXPECT_THROW(kpz::launch_shape(space, KernelNeeds{.host_vector = 4}, ShapeRequest{}, Purpose::check),
                   std::logic_error);
      return 0;
    });
  }
}

// A check runs the GPU's loads in flight on every backend (a laptop judges the guards a GPU
// runs); a CPU times with its own count; with_in_flight hands the count to the kernel as a
// compile-time constant and refuses one it has no version for.
TEST(LaunchShape, ChecksRunTheGpuLoadsInFlightEverywhere) {
  for (const auto& name : kpz::enabled_space_names()) {
    kpz::with_space(name, [&](const auto& space) {
      using Space = std::decay_t<decltype(space)>;
      const KernelNeeds needs{.gpu_in_flight = 8, .host_in_flight = 1};
      const LaunchShape check = kpz::launch_shape(space, needs, ShapeRequest{}, Purpose::check);
      const LaunchShape speed = kpz::launch_shape(space, needs, ShapeRequest{}, Purpose::speed);
      EXPECT_EQ(check.in_flight, 8) << name;
      EXPECT_EQ(speed.in_flight, kpz::is_gpu_v<Space> ? 8 : 1) << name;
      EXPECT_EQ(check.to_json()["in_flight"].as_int(), 8);
      return 0;
    });
  }
  EXPECT_EQ(LaunchShape{}.to_json().find("in_flight"), nullptr) << "one load in flight is not named";
  for (const int count : {1, 4, 8}) {
    int seen = 0;
    kpz::with_in_flight(count, [&](auto c) { seen = decltype(c)::value; });
    EXPECT_EQ(seen, count);
  }
  EXPECT_THROW(kpz::with_in_flight(3, [](auto) {}), kpz::ShapeError);
}

TEST(LaunchShape, JsonNamesTheShape) {
  const LaunchShape s{4, 8, 512};
  const kpz::Json j = s.to_json();
  EXPECT_EQ(j["team_size"].as_int(), 4);
  EXPECT_EQ(j["vector_length"].as_int(), 8);
  EXPECT_EQ(j["tile"].as_int(), 512);
  EXPECT_EQ(LaunchShape{}.to_json().find("tile"), nullptr);
}

// tile_launch validates its scratch request on the host: over the backend's limit it refuses
// (exit code 2 in the CLI) before any team runs, naming the kernel and the tile (and, given the
// scratch as a function of the tile, the largest tile that fits); within it, every tile runs. (A function template: nvcc allows no device lambda inside a generic lambda.)
template <class Space>
void expect_scratch_refused_over_the_limit(const Space& space, const std::string& name) {
  const LaunchShape launch{.team_size = 1, .tile = 8};
  const kpz::View<int*, Space> seen("seen", 20);
  const auto mark = KOKKOS_LAMBDA(const kpz::TeamMember<Space>& team, const kpz::Tile& tile) {
    Kokkos::single(Kokkos::PerTeam(team), [&] { seen(tile.first) = tile.count; });
  };
  const std::size_t limit = kpz::scratch_size_max<Space>(0);
  try {
    kpz::tile_launch(space, launch, "zz::marks", 20, limit + 1, mark);
    ADD_FAILURE() << name << ": a scratch request over the limit was launched";
  } catch (const kpz::UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("zz::marks with tiles of 8 elements needs " + std::to_string(limit + 1)), std::string::npos)
        << what;
    EXPECT_NE(what.find("use a smaller tile"), std::string::npos) << what;
  }
  space.fence();
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, seen);
  EXPECT_EQ(host(0), 0) << name << ": a team ran";
  // The scratch as a function of the tile: the refusal names the largest tile that fits.
  const auto bytes_of = [](int tile) { return static_cast<std::size_t>(tile) * 1000; };
  const int fits = static_cast<int>(limit / 1000);
  try {
    kpz::tile_launch(space, LaunchShape{.team_size = 1, .tile = fits + 1}, "zz::marks", 20, bytes_of, mark);
    ADD_FAILURE() << name << ": a tile whose scratch is over the limit was launched";
  } catch (const kpz::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("; a tile up to " + std::to_string(fits) + " fits"), std::string::npos)
        << e.what();
  }
  // A launch without a tile (a needs-variant's run called outside the registry) is a bug, not a
  // division by zero.
  EXPECT_THROW(kpz::tile_launch(space, LaunchShape{.team_size = 1}, "zz::marks", 20, 0, mark), std::logic_error);
  space.fence();
  Kokkos::deep_copy(host, seen);
  EXPECT_EQ(host(0), 0) << name << ": a team ran";
  kpz::tile_launch(space, launch, "zz::marks", 20, limit, mark);
  space.fence();
  Kokkos::deep_copy(host, seen);
  EXPECT_EQ(host(0), 8) << name;
  EXPECT_EQ(host(16), 4) << name << ": the last tile is short";
  kpz::tile_launch(space, LaunchShape{.team_size = 1, .tile = 5}, "zz::marks", 20, bytes_of, mark);
  space.fence();
  Kokkos::deep_copy(host, seen);
  EXPECT_EQ(host(15), 5) << name << ": tiles of 5, scratch as a function of the tile";
}

TEST(TileLaunch, RefusesScratchTheBackendCannotGive) {
  for (const auto& name : kpz::enabled_space_names())
    kpz::with_space(name, [&](const auto& space) {
      expect_scratch_refused_over_the_limit(space, name);
      return 0;
    });
}

}  // namespace
