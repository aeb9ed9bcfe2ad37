// onepass/agent/scan_single_wave.cuh — the production scan when every tile fits on the
// GPU at once: one tile per block, all blocks resident (a cooperative launch), and one
// grid barrier in place of the lookback.
//
// Per tile (tile = blockIdx.x):
//   1. load, transpose and scan the tile as the one-tile agent does (agent/scan_tile.cuh);
//   2. thread 0 writes the tile's aggregate to aggregates[tile] in the workspace;
//   3. grid barrier: every aggregate is written and visible;
//   4. warp 0 folds aggregates[0, tile) in order into the tile's exclusive prefix; the
//      tile's items stayed in registers across the barrier, so they are read once;
//   5. fold the prefix in, transpose back, store.
//
// Why: at small sizes the scan's time is mostly fixed costs. This path has one launch and
// no workspace to clear (every aggregate is written before the barrier and read after
// it), where the lookback path needs a memset and a kernel; and it has no chain of
// waits. It needs every block resident at once, which a cooperative launch guarantees
// or refuses; the dispatcher only takes it when the tile count fits (docs/perf/scan.md).
#pragma once

#include <cooperative_groups.h>

#include "onepass/agent/scan_tile.cuh"
#include "onepass/warp/warp_reduce.cuh"

namespace onepass::detail {

// Combination of aggregates[0, count) in order, in lane 0 of the calling warp (count > 0;
// all 32 lanes call). Lane l folds a contiguous run of ceil(count / 32) aggregates; the
// runs are then reduced in lane order, so a non-commutative op sees the input order.
template <class T, class Op>
__device__ ONEPASS_FORCEINLINE T reduce_aggregates_in_order(const T* aggregates, index_t count, Op op) {
  const int lane = lane_id();
  const index_t run = (count + warp_threads - 1) / warp_threads;
  const index_t begin = static_cast<index_t>(lane) * run;
  const index_t end = begin + run < count ? begin + run : count;
  T x{};
  if (begin < end) {
    x = aggregates[begin];
    for (index_t i = begin + 1; i < end; ++i) x = op(x, aggregates[i]);
  }
  const int lanes_with_runs = static_cast<int>((count + run - 1) / run);
  return warp_reduce<T>::reduce_to_lane0(x, op, lanes_with_runs);
}

// Exclusive: out[i] = init op in[0] op ... op in[i-1]; otherwise out[i] = in[0] op ... op
// in[i]. `aggregates` holds gridDim.x values of T (no initial contents needed). Must be
// launched cooperatively with one block per tile.
template <class T, class Op, int BlockThreads, int ItemsPerThread, int V, bool Exclusive, int MinBlocksPerSM = 0>
__global__ void __launch_bounds__(BlockThreads, MinBlocksPerSM)
    scan_single_wave_kernel(const T* in, T* out, index_t n, T init, Op op, T* aggregates) {
  constexpr int N = ItemsPerThread;
  constexpr index_t tile_items = static_cast<index_t>(BlockThreads) * N;
  constexpr int warp_items = 32 * N;
  using shared_t = scan_tile_shared<T, BlockThreads, N, V>;
  __shared__ shared_t shared;

  const int lane = lane_id();
  const int warp = warp_id();
  const index_t tile = blockIdx.x;
  const index_t warp_begin = tile * tile_items + static_cast<index_t>(warp) * warp_items;
  const long long warp_valid = n - warp_begin;  // may be <= 0 in the last tile

  T items[N];
  typename shared_t::exchange_t exchange(shared.exchange[warp], lane);
  T thread_prefix, aggregate;
  const bool has_thread_prefix = load_and_scan_tile<BlockThreads, V>(in + warp_begin, warp_valid, lane, exchange,
                                                                     shared.scan, items, op, thread_prefix, aggregate);
  if (threadIdx.x == 0) aggregates[tile] = aggregate;

  // The barrier orders every block's aggregate store before every block's loads below
  // (grid.sync() carries a grid-scope fence).
  cooperative_groups::this_grid().sync();

  const bool has_tile_prefix = Exclusive || tile > 0;
  if (warp == 0 && has_tile_prefix) {
    T prefix = init;
    if (tile > 0) {
      const T earlier = reduce_aggregates_in_order(aggregates, tile, op);
      prefix = Exclusive ? op(init, earlier) : earlier;
    }
    if (lane == 0) shared.tile_prefix = prefix;
  }
  __syncthreads();

  block_scan<T, BlockThreads>::template apply_prefixes<Exclusive>(
      items, has_tile_prefix, shared.tile_prefix, has_thread_prefix, thread_prefix, op);

  exchange.blocked_to_striped(items, items);
  store_vector_striped<32, V>(out + warp_begin, items, lane, warp_valid);
}

}  // namespace onepass::detail
