// GoogleTest main with Kokkos initialised once for the whole run.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(Kokkos::InitializationSettings().set_disable_warnings(true));
  return RUN_ALL_TESTS();
}
