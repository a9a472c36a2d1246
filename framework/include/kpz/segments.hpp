#pragma once
// Moved: segment descriptions are segscan's, framework/puzzles/segscan/segments.hpp (namespace
// kpz::segscan::segments). This path stays only for benchmarks/segscan/segscan_bench.cpp, which
// includes it; delete it once the bench includes "segscan/segments.hpp".
#include "segscan/segments.hpp"
