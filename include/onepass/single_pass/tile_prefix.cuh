// onepass/single_pass/tile_prefix.cuh — a tile's prefix, resolved by its first warp:
// publish, look back, publish again, hand the prefix to the block.
#pragma once

#include "onepass/detail/shuffle.cuh"
#include "onepass/single_pass/lookback.cuh"

namespace onepass::detail {

// Warp 0's part of a tile, for every agent whose tiles carry one value (the scans'
// one-tile and pipelined agents, the selects' counts): publish the tile's aggregate (unless
// the caller already has), look back, publish the inclusive prefix, and leave the
// tile's exclusive prefix in `tile_prefix` (shared memory) for the block. Tile 0 has no
// predecessor: it publishes its prefix at once, and its exclusive prefix is init (used
// only by exclusive scans). The caller's barrier after this makes tile_prefix visible.
// LookbackTilesPerLane: the lookback's window (lookback_warp), from the caller's tuning.
template <bool Exclusive, bool PublishAggregate, int LookbackTilesPerLane = 1, class T, int SlotWords,
          int TilesPerSlot, class Op, class Delay>
__device__ ONEPASS_FORCEINLINE void resolve_tile_prefix(lookback::tile_state<T, SlotWords, TilesPerSlot>& state, index_t tile,
                                                        const T& aggregate, const T& init, Op op,
                                                        unsigned backoff_ns, const Delay& delay,
                                                        T& tile_prefix) {
  const bool leader = lane_id() == 0;
  if (tile == 0) {
    if (leader) {
      delay(tile, lookback::tile_status::prefix);
      state.publish(tile, lookback::tile_status::prefix, Exclusive ? op(init, aggregate) : aggregate);
      tile_prefix = init;
    }
    return;
  }
  if (PublishAggregate && leader) {
    delay(tile, lookback::tile_status::aggregate);
    state.publish(tile, lookback::tile_status::aggregate, aggregate);
  }
  const T prefix = lookback::lookback_warp<LookbackTilesPerLane>(state, tile, op, backoff_ns);
  if (leader) {
    delay(tile, lookback::tile_status::prefix);
    state.publish(tile, lookback::tile_status::prefix, op(prefix, aggregate));
    tile_prefix = prefix;
  }
}

// resolve_tile_prefix in the fixed order (lookback_fixed_order), for the deterministic
// scans: the same bits whatever the timing. Every tile, tile 0 included, has published its
// AGGREGATE already (the caller's reduction step); only a group's last tile publishes its
// inclusive PREFIX here. init goes first in group 0's prefixes (exclusive scans), and
// through the groups' PREFIXes into every later one.
template <bool Exclusive, int LookbackTilesPerLane, class T, int SlotWords, int TilesPerSlot, class Op,
          class Delay>
__device__ ONEPASS_FORCEINLINE void resolve_tile_prefix_fixed_order(
    lookback::tile_state<T, SlotWords, TilesPerSlot>& state, index_t tile, const T& aggregate, const T& init, Op op,
    unsigned backoff_ns, const Delay& delay, T& tile_prefix) {
  const bool leader = lane_id() == 0;
  constexpr index_t group = 32 * LookbackTilesPerLane;
  T prefix = init;
  if (tile > 0) {
    prefix = lookback::lookback_fixed_order<LookbackTilesPerLane>(state, tile, op, backoff_ns);
    if (Exclusive && tile < group) prefix = op(init, prefix);
  }
  if (leader) {
    if (lookback::fixed_order_publishes_prefix<LookbackTilesPerLane>(tile)) {
      const T inclusive = Exclusive || tile > 0 ? op(prefix, aggregate) : aggregate;
      delay(tile, lookback::tile_status::prefix);
      state.publish(tile, lookback::tile_status::prefix, inclusive);
    }
    tile_prefix = prefix;
  }
}

}  // namespace onepass::detail
