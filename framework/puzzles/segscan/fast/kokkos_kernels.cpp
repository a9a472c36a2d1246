// The optional comparison with Kokkos Kernels: KokkosSparse::spmv with an SPMVHandle that asks
// for SPMV_NATIVE, Kokkos Kernels' own implementation (never cuSPARSE). CMake defines
// KPZ_HAS_KOKKOSKERNELS and links Kokkos::kokkoskernels when it finds Kokkos Kernels
// (cmake/KpzKokkosKernels.cmake); without it this file only says so.
#include <stdexcept>

#include "segscan/fast/kernels.hpp"
#include "segscan/segscan.hpp"

#if defined(KPZ_HAS_KOKKOSKERNELS)
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#endif

namespace kpz::segscan {

bool have_kokkos_kernels() {
#if defined(KPZ_HAS_KOKKOSKERNELS)
  return true;
#else
  return false;
#endif
}

#if defined(KPZ_HAS_KOKKOSKERNELS)
template <class Space, class T>
struct KokkosKernelsSpmv<Space, T>::State {
  using Device = Kokkos::Device<Space, typename Space::memory_space>;
  using Matrix = KokkosSparse::CrsMatrix<T, int, Device, void, int>;
  using XVector = Kokkos::View<const T*, Device>;
  using YVector = Kokkos::View<T*, Device>;
  using Handle = KokkosSparse::SPMVHandle<Device, Matrix, XVector, YVector>;

  State(const Space& s, int rows, int cols, View<int*, Space> row_offsets, View<int*, Space> columns,
        View<T*, Space> matrix_values, View<T*, Space> x_, View<T*, Space> y_)
      : space(s),
        matrix("segscan::kokkos_kernels::A", rows, cols, static_cast<int>(columns.extent(0)),
               typename Matrix::values_type(matrix_values), typename Matrix::row_map_type(row_offsets),
               typename Matrix::index_type(columns)),
        x(x_),
        y(y_),
        handle(KokkosSparse::SPMV_NATIVE) {}

  Space space;
  Matrix matrix;
  XVector x;
  YVector y;
  Handle handle;
};
#else
template <class Space, class T>
struct KokkosKernelsSpmv<Space, T>::State {};
#endif

template <class Space, class T>
KokkosKernelsSpmv<Space, T>::KokkosKernelsSpmv(const Space& space, int rows, int cols, View<int*, Space> row_offsets,
                                               View<int*, Space> columns, View<T*, Space> matrix_values,
                                               View<T*, Space> x, View<T*, Space> y) {
#if defined(KPZ_HAS_KOKKOSKERNELS)
  state = new State(space, rows, cols, row_offsets, columns, matrix_values, x, y);
#else
  (void)space, (void)rows, (void)cols, (void)row_offsets, (void)columns, (void)matrix_values, (void)x, (void)y;
  throw std::logic_error("this build has no Kokkos Kernels (configure with -DKokkosKernels_ROOT=...)");
#endif
}

template <class Space, class T>
KokkosKernelsSpmv<Space, T>::~KokkosKernelsSpmv() {
  delete state;
}

template <class Space, class T>
void KokkosKernelsSpmv<Space, T>::operator()() {
#if defined(KPZ_HAS_KOKKOSKERNELS)
  KokkosSparse::spmv(state->space, &state->handle, KokkosSparse::NoTranspose, T(1), state->matrix, state->x, T(0),
                     state->y);
#endif
}

#define KPZ_SEGSCAN_KK_INSTANTIATE(S) template struct KokkosKernelsSpmv<S, float>;
KPZ_FOR_EACH_SPACE(KPZ_SEGSCAN_KK_INSTANTIATE)

}  // namespace kpz::segscan
