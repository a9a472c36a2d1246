#include "kpz_test.hpp"
namespace {
class Reduce : public ::testing::TestWithParam<std::string> {};
TEST_P(Reduce, Placeholder) { SUCCEED(); }
INSTANTIATE_TEST_SUITE_P(Spaces, Reduce, ::testing::ValuesIn(kpz::enabled_space_names()),
                         [](const auto& info) { return info.param; });
}
