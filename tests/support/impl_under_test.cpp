// The one source that differs between a puzzle's reference and exercise test executables:
// CMake defines KPZ_TEST_IMPL as reference or exercise for each of them.
#include "kpz_test.hpp"

#define KPZ_STRINGIFY2(x) #x
#define KPZ_STRINGIFY(x) KPZ_STRINGIFY2(x)

namespace kpz::test {

Impl impl_under_test() {
  return std::string(KPZ_STRINGIFY(KPZ_TEST_IMPL)) == "reference" ? Impl::reference : Impl::exercise;
}

}  // namespace kpz::test
