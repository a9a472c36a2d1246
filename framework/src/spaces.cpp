#include "kpz/spaces.hpp"

namespace kpz {

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string default_space_name() {
  return std::string(space_name<Kokkos::DefaultExecutionSpace>());
}

std::vector<std::string> enabled_space_names() {
  std::vector<std::string> names{default_space_name()};
  auto add = [&](std::string_view n) {
    if (std::string(n) != names.front()) names.emplace_back(n);
  };
#if defined(KOKKOS_ENABLE_CUDA)
  add("cuda");
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  add("openmp");
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
  add("serial");
#endif
  return names;
}

bool team_range_is_cyclic(std::string_view space) { return space == "cuda"; }

}  // namespace kpz
