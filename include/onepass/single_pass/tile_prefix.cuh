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

}  // namespace onepass::detail
