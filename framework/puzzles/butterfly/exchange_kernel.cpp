// The benchmark's kernel: group max on even lanes, min on odd lanes, through XorExchange.
#include "butterfly/butterfly.hpp"

namespace kpz::butterfly {

template <class Space>
void conditional_exchange(const Space& space, const Launch& launch, View<const float*, Space> in,
                          View<float*, Space> out, team::XorPath path) {
  using Exchange = team::XorExchange<Space, MinMax>;
  const int n = static_cast<int>(in.extent(0));
  const int tile = launch.tile, group = launch.group;
  const auto policy = TeamPolicy<Space>(space, (n + tile - 1) / tile, launch.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(Exchange::scratch_bytes(tile)));
  Kokkos::parallel_for(
      "butterfly::conditional_exchange", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        Exchange xor_exchange(team, tile, group, path);
        const auto v = xor_exchange.values();
        const int first = team.league_rank() * tile;
        // Four lanes per member and iteration: four global loads (and stores) in flight.
        const int quarter = (tile + 3) / 4;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, quarter), [&](int q) {
          float x[4];
          for (int k = 0; k < 4; ++k) {
            const int g = first + q + k * quarter;
            x[k] = q + k * quarter < tile && g < n ? in(g) : 0.0f;
          }
          for (int k = 0; k < 4; ++k)
            if (q + k * quarter < tile) v(q + k * quarter) = MinMax{x[k], x[k]};
        });
        xor_exchange.all_reduce(team, [](const MinMax& a, const MinMax& b) {
          return MinMax{a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
        });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, quarter), [&](int q) {
          for (int k = 0; k < 4; ++k) {
            const int i = q + k * quarter;
            if (i < tile && first + i < n) out(first + i) = (i % 2 == 0) ? v(i).hi : v(i).lo;
          }
        });
      });
}

#define KPZ_BUTTERFLY_EXCHANGE_INSTANTIATE(S)                                                  \
  template void conditional_exchange<S>(const S&, const Launch&, View<const float*, S>,        \
                                        View<float*, S>, team::XorPath);
KPZ_FOR_EACH_SPACE(KPZ_BUTTERFLY_EXCHANGE_INSTANTIATE)

}  // namespace kpz::butterfly
