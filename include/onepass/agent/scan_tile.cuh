// onepass/agent/scan_tile.cuh — the production scan's work on one tile.
//
// One block per tile, tiles claimed in execution order. Per tile:
//   1. each warp loads its contiguous segment (32 * N items) with 128-bit loads,
//      vector-striped, and transposes it to blocked order through shared memory
//      (a per-warp exchange: only __syncwarp, no block barrier);
//   2. each thread scans its N items sequentially, the block scans the thread totals
//      (warp shuffles + one barrier);
//   3. warp 0 publishes the tile's aggregate, looks back with all 32 lanes, publishes the
//      inclusive prefix, and broadcasts the exclusive prefix (second barrier);
//   4. each thread folds the prefix into its items, the warp transposes back and stores
//      with 128-bit stores.
// Global memory is read once and written once: one pass.
#pragma once

#include <type_traits>

#include "onepass/block/block_exchange.cuh"
#include "onepass/detail/async_copy.cuh"
#include "onepass/block/block_load_store.cuh"
#include "onepass/block/block_scan.cuh"
#include "onepass/single_pass/lookback.cuh"
#include "onepass/single_pass/tile_prefix.cuh"

namespace onepass::detail {

// The plain scan's descriptors (both lookback agents and the dispatcher's workspace).
// One-word descriptors (4-byte values) go two tiles to a slot of four words, so that a
// lane of the pipelined agent's lookback reads its two tiles with one 16-byte load: the
// same 16 bytes a tile and two tiles a 32-byte sector as one tile to a slot of two words,
// half the load requests a poll. A small gain, slightly more than packing four tiles to a
// sector instead (slots of two words) (docs/perf/scan.md, "Two tiles a slot").
template <class T>
using scan_tile_state = std::conditional_t<lookback::tile_state<T>::words_per_tile == 1,
                                           lookback::tile_state<T, 4, 2>, lookback::tile_state<T>>;

template <class T, int BlockThreads, int ItemsPerThread, int V>
struct scan_tile_shared {
  using scan_t = block_scan<T, BlockThreads>;
  using exchange_t = warp_exchange<T, ItemsPerThread, V>;
  typename exchange_t::storage exchange[BlockThreads / 32];
  typename scan_t::storage scan;
  T tile_prefix;
  index_t tile;
};

// A tile's first steps, the same in both one-tile-per-block agents (this file's and
// scan_single_wave.cuh's): load the warp's items striped (128-bit where aligned, nothing
// past the end), make them blocked, scan each thread's items, then the thread totals
// across the block. Returns whether the thread has a prefix within the tile (thread 0 has
// none). Items past the end of the input hold garbage; a prefix never depends on later
// items, so only the last tile's aggregate (read by nobody) is affected.
template <int BlockThreads, int V, class T, int N, class Exchange, class Op>
__device__ ONEPASS_FORCEINLINE bool load_and_scan_tile(const T* warp_in, long long warp_valid, int lane,
                                                       Exchange& exchange,
                                                       typename block_scan<T, BlockThreads>::storage& scan_storage,
                                                       T (&items)[N], Op op, T& thread_prefix, T& aggregate) {
  load_vector_striped<32, V>(warp_in, items, lane, warp_valid);
  exchange.striped_to_blocked(items, items);
  block_scan<T, BlockThreads> scan(scan_storage);
  scan.scan_thread_items(items, op);
  return scan.exclusive_prefix(items[N - 1], op, thread_prefix, aggregate);
}

// Exclusive: out[i] = init op in[0] op ... op in[i-1]; otherwise out[i] = in[0] op ... op in[i].
// The inclusive prefixes published include init, so the lookback result already does.
template <class T, class Op, int BlockThreads, int ItemsPerThread, int V, bool Exclusive,
          class Delay, int MinBlocksPerSM = 0>
__global__ void __launch_bounds__(BlockThreads, MinBlocksPerSM)
    scan_kernel(const T* in, T* out, index_t n, T init, Op op, scan_tile_state<T> state,
                lookback::tile_counter counter, unsigned backoff_ns, Delay delay,
                index_t prefetch_tiles) {
  constexpr int N = ItemsPerThread;
  constexpr index_t tile_items = static_cast<index_t>(BlockThreads) * N;
  constexpr int warp_items = 32 * N;
  using shared_t = scan_tile_shared<T, BlockThreads, N, V>;
  __shared__ shared_t shared;

  const int lane = lane_id();
  const int warp = warp_id();
  if (threadIdx.x == 0) {
    shared.tile = counter.claim();
    prefetch_tile_l2(in, shared.tile, prefetch_tiles, tile_items * static_cast<index_t>(sizeof(T)),
                     n * static_cast<index_t>(sizeof(T)));
  }
  __syncthreads();
  const index_t tile = shared.tile;
  const index_t tile_begin = tile * tile_items;
  const index_t warp_begin = tile_begin + static_cast<index_t>(warp) * warp_items;
  const long long warp_valid = n - warp_begin;  // may be <= 0 in the last tile

  T items[N];
  typename shared_t::exchange_t exchange(shared.exchange[warp], lane);
  T thread_prefix, aggregate;
  const bool has_thread_prefix = load_and_scan_tile<BlockThreads, V>(in + warp_begin, warp_valid, lane, exchange,
                                                                     shared.scan, items, op, thread_prefix, aggregate);

  const bool has_tile_prefix = Exclusive || tile > 0;
  if (warp == 0) {
    // Warp 0's items wait in its exchange slots during the lookback: held in registers
    // beside the lookback's, they set the kernel's register peak (docs/perf/scan.md).
    exchange.save_blocked(items);
    resolve_tile_prefix<Exclusive, true>(state, tile, aggregate, init, op, backoff_ns, delay,
                                         shared.tile_prefix);
    exchange.restore_blocked(items);
  }
  __syncthreads();

  block_scan<T, BlockThreads>::template apply_prefixes<Exclusive>(
      items, has_tile_prefix, shared.tile_prefix, has_thread_prefix, thread_prefix, op);

  exchange.blocked_to_striped(items, items);
  store_vector_striped<32, V>(out + warp_begin, items, lane, warp_valid);
}

}  // namespace onepass::detail
