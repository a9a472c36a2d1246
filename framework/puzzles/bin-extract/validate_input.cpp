// bin-extract's host boundary: bins of NaN (and of infinities) are not defined.
#include "bin-extract/bin-extract.hpp"
#include "kpz/check.hpp"

namespace kpz::bin_extract {

void validate_input(const std::vector<float>& values) {
  require_finite(values, "bin-extract input");
}

}  // namespace kpz::bin_extract
