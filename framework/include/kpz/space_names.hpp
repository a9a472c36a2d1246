#pragma once
// The names of this build's execution spaces, without the Kokkos headers (for code that only
// prints or compares them, such as the learner loop's commands). spaces.hpp includes it.
#include <string>
#include <vector>

namespace kpz {

// Names of the enabled spaces, default execution space first.
std::vector<std::string> enabled_space_names();
std::string default_space_name();

}  // namespace kpz
