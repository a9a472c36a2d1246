// Why does bench.hpp's "copy as parallel_for" (RangePolicy, one float per item) reach ~56 % of
// deep_copy on an H100? All hypotheses in ONE run, same two Views, each checked before it is timed,
// by fence + host timer and by bench.hpp's held-stream CUDA events (a timing artefact would show
// as a gap between the two). Build: CMakeLists.txt here. Usage: copy_probe [log2 n=28] [host 0|1=1]
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#define CLEAR_ERROR() (void)cudaGetLastError()  // a failed call would else fail the next CK(cudaGetLastError())
#define CK(x)                                                   \
  do {                                                          \
    cudaError_t e_ = (x);                                       \
    if (e_ != cudaSuccess) {                                    \
      std::printf("CUDA %s: %s\n", #x, cudaGetErrorString(e_)); \
      std::exit(1);                                             \
    }                                                           \
  } while (0)
#else
#define CLEAR_ERROR() (void)0
#endif

constexpr int kWarm = 5, kRuns = 20;
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return 0.5 * (v[(v.size() - 1) / 2] + v[v.size() / 2]);
}
template <class Space>
double time_fenced_ms(const Space& s, const std::function<void()>& f) {
  for (int i = 0; i < kWarm; ++i) f();
  std::vector<double> t;  // fence, host timer, launch, fence: what bench.hpp does on the host
  for (int i = 0; i < kRuns; ++i) {
    s.fence();
    Kokkos::Timer c;
    f();
    s.fence();
    t.push_back(1e3 * c.seconds());
  }
  return median(t);
}

#if defined(KOKKOS_ENABLE_CUDA)
// bench.hpp's CUDA method (framework/src/gpu_timer.cpp): a 200 us kernel holds the stream while the
// host enqueues event, launch, event, so launch overhead is not in the number.
__global__ void hold(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}
double time_events_ms(cudaStream_t st, const std::function<void()>& f) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < kWarm; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < kRuns; ++i) {
    hold<<<1, 1, 0, st>>>(200000);
    CK(cudaEventRecord(a, st));
    f();
    CK(cudaEventRecord(b, st));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CK(cudaGetLastError());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return median(t);
}

// Raw CUDA: what a CUDA programmer writes. One element per thread (the shape Kokkos launches),
// a grid-stride loop, four independent loads in flight per thread, and 16-byte float4 accesses.
template <class T>
__global__ void k_one(const T* __restrict__ s, T* __restrict__ d, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) d[i] = s[i];
}
template <class T>
__global__ void k_stride(const T* __restrict__ s, T* __restrict__ d, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    d[i] = s[i];
}
__global__ void k_ilp4(const float* __restrict__ s, float* __restrict__ d, size_t n) {  // n % (4*threads) == 0
  const size_t m = size_t(gridDim.x) * blockDim.x, i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float v0 = s[i], v1 = s[i + m], v2 = s[i + 2 * m], v3 = s[i + 3 * m];
  d[i] = v0;
  d[i + m] = v1;
  d[i + 2 * m] = v2;
  d[i + 3 * m] = v3;
}
#endif
struct Row {
  std::string name;
  double fence_ms, event_ms;
};
template <class F>  // a failing launch (Kokkos throws) is reported and the probe goes on
void guarded(const std::string& what, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    std::printf("%s: FAILED: %s\n", what.c_str(), e.what());
    CLEAR_ERROR();
  }
}
template <class Space>
struct Probe {
  using V = Kokkos::View<float*, typename Space::memory_space>;
  using R = Kokkos::View<float*, typename Space::memory_space, Kokkos::MemoryTraits<Kokkos::Restrict>>;
  Space space;
  V src, dst;
  std::size_t n;
  std::vector<Row> rows;
  void check(const std::string& name) {
    V s = src, d = dst;
    long bad = 0;
    Kokkos::parallel_reduce(
        "probe::check", Kokkos::RangePolicy<Space>(space, 0, n),
        KOKKOS_LAMBDA(std::size_t i, long& e) { e += d(i) != s(i); }, bad);
    if (bad) {
      std::printf("%s: %ld wrong elements, not timed\n", name.c_str(), bad);
      std::exit(1);
    }
  }
  void add(const std::string& name, const std::function<void()>& f) {
    guarded(name, [&] {
      Kokkos::deep_copy(space, dst, -1.0f);  // poison: an unwritten element fails the check
      f();
      space.fence();
      check(name);
      double ev = -1;
#if defined(KOKKOS_ENABLE_CUDA)
      if constexpr (std::is_same_v<Space, Kokkos::Cuda>) ev = time_events_ms(space.cuda_stream(), f);
#endif
      rows.push_back({name, time_fenced_ms(space, f), ev});
    });
  }
  // The Kokkos ways of writing the copy, one per case of a named member function (nvcc allows no
  // KOKKOS_LAMBDA inside a host lambda). Each captures the Views by value, as bench.hpp does.
  static constexpr const char* kNames[] = {"Kokkos::deep_copy",
                                           "RangePolicy, size_t i (bench.hpp today)",
                                           "RangePolicy<IndexType<int64_t>>",
                                           "RangePolicy<IndexType<int>>",
                                           "RangePolicy<LaunchBounds<1024,1>>",
                                           "RangePolicy, MemoryTraits<Restrict>",
                                           "RangePolicy<StaticBatchSize<4>> (Kokkos 5)",
                                           "StaticBatchSize<4> + Restrict",
                                           "RangePolicy, 4 per item (i + j*n/4, loads first)",
                                           "RangePolicy, 4 per item (tiles of 256x4)",
                                           "RangePolicy, 4 per item (contiguous 4i..4i+3)",
                                           "RangePolicy, 8 per item (contiguous 8i..8i+7)",
                                           "TeamPolicy(n/2048, AUTO), TeamThreadRange 2048"};
  void kokkos_variants() {
    for (int v = 0; v < int(sizeof kNames / sizeof *kNames); ++v) add(kNames[v], [this, v] { launch(v); });
  }
  void launch(int v) {
    V s = src, d = dst;
    const std::size_t N = n;
    const Space& sp = space;
    R rs(s.data(), N), rd(d.data(), N);  // unmanaged views of the same memory, Restrict trait
    using Batch4 = Kokkos::Experimental::StaticBatchSize<4>;
    switch (v) {
      case 0:
        Kokkos::deep_copy(sp, d, s);
        break;
      case 1:
        Kokkos::parallel_for(
            "c_size_t", Kokkos::RangePolicy<Space>(sp, 0, N), KOKKOS_LAMBDA(std::size_t i) { d(i) = s(i); });
        break;
      case 2:
        Kokkos::parallel_for(
            "c_i64", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(sp, 0, N),
            KOKKOS_LAMBDA(std::int64_t i) { d(i) = s(i); });
        break;
      case 3:
        Kokkos::parallel_for(
            "c_int", Kokkos::RangePolicy<Space, Kokkos::IndexType<int>>(sp, 0, int(N)),
            KOKKOS_LAMBDA(int i) { d(i) = s(i); });
        break;
      case 4:
        Kokkos::parallel_for(
            "c_lb", Kokkos::RangePolicy<Space, Kokkos::LaunchBounds<1024, 1>>(sp, 0, N),
            KOKKOS_LAMBDA(std::size_t i) { d(i) = s(i); });
        break;
      case 5:
        Kokkos::parallel_for(
            "c_restrict", Kokkos::RangePolicy<Space>(sp, 0, N), KOKKOS_LAMBDA(std::size_t i) { rd(i) = rs(i); });
        break;
      case 6:
        Kokkos::parallel_for(
            "c_batch4", Kokkos::RangePolicy<Space, Batch4>(sp, 0, N), KOKKOS_LAMBDA(std::size_t i) { d(i) = s(i); });
        break;
      case 7:
        Kokkos::parallel_for(
            "c_batch4r", Kokkos::RangePolicy<Space, Batch4>(sp, 0, N), KOKKOS_LAMBDA(std::size_t i) { rd(i) = rs(i); });
        break;
      case 8:
        unrolled<4>();
        break;
      case 9:
        tiled<4>();
        break;
      case 10:
        contiguous<4>();
        break;
      case 11:
        contiguous<8>();
        break;
      case 12: {
        using P = Kokkos::TeamPolicy<Space>;
        Kokkos::parallel_for(
            "c_team", P(sp, int((N + 2047) / 2048), Kokkos::AUTO), KOKKOS_LAMBDA(const typename P::member_type& t) {
              const std::size_t b = std::size_t(t.league_rank()) * 2048, e = b + 2048 < N ? b + 2048 : N;
              Kokkos::parallel_for(Kokkos::TeamThreadRange(t, b, e), [&](std::size_t i) { d(i) = s(i); });
            });
      } break;
    }
  }
  // K elements per work item, all loaded before any is stored (so no aliasing question keeps the
  // loads from being in flight together); item i takes i, i+m, ..., i+(K-1)m, so every load is
  // coalesced across a warp; the tail (n % K) goes to the first items.
  template <int K>
  void unrolled() {
    V s = src, d = dst;
    const std::size_t m = n / K, tail = n - K * m;
    Kokkos::parallel_for(
        "c_unroll", Kokkos::RangePolicy<Space>(space, 0, m), KOKKOS_LAMBDA(std::size_t i) {
          float x[K];
          for (int j = 0; j < K; ++j) x[j] = s(i + j * m);
          for (int j = 0; j < K; ++j) d(i + j * m) = x[j];
          if (i < tail) d(K * m + i) = s(K * m + i);
        });
  }
  // K consecutive elements per item, loads first (n % K == 0 here; bench.hpp's version has a tail).
  template <int K>
  void contiguous() {
    V s = src, d = dst;
    Kokkos::parallel_for(
        "c_contig", Kokkos::RangePolicy<Space>(space, 0, n / K), KOKKOS_LAMBDA(std::size_t i) {
          float x[K];
          for (int j = 0; j < K; ++j) x[j] = s(K * i + j);
          for (int j = 0; j < K; ++j) d(K * i + j) = x[j];
        });
  }
  // Tiles of T*K elements: item i is lane i % T of tile i / T and takes lane + j*T, j < K, loads
  // first. Across a warp every load is coalesced; on a CPU a thread's items sweep whole tiles.
  template <int K, std::size_t T = 256>
  void tiled() {
    V s = src, d = dst;
    const std::size_t N = n, items = (n + T * K - 1) / (T * K) * T;
    Kokkos::parallel_for(
        "c_tiled", Kokkos::RangePolicy<Space>(space, 0, items), KOKKOS_LAMBDA(std::size_t i) {
          const std::size_t e = i / T * T * K + i % T;
          float x[K];
          if (e + (K - 1) * T < N) {
            for (int j = 0; j < K; ++j) x[j] = s(e + j * T);
            for (int j = 0; j < K; ++j) d(e + j * T) = x[j];
          } else {
            for (int j = 0; j < K; ++j)
              if (e + j * T < N) d(e + j * T) = s(e + j * T);
          }
        });
  }
};
void print(const char* title, const std::vector<Row>& rows, std::size_t n, double ref_f, double ref_e) {
  const double gb = 2.0 * sizeof(float) * double(n) / 1e9;
  std::printf("\n%s\n%-50s %9s %8s %7s | %9s %8s %7s\n", title, "variant", "ms fence", "GB/s", "% ref", "ms events",
              "GB/s", "% ref");
  for (const Row& r : rows) {
    std::printf("%-50s %9.4f %8.0f %6.1f%% |", r.name.c_str(), r.fence_ms, gb / r.fence_ms * 1e3,
                100 * ref_f / r.fence_ms);
    if (r.event_ms > 0)
      std::printf(" %9.4f %8.0f %6.1f%%\n", r.event_ms, gb / r.event_ms * 1e3, 100 * ref_e / r.event_ms);
    else
      std::printf("\n");
  }
}
// First touch / allocation: the first copy into freshly allocated, never-written memory
// (WithoutInitializing), then a second one into the same memory; single shots, fenced.
template <class Space>
void first_touch(const Space& sp, const Kokkos::View<float*, typename Space::memory_space>& s, std::size_t N) {
  Kokkos::View<float*, typename Space::memory_space> d(Kokkos::view_alloc(sp, Kokkos::WithoutInitializing, "fresh"), N);
  double t[2];
  for (double& x : t) {
    sp.fence();
    Kokkos::Timer c;
    Kokkos::parallel_for(
        "c_fresh", Kokkos::RangePolicy<Space>(sp, 0, N), KOKKOS_LAMBDA(std::size_t i) { d(i) = s(i); });
    sp.fence();
    x = 1e3 * c.seconds();
  }
  std::printf("first touch (%s): first copy into fresh memory %.4f ms, second %.4f ms\n", Space::name(), t[0], t[1]);
}
#if defined(KOKKOS_ENABLE_CUDA)
struct Shape {  // the launch shape Kokkos picks for a one-float RangePolicy body; a functor, since a
  Kokkos::View<int*, Kokkos::CudaSpace> v;  // KOKKOS_LAMBDA in a non-template function failed to launch
  KOKKOS_FUNCTION void operator()(std::size_t i) const {
    KOKKOS_IF_ON_DEVICE((if (i == 0) {
      v(0) = blockDim.x;
      v(1) = blockDim.y;
      v(2) = gridDim.x;
    }))
  }
};
#endif
template <class Space>
Probe<Space> make_probe(std::size_t n) {
  using V = typename Probe<Space>::V;
  Space sp;
  Probe<Space> p{sp, V(Kokkos::view_alloc(sp, "src"), n), V(Kokkos::view_alloc(sp, "dst"), n), n, {}};
  V s = p.src;
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<Space>(sp, 0, n), KOKKOS_LAMBDA(std::size_t i) { s(i) = float(i % 1024) * 0.5f; });
  sp.fence();
  return p;
}
int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // nothing lost if it aborts
  Kokkos::ScopeGuard guard(argc, argv);
  const std::size_t n = std::size_t(1) << (argc > 1 ? std::atoi(argv[1]) : 28);
  const bool host = argc > 2 ? std::atoi(argv[2]) != 0 : true;
  std::printf("n = %zu floats (%.2f GB moved per copy), median of %d after %d warm-ups\n", n, 8.0 * n / 1e9, kRuns,
              kWarm);
#if defined(KOKKOS_ENABLE_CUDA)
  {
    using Cuda = Kokkos::Cuda;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("device %s, %d SMs, L2 %d MB, Kokkos %d\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20,
                KOKKOS_VERSION);
    guarded("small copy", [] { first_touch(Cuda(), make_probe<Cuda>(1024).src, 1024); });  // module load
    Probe<Cuda> p = make_probe<Cuda>(n);
    guarded("first touch", [&] { first_touch(Cuda(), p.src, n); });
    guarded("launch shape", [n] {
      Shape f{Kokkos::View<int*, Kokkos::CudaSpace>("shape", 3)};
      Kokkos::parallel_for("c_shape", Kokkos::RangePolicy<Cuda>(0, n), f);
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.v);
      std::printf("Kokkos RangePolicy launch: block (%d, %d), grid %d\n", h(0), h(1), h(2));
    });
    const float* s = p.src.data();
    float* d = p.dst.data();
    const cudaStream_t st = p.space.cuda_stream();
    const unsigned sms = prop.multiProcessorCount;
    p.add("cudaMemcpyAsync D2D", [=] { CK(cudaMemcpyAsync(d, s, n * sizeof(float), cudaMemcpyDeviceToDevice, st)); });
    p.kokkos_variants();
    for (unsigned b : {128u, 256u, 1024u})
      p.add("CUDA 1 float/thread, block " + std::to_string(b),
            [=] { k_one<<<unsigned((n + b - 1) / b), b, 0, st>>>(s, d, n); });
    p.add("CUDA grid-stride float, 256 x 8/SM blocks", [=] { k_stride<<<sms * 8, 256, 0, st>>>(s, d, n); });
    p.add("CUDA 4 floats/thread in flight, block 256", [=] { k_ilp4<<<unsigned(n / 1024), 256, 0, st>>>(s, d, n); });
    p.add("CUDA 1 float4/thread, block 256",
          [=] { k_one<<<unsigned((n / 4 + 255) / 256), 256, 0, st>>>((const float4*)s, (float4*)d, n / 4); });
    p.add("CUDA grid-stride float4, 256 x 8/SM blocks",
          [=] { k_stride<<<sms * 8, 256, 0, st>>>((const float4*)s, (float4*)d, n / 4); });
    CK(cudaGetLastError());
    print("CUDA (% ref = % of cudaMemcpyAsync, same timing method)", p.rows, n, p.rows[0].fence_ms, p.rows[0].event_ms);
  }
#endif
  if (host) {  // the same Kokkos kernels on the host backend: a change must not hurt the CPU
    using H = Kokkos::DefaultHostExecutionSpace;
    Probe<H> p = make_probe<H>(n);
    first_touch(H(), p.src, n);
    p.kokkos_variants();
    char title[128];
    std::snprintf(title, sizeof title, "%s, %d threads (%% ref = %% of Kokkos::deep_copy)", H::name(),
                  H().concurrency());
    print(title, p.rows, n, p.rows[0].fence_ms, -1);
  }
  return 0;
}
