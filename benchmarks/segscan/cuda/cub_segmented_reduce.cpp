// The library baseline of `kpuzzles bench segscan` in CUDA builds: CUB's
// DeviceSegmentedReduce::Sum over float values with int CSR offsets, timed like the Kokkos rows
// (kpz::time_kernel: CUDA events on the held Kokkos stream, warm-up, median). Every CUDA and CUB return code
// is checked; a failure throws std::runtime_error (kpuzzles exits 3).
// Registered in kpz::LibraryBaselines as "cub::DeviceSegmentedReduce::Sum<float>":
//   in = {values (const float*, N), offsets (const int*, S + 1)}, out = {sums (float*, S)},
//   sizes = {N, S}.
#include "kpz/bench.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/cub.cuh>

#include "../../cuda_support/cub_baseline.hpp"

namespace kpz::segscan {
namespace {

Timing cub_segmented_sum(const LibraryArgs& args) {
  const auto* values = static_cast<const float*>(args.in.at(0));
  const auto* offsets = static_cast<const int*>(args.in.at(1));
  auto* sums = static_cast<float*>(args.out.at(0));
  const int segments = static_cast<int>(args.sizes.at(1));
  return cub_baseline::time_cub(
      args.cfg, "cub::DeviceSegmentedReduce::Sum", [&](void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
        return cub::DeviceSegmentedReduce::Sum(temp, temp_bytes, values, sums, segments, offsets, offsets + 1, stream);
      });
}

}  // namespace

KPZ_REGISTER_LIBRARY_BASELINE(cub_segmented_sum, "cub::DeviceSegmentedReduce::Sum<float>", cub_segmented_sum);

}  // namespace kpz::segscan
#endif  // KOKKOS_ENABLE_CUDA
