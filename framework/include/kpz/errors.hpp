#pragma once
// Errors the CLI turns into exit codes: UsageError -> 2 (bad usage or input).
#include <stdexcept>
#include <string>
#include <vector>

namespace kpz {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string join(const std::vector<std::string>& parts, const std::string& sep);

}  // namespace kpz
