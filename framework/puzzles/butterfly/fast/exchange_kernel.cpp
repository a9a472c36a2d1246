// The benchmark's kernel: group max on even lanes, min on odd lanes, through XorExchange.
#include "butterfly/butterfly.hpp"

namespace kpz::butterfly {

namespace {

KOKKOS_INLINE_FUNCTION MinMax combine(const MinMax& a, const MinMax& b) {
  return MinMax{a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
}

// The shuffle path kept in registers end to end: each member loads four lanes (q + k * Q,
// Q = tile / 4, four loads in flight), runs the butterfly with warp shuffles, and stores.
// No scratch, no barrier. Requires XorExchange::uses_shuffle for this launch.
template <class Space>
void conditional_registers(const Space& space, const Launch& launch, View<const float*, Space> in,
                           View<float*, Space> out) {
  using Exchange = team::XorExchange<Space, MinMax>;
  const int n = static_cast<int>(in.extent(0));
  const int tile = launch.tile, group = launch.group;
  const auto policy = TeamPolicy<Space>(space, (n + tile - 1) / tile, launch.team_size);
  check_warp_launch(policy);
  Kokkos::parallel_for(
      "butterfly::conditional_registers", policy, KOKKOS_LAMBDA(const TeamMember<Space>& team) {
        const int first = team.league_rank() * tile;
        const int quarter = tile / 4;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, quarter), [&](int q) {
          MinMax m[4];
          for (int k = 0; k < 4; ++k) {
            const int g = first + q + k * quarter;
            const float x = g < n ? in(g) : 0.0f;
            m[k] = MinMax{x, x};
          }
          for (int mask = group / 2; mask >= 1; mask /= 2)
            for (int k = 0; k < 4; ++k) m[k] = combine(m[k], Exchange::shuffle(m[k], mask));
          for (int k = 0; k < 4; ++k) {
            const int g = first + q + k * quarter;
            if (g < n) out(g) = (q % 2 == 0) ? m[k].hi : m[k].lo;  // lane parity: quarter is even
          }
        });
      });
}

}  // namespace

template <class Space>
void conditional_exchange(const Space& space, const Launch& launch, View<const float*, Space> in,
                          View<float*, Space> out, team::XorPath path) {
  using Exchange = team::XorExchange<Space, MinMax>;
  if (Exchange::uses_shuffle(launch.team_size, launch.tile, launch.group, path)) {
    conditional_registers(space, launch, in, out);
    return;
  }
  const int n = static_cast<int>(in.extent(0));
  const int tile = launch.tile, group = launch.group;
  const auto policy = TeamPolicy<Space>(space, (n + tile - 1) / tile, launch.team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(Exchange::scratch_bytes(tile)));
  check_warp_launch(policy);
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
        xor_exchange.all_reduce(team, [](const MinMax& a, const MinMax& b) { return combine(a, b); });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, quarter), [&](int q) {
          for (int k = 0; k < 4; ++k) {
            const int i = q + k * quarter;
            if (i < tile && first + i < n) out(first + i) = (i % 2 == 0) ? v(i).hi : v(i).lo;
          }
        });
      });
}

#define KPZ_BUTTERFLY_EXCHANGE_INSTANTIATE(S) \
  template void conditional_exchange<S>(const S&, const Launch&, View<const float*, S>, View<float*, S>, team::XorPath);
KPZ_FOR_EACH_SPACE(KPZ_BUTTERFLY_EXCHANGE_INSTANTIATE)

}  // namespace kpz::butterfly
