// The second launch of every team variant: one team adds the per-team partial sums into
// result(0). Compiled once per space (a kernel lambda in a header that several translation units
// instantiate is an ODR trap under nvcc).
#include "reduce/reduce.hpp"

namespace kpz::reduce {

template <class Space, class T>
void finish(const Space& space, View<const T*, Space> partial, View<T*, Space> result) {
  const int count = static_cast<int>(partial.extent(0));
  const int team_size = is_gpu_v<Space> ? 256 : 1;
  Kokkos::parallel_for(
      "reduce::finish", TeamPolicy<Space>(space, 1, team_size), KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        T total = T(0);
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, count), [&](int i, T& acc) { acc += partial(i); }, total);
        Kokkos::single(Kokkos::PerTeam(team), [&] { result(0) = total; });
      });
}

#define KPZ_REDUCE_FINISH_INSTANTIATE(S)                                      \
  template void finish<S, int>(const S&, View<const int*, S>, View<int*, S>); \
  template void finish<S, float>(const S&, View<const float*, S>, View<float*, S>);
KPZ_FOR_EACH_SPACE(KPZ_REDUCE_FINISH_INSTANTIATE)

}  // namespace kpz::reduce
