// The library baseline of `kpuzzles bench bin-extract --extract`: CUB DeviceSelect::If on the
// same input and predicate, timed like the Kokkos rows (kpz::time_kernel: CUDA events on a held stream, kernel time only).
// Compiled only in CUDA builds (cmake/KpzPuzzles.cmake); registered by name so that the
// benchmark, which every build compiles, can find it.
#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)

#include <cub/cub.cuh>
#include <vector>

#include "../../cuda_support/cub_baseline.hpp"
#include "bin-extract/bin-extract.hpp"
#include "kpz/library_baselines.hpp"

namespace kpz::bin_extract {
namespace {

using cub_baseline::check;
using cub_baseline::DeviceBuffer;

ExternalTiming cub_select_if(const std::vector<float>& in, int num_bins, int target_bin, const BenchConfig& cfg,
                             std::vector<float>& selected) {
  const int n = static_cast<int>(in.size());
  DeviceBuffer d_in(in.size() * sizeof(float)), d_out(in.size() * sizeof(float)), d_count(sizeof(int));
  const auto* src = d_in.as<const float>();
  auto* dst = d_out.as<float>();
  auto* count = d_count.as<int>();
  check(cudaMemcpy(d_in.get(), in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice), "copy input");
  const InBin pred{num_bins, target_bin};
  const Timing timing =
      cub_baseline::time_cub(cfg, "DeviceSelect::If", [&](void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
        return cub::DeviceSelect::If(temp, temp_bytes, src, dst, count, n, pred, stream);
      });
  int h_count = 0;
  check(cudaMemcpy(&h_count, count, sizeof(int), cudaMemcpyDeviceToHost), "copy count");
  selected.resize(static_cast<std::size_t>(h_count));
  check(cudaMemcpy(selected.data(), dst, selected.size() * sizeof(float), cudaMemcpyDeviceToHost), "copy output");
  return {"CUB DeviceSelect::If", timing, extract_bytes(in.size(), selected.size())};
}

}  // namespace

KPZ_REGISTER_LIBRARY_BASELINE(cub_select_if, kCubSelectIf, cub_select_if);

}  // namespace kpz::bin_extract

#endif  // KOKKOS_ENABLE_CUDA
