#pragma once
// distributed: three patterns of the course across MPI ranks. Every rank holds a slice of the
// global arrays (a Partition), runs Kokkos on it, and talks to the other ranks with MPI:
//   global_sum      a rank-local reduction, then one MPI_Allreduce;
//   halo_conv       conv1d, out[i] = sum over j < K with i + j < N of a[i + j] * b[j], whose
//                   K - 1 inputs past a slice come from the following ranks (halo_plan), the
//                   interior computed while the messages fly;
//   segmented_scan  a segmented inclusive scan: the rank-local scan, the carry from the ranks
//                   before through MPI_Exscan with the segmented operator, then the fix-up.
// The kernel list below is implemented twice with the same text: by the learner in
// exercises/distributed/ (namespace kpz::distributed::exercise) and in reference/distributed/.
#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "distributed/fast/local_scan.hpp"
#include "distributed/mpi.hpp"
#include "kpz/kernel_table.hpp"
#include "kpz/simd_pack.hpp"
#include "kpz/spaces.hpp"
#include "kpz/types.hpp"

// The kernels, each called once on every rank with that rank's slice; `comm` holds all the ranks.
// One list per file of the reference (global_sum.cpp, halo.cpp, segmented_scan.cpp).
#define KPZ_DISTRIBUTED_SUM_KERNELS(KERNEL, Space)            \
  /* total = the sum of every rank's slice, on every rank. */ \
  KERNEL(global_sum,                                          \
         (const Space& space, MPI_Comm comm, ::kpz::View<const std::int64_t*, Space> slice, std::int64_t& total))
#define KPZ_DISTRIBUTED_HALO_KERNELS(KERNEL, Space)                                                       \
  /* ext holds this rank's slice of a (plan.count elements), then room for plan.halo elements   \
     that plan.receives lists; out[i] = conv1d's output for global element plan.first + i. The   \
     ranks in plan.sends get their parts of this rank's slice. b has K elements. `side` is a    \
     second instance of the space (partition_space) for the work that overlaps the messages;    \
     ext is ready on both. */         \
  KERNEL(halo_conv,                                                                                       \
         (const Space& space, const Space& side, MPI_Comm comm, const ::kpz::distributed::HaloPlan& plan, \
          ::kpz::View<float*, Space> ext, ::kpz::View<const float*, Space> b, ::kpz::View<float*, Space> out))
#define KPZ_DISTRIBUTED_SCAN_KERNELS(KERNEL, Space)                                                          \
  /* out = the segmented inclusive scan of the global values (heads: 1 where a segment starts), \
     restricted to this rank's slice. */            \
  KERNEL(segmented_scan, (const Space& space, MPI_Comm comm, ::kpz::View<const std::int64_t*, Space> values, \
                          ::kpz::View<const std::uint8_t*, Space> heads, ::kpz::View<std::int64_t*, Space> out))
#define KPZ_DISTRIBUTED_KERNELS(KERNEL, Space) \
  KPZ_DISTRIBUTED_SUM_KERNELS(KERNEL, Space)   \
  KPZ_DISTRIBUTED_HALO_KERNELS(KERNEL, Space)  \
  KPZ_DISTRIBUTED_SCAN_KERNELS(KERNEL, Space)

namespace kpz::distributed {

// ---- The partition: which rank owns which global elements ----

// Rank r owns [first(r), first(r) + count(r)); the slices are consecutive and cover [0, n).
struct Partition {
  std::vector<std::int64_t> offsets;  // ranks + 1 entries: offsets[r] = first(r), offsets.back() = n
  int ranks() const { return static_cast<int>(offsets.size()) - 1; }
  std::int64_t size() const { return offsets.back(); }
  std::int64_t first(int r) const { return offsets[r]; }
  std::int64_t count(int r) const { return offsets[r + 1] - offsets[r]; }
  int owner(std::int64_t i) const;  // the rank whose slice holds global element i
};

// n elements over `ranks`: slices of n / ranks elements, the first n % ranks one longer.
Partition even_partition(std::int64_t n, int ranks);
// n elements cut at ranks - 1 seeded random points (--uneven 1): slices may be empty or shorter
// than a halo. Every rank draws the same cuts from the same seed.
Partition uneven_partition(std::int64_t n, int ranks, std::uint64_t seed);

// ---- The halo: who sends which global range to whom ----

// One message of the halo exchange: `count` elements of a starting at global index `first`.
// In HaloPlan::receives, `peer` sends them and they go to ext(plan.count + offset); in
// HaloPlan::sends, `peer` receives them and they come from ext(offset), this rank's slice.
struct HaloPiece {
  int peer;
  std::int64_t first;
  std::int64_t count;
  std::int64_t offset;
};

// Rank `rank`'s part of the exchange for K = halo + 1 taps: its slice, the halo it needs (the
// halo elements past its slice, cut at n; none for an empty slice), and its messages, in rank
// order. A halo longer than the next slice spans several following ranks.
struct HaloPlan {
  int rank = 0;
  std::int64_t first = 0;  // the slice's first global element
  std::int64_t count = 0;  // the slice's length
  std::int64_t halo = 0;   // elements received after the slice (at most K - 1)
  std::int64_t n = 0;      // the global size
  int taps = 1;            // K
  std::vector<HaloPiece> receives;
  std::vector<HaloPiece> sends;
  // Outputs [0, interior) read only the slice; [interior, count) also read the halo.
  std::int64_t interior() const;
};
HaloPlan halo_plan(const Partition& part, int rank, int taps);

// The kernels of both implementations, and their table (kpz/kernel_table.hpp).
KPZ_KERNELS(KPZ_DISTRIBUTED_KERNELS)

// ---- Given kernels the learner's code calls ----

// out(i) for i in [begin, end): the convolution of ext (slice then halo) with b, terms cut at
// valid = plan.count + plan.halo (past the global end). Launched on `space`; does not fence.
// Each index computes one Pack of neighbouring outputs (kpz/simd_pack.hpp: 16 floats with
// AVX-512, one on a GPU), so a CPU multiplies a tap into all of them with one SIMD instruction;
// an output at a time is a chain of dependent adds. Each output still adds its terms in tap order.
template <class Space>
void conv_outputs(const Space& space, View<const float*, Space> ext, View<const float*, Space> b,
                  View<float*, Space> out, std::int64_t begin, std::int64_t end, std::int64_t valid) {
  if (end <= begin) return;
  using P = Pack<float, Space>;
  constexpr int width = pack_width_v<float, Space>;
  const int taps = static_cast<int>(b.extent(0));
  const std::int64_t items = (end - begin + width - 1) / width;
  Kokkos::parallel_for(
      "distributed::conv_outputs", Kokkos::RangePolicy<Space>(space, 0, items), KOKKOS_LAMBDA(const std::int64_t w) {
        const std::int64_t first = begin + w * width;
        if (first + width <= end && first + width - 1 + taps <= valid) {
          P sum(0.0f);
          for (int j = 0; j < taps; ++j) sum += load_pack<P>(ext, static_cast<int>(first + j)) * P(b(j));
          store_pack(out, static_cast<int>(first), sum, width);
          return;
        }
        // The last outputs of the range, and those whose terms reach past `valid`.
        for (std::int64_t i = first; i < end && i < first + width; ++i) {
          const int last = valid - i < taps ? static_cast<int>(valid - i) : taps;
          float sum = 0;
          for (int j = 0; j < last; ++j) sum += ext(i + j) * b(j);
          out(i) = sum;
        }
      });
}

}  // namespace kpz::distributed
