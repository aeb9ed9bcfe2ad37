// onepass/agent/scan_pipeline.cuh — the production scan as persistent blocks that keep
// loads in flight during their lookback.
//
// Why: in the one-tile-per-block kernel (scan_tile.cuh) seven of a block's eight warps
// wait at a barrier while warp 0 looks back, with no loads in flight for that block;
// Nsight Compute puts over half of all warp cycles in that stall (docs/perf/scan.md).
//
// Here the scan is a policy of the persistent pipeline (single_pass/pipeline.cuh: three
// tiles in flight a block, C loading, B reduced and published, A finished):
//   B: the reduction is a block-wide scan of the thread totals; each thread keeps its
//      prefix from it for the next step, and thread 0 publishes the tile's AGGREGATE;
//   A: scans the tile within each thread only, with the thread prefixes kept from its
//      reduction, looks back, publishes its PREFIX, and stores it.
// One block-wide scan a tile, not two: A used to scan its thread totals again, a block
// barrier and warp scans between the loads' wait and the lookback on every step
// (docs/perf/scan.md, "One block-wide scan a tile, not two").
// Claiming earlier than during A's stores, during the lookback, gained a little on one
// sm_90 part but lost badly on another, where the lookbacks' polls found not-yet-published
// descriptors about once a tile instead of almost never: a tile claimed half a step before
// its loads start publishes its aggregate late whenever its block's lookback runs long,
// and its successors wait on it (docs/perf/scan.md, "where the last points go"). The same
// lesson at full strength: an earlier version published a claimed-ahead tile's aggregate
// only when it became the current tile, and lookbacks across the GPU waited on each
// other, a collapse far below the copy's rate. With each tile's loads the block also asks
// L2 to prefetch a tile further ahead (tuning: l2_prefetch_bytes), so C's loads mostly hit
// L2: the bytes in flight are no longer capped by what the blocks can hold.
//
// What the rest of the gap to the copy is, where a gap remains: the lookback's descriptor
// round trip to L2 on the block's critical path. The same kernel with no lookback runs at
// about the copy's rate; a ninth warp that looked back off the data warps' path, an early
// snapshot of the descriptors, and TMA bulk loads and stores in place of cp.async and
// st.global were all slower (docs/perf/scan.md, "Where a call's time goes beyond the
// copy's" and the dead ends after it).
#pragma once

#include "onepass/agent/scan_tile.cuh"
#include "onepass/single_pass/pipeline.cuh"

namespace onepass::detail {

// in and out 16-byte aligned. Any grid size works (see above); the dispatcher launches
// as many blocks as are resident at once.
//
// ClearsWorkspace: the kernel is launched cooperatively (every block resident) and needs
// no cleared workspace, so the dispatcher's memset and its launch go away. Block b takes
// tiles b, b + G and b + 2G for its first three stages without the counter (G blocks;
// the same tiles, in the same order, that the first claims hand out when all blocks start
// together), and while the first two tiles' loads fly the grid clears the descriptors,
// block 0 sets the counter to 3G, and a grid barrier orders both before the first
// publication and the first claim. The deadlock argument above still holds: each block's
// tiles increase (b < b + G < b + 2G < every later claim).
//
// LookbackTilesPerLane: the lookback's window (lookback_warp); FirstLookbackTilesPerLane:
// the window of each block's first tile, 0 for the same (the tuning's fields).
//
// FixedOrder: the deterministic scan (device/dispatch_scan.cuh, determinism): every tile
// publishes its AGGREGATE, tile 0's too, and looks back in the fixed order of
// lookback_fixed_order (groups of 32 * LookbackTilesPerLane tiles), so the bits depend on
// the tile shape and n alone. Aligned = false: in and out aligned to T only, copied and
// stored item by item into and out of the same stages (the same combination order).
template <class T, class Op, int BlockThreads, int ItemsPerThread, bool Exclusive, class Delay,
          int LookbackTilesPerLane = 1, bool ClearsWorkspace = false, int FirstLookbackTilesPerLane = 0,
          bool FixedOrder = false, bool Aligned = true>
__global__ void __launch_bounds__(
    BlockThreads, (pipeline_layout<T, BlockThreads, ItemsPerThread>::resident_by_shared))
    scan_pipeline_kernel(const T* in, T* out, index_t n, T init, Op op,
                         scan_tile_state<T> state, lookback::tile_counter counter,
                         unsigned backoff_ns, Delay delay, index_t prefetch_tiles) {
  using layout = pipeline_layout<T, BlockThreads, ItemsPerThread>;
  using scan_t = block_scan<T, BlockThreads>;
  constexpr int N = ItemsPerThread;
  constexpr int S = layout::stages;
  constexpr int first_window = FirstLookbackTilesPerLane > 0 ? FirstLookbackTilesPerLane : LookbackTilesPerLane;
  extern __shared__ __align__(16) unsigned char stage_memory[];
  __shared__ typename scan_t::storage reduce_storage;
  __shared__ index_t claimed[S];
  __shared__ T tile_prefix;

  const int tid = static_cast<int>(threadIdx.x);
  const int warp = warp_id();
  const index_t tiles = layout::num_tiles(n);
  auto stage_at = [&](int s) { return layout::stage(stage_memory, s); };

  // C: one cp.async group per stage, empty or not (the pipeline's group counting).
  auto start_loads = [&](int s, index_t tile) {
    layout::template start_loads<Aligned>(stage_at(s), in, tile, tiles, n, prefetch_tiles);
    return pipeline_nothing{};
  };
  auto prepare = [](pipeline_nothing, index_t) { return pipeline_nothing{}; };
  auto read_items = [&](int s, T (&items)[N]) { layout::read_blocked(stage_at(s), items); };
  using reduction = pipeline_reduction<T>;
  // B: waits for the stage's loads (all but the newest group are complete), reduces the
  // tile and publishes its aggregate. Ends with the block's barrier inside the reduction.
  // The thread totals are folded in item order, as the scan's thread-local pass does, so
  // the scan can reuse the thread prefixes instead of a second block-wide scan.
  auto publish_aggregate = [&](int s, index_t tile, pipeline_nothing, reduction& r) {
    cp_async_wait<1>();
    __syncthreads();  // every thread's copies into stage s have landed
    if (tile >= tiles) return;  // uniform
    T items[N];
    read_items(s, items);
    T thread_total = items[0];
#pragma unroll
    for (int i = 1; i < N; ++i) thread_total = op(thread_total, items[i]);
    r.has_thread_prefix = scan_t(reduce_storage).exclusive_prefix(thread_total, op, r.thread_prefix, r.aggregate);
    if (tid == 0 && (FixedOrder || tile > 0)) {  // tile 0 publishes its prefix directly (not FixedOrder)
      delay(tile, lookback::tile_status::aggregate);
      state.publish(tile, lookback::tile_status::aggregate, r.aggregate);
    }
  };
  // A: its thread prefixes and aggregate come from its reduction: no block-wide scan here.
  // Ends with the scanned tile in its stage.
  auto finish_tile = [&](int s, index_t tile, const reduction& reduced, int step) {
    T items[N];
    read_items(s, items);
    scan_t::scan_thread_items(items, op);
    const bool has_tile_prefix = Exclusive || tile > 0;
    if constexpr (FixedOrder) {
      if (warp == 0)
        resolve_tile_prefix_fixed_order<Exclusive, LookbackTilesPerLane>(state, tile, reduced.aggregate, init, op,
                                                                         backoff_ns, delay, tile_prefix);
    } else if (warp == 0) {  // the aggregate went out a step ago
      if (first_window != LookbackTilesPerLane && step == 0)  // (see the tuning's field)
        resolve_tile_prefix<Exclusive, false, first_window>(state, tile, reduced.aggregate, init, op, backoff_ns,
                                                            delay, tile_prefix);
      else
        resolve_tile_prefix<Exclusive, false, LookbackTilesPerLane>(state, tile, reduced.aggregate, init, op,
                                                                    backoff_ns, delay, tile_prefix);
    }
    __syncthreads();  // the tile's prefix is known
    scan_t::template apply_prefixes<Exclusive>(items, has_tile_prefix, tile_prefix, reduced.has_thread_prefix,
                                               reduced.thread_prefix, op);
    layout::write_blocked(stage_at(s), items);
    __syncthreads();  // the scanned tile is in stage s
    return pipeline_nothing{};
  };
  auto store = [&](int s, index_t tile, const reduction&, pipeline_nothing) {
    layout::template store_tile<Aligned>(stage_at(s), out, tile, n);
  };
  auto clear = [&](index_t next_claim) { clear_lookback_in_grid<BlockThreads>(state, counter, tiles, next_claim); };
  constexpr int claimer = BlockThreads > 32 ? 32 : 0;  // thread 0 publishes
  run_persistent_pipeline<reduction, ClearsWorkspace, claimer>(claimed, counter, tiles, start_loads, prepare,
                                                                publish_aggregate, finish_tile, store, clear);
}

}  // namespace onepass::detail
