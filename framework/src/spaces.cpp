#include "kpz/spaces.hpp"

#include <cctype>

namespace kpz {

std::string lowercase_space_name(const char* kokkos_name) {
  std::string name(kokkos_name);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

std::string default_space_name() {
#if defined(KPZ_TRACE)
  return "serial";
#else
  return std::string(space_name<Kokkos::DefaultExecutionSpace>());
#endif
}

std::vector<std::string> enabled_space_names() {
#if defined(KPZ_TRACE)
  return {"serial"};
#else
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
#if defined(KOKKOS_ENABLE_THREADS)
  add("threads");
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
  add("serial");
#endif
  return names;
#endif
}

bool team_range_is_cyclic(std::string_view space) {
#if defined(KPZ_TRACE)
  (void)space;
  return trace::current_distribution() == trace::Distribution::cyclic;
#else
  return space == "cuda";
#endif
}

}  // namespace kpz
