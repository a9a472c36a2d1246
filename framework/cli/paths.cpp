#include "paths.hpp"

#include <unistd.h>

#include <climits>
#include <cstdlib>

namespace kpz::cli {
namespace {

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : std::string(fallback ? fallback : "");
}

std::string own_path() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "kpuzzles";
  return std::string(buf, static_cast<std::size_t>(n));
}

}  // namespace

const LearnerPaths& learner_paths() {
  static const LearnerPaths paths = [] {
    const BuildDefaults d = build_defaults();
    LearnerPaths p;
    p.source_dir = env_or("KPZ_SOURCE_DIR", d.source_dir);
    p.build_dir = env_or("KPZ_BUILD_DIR", d.build_dir);
    p.build_target = d.build_target ? d.build_target : "kpuzzles";
    // The state file follows an overridden build tree unless it is overridden itself.
    const bool build_overridden = std::getenv("KPZ_BUILD_DIR") && *std::getenv("KPZ_BUILD_DIR");
    p.state_file =
        env_or("KPZ_STATE_FILE", build_overridden ? (p.build_dir + "/kpuzzles-state.json").c_str() : d.state_file);
    p.cmake = env_or("KPZ_CMAKE", d.cmake && *d.cmake ? d.cmake : "cmake");
    p.self = own_path();
    // The build tree's programs, moved along with an overridden build tree.
    const std::string baked_build = d.build_dir ? d.build_dir : "";
    const auto in_build_tree = [&](const char* baked) {
      const std::string path = baked ? baked : "";
      if (build_overridden && !baked_build.empty() && path.rfind(baked_build + "/", 0) == 0)
        return p.build_dir + path.substr(baked_build.size());
      return path;
    };
    p.build_binary = in_build_tree(d.build_binary);
    p.bench_binary = in_build_tree(d.bench_binary);
    // The modules this program was built with, wherever KPZ_BUILD_DIR points: a module from
    // another tree may not match this program. KPZ_MODULE_DIR overrides it (for tests and tools).
    p.module_dir = env_or("KPZ_MODULE_DIR", d.module_dir);
    p.verify_dir = env_or("KPZ_VERIFY_DIR", d.verify_dir);
    return p;
  }();
  return paths;
}

std::string relative_to_source(const std::string& path) {
  const std::string& root = learner_paths().source_dir;
  if (!root.empty() && path.size() > root.size() + 1 && path.compare(0, root.size(), root) == 0 &&
      path[root.size()] == '/')
    return path.substr(root.size() + 1);
  return path;
}

}  // namespace kpz::cli
