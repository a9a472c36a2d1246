#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "kpz/errors.hpp"
#include "kpz/json.hpp"
#include "kpz/spaces.hpp"

namespace kpz::cli {

int cmd_doctor(const std::vector<std::string>& args) {
  const ParsedFlags flags = parse_flags(args, {{"json", false, "print JSON"}}, "'kpuzzles doctor'");
  if (!flags.positional.empty()) throw UsageError("'kpuzzles doctor' takes no arguments");
  Json j = Json::object();
  j.set("kokkos_version", std::to_string(KOKKOS_VERSION_MAJOR) + "." + std::to_string(KOKKOS_VERSION_MINOR) +
                              "." + std::to_string(KOKKOS_VERSION_PATCH));
  j.set("default_space", default_space_name());
  Json spaces = Json::array();
  for (const auto& name : enabled_space_names()) {
    with_space(name, [&](const auto& space) {
      using Space = std::decay_t<decltype(space)>;
      Json s = Json::object();
      s.set("name", name);
      s.set("concurrency", space.concurrency());
      s.set("team_size_max", team_size_max(space));
      s.set("scratch_level0_max_bytes", scratch_size_max<Space>(0));
      s.set("scratch_level1_max_bytes", scratch_size_max<Space>(1));
#if defined(KOKKOS_ENABLE_CUDA)
      if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
        const auto& prop = space.cuda_device_prop();
        s.set("device", std::string(prop.name));
        s.set("compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor));
        s.set("multiprocessors", prop.multiProcessorCount);
      }
#endif
      spaces.push(std::move(s));
    });
  }
  j.set("spaces", spaces);
  if (flags.has("json")) {
    std::cout << j.dump() << '\n';
    return 0;
  }
  std::cout << "Kokkos " << KOKKOS_VERSION_MAJOR << '.' << KOKKOS_VERSION_MINOR << '.'
            << KOKKOS_VERSION_PATCH << ", default execution space "
            << default_space_name() << '\n';
  for (const auto& name : enabled_space_names()) {
    with_space(name, [&](const auto& space) {
      using Space = std::decay_t<decltype(space)>;
      std::cout << "  " << name << ": concurrency " << space.concurrency() << ", team_size_max "
                << team_size_max(space) << ", scratch level 0 " << scratch_size_max<Space>(0)
                << " B, level 1 " << scratch_size_max<Space>(1) << " B";
#if defined(KOKKOS_ENABLE_CUDA)
      if constexpr (std::is_same_v<Space, Kokkos::Cuda>)
        std::cout << ", device " << space.cuda_device_prop().name;
#endif
      std::cout << '\n';
    });
  }
  return 0;
}

}  // namespace kpz::cli
