#pragma once
// Library baselines that only some builds compile, e.g. CUB, which needs nvcc: a table of named
// functions. A file in benchmarks/<puzzle>/cuda/ (compiled only in CUDA builds) registers its
// function with KPZ_REGISTER_LIBRARY_BASELINE; the puzzle's benchmark, compiled in every build,
// looks it up by name and gets nullptr where the build has none. The function type is the
// puzzle's own (declared in its header); find<Fn>() checks that it matches the registration.
#include <any>
#include <map>
#include <stdexcept>
#include <string>

namespace kpz {

class LibraryBaselines {
 public:
  static LibraryBaselines& instance() {
    static LibraryBaselines table;
    return table;
  }

  template <class Fn>
  void add(const std::string& name, Fn* fn) {
    table_[name] = fn;
  }

  // The function registered as `name`, or nullptr if this build has none.
  template <class Fn>
  Fn* find(const std::string& name) const {
    const auto it = table_.find(name);
    if (it == table_.end()) return nullptr;
    if (const auto* fn = std::any_cast<Fn*>(&it->second)) return *fn;
    throw std::logic_error("library baseline '" + name + "' was registered with another function type");
  }

 private:
  std::map<std::string, std::any> table_;
};

struct LibraryBaselineRegistrar {
  template <class Fn>
  LibraryBaselineRegistrar(const std::string& name, Fn* fn) {
    LibraryBaselines::instance().add(name, fn);
  }
};

}  // namespace kpz

// Registers function `fn` under the string `name` when the program starts. `id` names the
// registrar object (any identifier unique in the file).
#define KPZ_REGISTER_LIBRARY_BASELINE(id, name, fn)                        \
  static const ::kpz::LibraryBaselineRegistrar kpz_library_baseline_##id { \
    name, &fn                                                              \
  }
