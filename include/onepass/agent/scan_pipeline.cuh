// onepass/agent/scan_pipeline.cuh — the production scan as persistent blocks that keep
// loads in flight during their lookback.
//
// Why: in the one-tile-per-block kernel (scan_tile.cuh) seven of a block's eight warps
// wait at a barrier while warp 0 looks back, with no loads in flight for that block;
// Nsight Compute puts over half of all warp cycles in that stall (docs/perf/scan.md).
//
// Here a block stays resident and works on three tiles at once, one per shared-memory
// stage, each step:
//   C: starts the loads of the tile claimed during the last step (cp.async, global ->
//      shared);
//   B: waits for the tile started one step earlier, reduces it and publishes its
//      AGGREGATE; the reduction is a block-wide scan of the thread totals, and each
//      thread keeps its prefix from it for the next step;
//   A: scans the tile started two steps earlier (its aggregate is already out) within
//      each thread only, with the thread prefixes kept from its reduction, looks back,
//      publishes its PREFIX, and stores it; while it stores, the first thread of warp 1
//      claims the next step's C.
// One block-wide scan a tile, not two: A used to scan its thread totals again, a block
// barrier and warp scans between the loads' wait and the lookback on every step
// (docs/perf/scan.md, "One block-wide scan a tile, not two").
// So C's loads are in flight during A's lookback, every tile's aggregate is published a
// step before the tile's own lookback, and the claim's round trip to L2 overlaps the
// stores instead of opening the next step. Claiming earlier still, during the lookback,
// gained a little on one sm_90 part but lost badly on another, where the lookbacks' polls
// found not-yet-published descriptors about once a tile instead of almost never: a tile
// claimed half a step before its loads start publishes its aggregate late whenever its
// block's lookback runs long, and its successors wait on it (docs/perf/scan.md, "where the
// last points go"). The same lesson at full strength: an earlier version published a
// claimed-ahead tile's aggregate only when it became the current tile, and lookbacks
// across the GPU waited on each other, a collapse far below the copy's rate. With each
// tile's loads the block also asks L2 to prefetch a tile further ahead
// (tuning: l2_prefetch_bytes), so C's loads mostly hit L2: the bytes in flight are no
// longer capped by what the blocks can hold.
//
// What the rest of the gap to the copy is, where a gap remains: the lookback's descriptor
// round trip to L2 on the block's critical path. The same kernel with no lookback runs at
// about the copy's rate; a ninth warp that looked back off the data warps' path, an early
// snapshot of the descriptors, and TMA bulk loads and stores in place of cp.async and
// st.global were all slower (docs/perf/scan.md, "Where a call's time goes beyond the
// copy's" and the dead ends after it).
//
// No deadlock: each block claims tiles in increasing order, so its A < B < C (< the next
// C, claimed during A's stores). Take the smallest tile m without a published prefix:
// its block's earlier tiles all have theirs, so the block reaches m's scan waiting only
// on its own loads, and m's lookback finds only PREFIX descriptors below m. So m gets its
// prefix, and by induction every tile does.
//
// Shared layout: a stage is the tile's bytes, unpadded, in rows of 128 bytes (eight
// 16-byte chunks) whose chunks are permuted: chunk j of row r sits in slot j ^ (r % 8).
// Both the blocked accesses (a thread's 16-byte chunks are consecutive) and the striped
// ones (consecutive threads, consecutive chunks) are then free of bank conflicts: the
// eight 16-byte accesses of a quarter-warp fall into eight different 16-byte bank groups
// for 1, 2, 4 or 8 chunks per thread. An earlier layout padded 16 bytes after every 128
// instead, equally conflict-free on paper, but it was slower at every size measured, most
// at mid sizes (docs/perf/scan.md, "The stage layout"), and a stage took 36 KiB instead of
// 32.
#pragma once

#include <cooperative_groups.h>

#include <cstring>

#include "onepass/agent/scan_tile.cuh"
#include "onepass/detail/async_copy.cuh"

namespace onepass::detail {

template <class T, int BlockThreads, int ItemsPerThread>
struct scan_pipeline_layout {
  static_assert(16 % sizeof(T) == 0, "the pipelined scan moves 16-byte chunks of whole items");
  static constexpr int vector = static_cast<int>(16 / sizeof(T));  // items per chunk
  static_assert(ItemsPerThread % vector == 0, "a thread owns whole 16-byte chunks");
  static constexpr int thread_chunks = ItemsPerThread / vector;
  static_assert(thread_chunks == 1 || thread_chunks == 2 || thread_chunks == 4 || thread_chunks == 8,
                "the padding argument covers 1, 2, 4 or 8 chunks per thread");
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
  static constexpr int tile_bytes = tile_items * static_cast<int>(sizeof(T));
  static constexpr int chunks = tile_bytes / 16;
  static constexpr int stage_bytes = tile_bytes;
  static constexpr int stages = 3;  // A, B, C above
  // The stages start at a 128-byte boundary, so that each 128-byte row of a stage is
  // one row of the 32 banks: a 128-byte line of the input then fills one row, and a
  // quarter-warp's accesses touch one row each. The dynamic shared memory begins after
  // the kernel's static variables and is only 16-byte aligned, hence the slack. Without
  // this alignment the permuted layout gained nothing (docs/perf/scan.md).
  static constexpr int base_alignment = 128;
  static constexpr int shared_bytes = stages * stage_bytes + base_alignment - 16;
  // Blocks per SM that the shared memory allows on the architecture compiled for (1 KiB
  // reserved per block). Given to __launch_bounds__ so the compiler may use every register
  // those blocks leave: without it nvcc capped the 256-thread kernel at 64 registers and
  // some instantiations spilled (docs/perf/scan.md).
  static constexpr int resident_by_shared = arch_max_shared_bytes_per_block / (shared_bytes + 1024) > 0
                                                ? arch_max_shared_bytes_per_block / (shared_bytes + 1024)
                                                : 1;
  static_assert(chunks % 8 == 0, "a stage is whole 128-byte rows");
  // Where chunk c of the tile sits in its stage (the permutation above).
  static __device__ ONEPASS_FORCEINLINE int chunk_offset(int c) { return (c & ~7) * 16 + (((c ^ (c >> 3)) & 7) << 4); }
  static constexpr ONEPASS_HD index_t num_tiles(index_t n) { return (n + tile_items - 1) / tile_items; }
  // Stage s of the kernel's dynamic shared memory `memory` (16-byte aligned).
  static __device__ ONEPASS_FORCEINLINE unsigned char* stage(unsigned char* memory, int s) {
    const unsigned at = static_cast<unsigned>(__cvta_generic_to_shared(memory));
    return memory + ((base_alignment - (at & (base_alignment - 1))) & (base_alignment - 1)) + s * stage_bytes;
  }

  // Starts the copies of tile `tile` of `in` (n items in all) into `stage`, as one
  // cp.async group. Chunk c of the tile is copied by thread c % threads, so a warp's
  // copies cover 512 contiguous bytes. Bytes past the end are zeros (a prefix never
  // depends on later items, so only the last tile's aggregate, read by nobody, sees
  // them); the caller's barrier after cp_async_wait publishes the plain shared stores of
  // the partial chunk too. The L2 prefetch goes out with a tile's loads, not with its
  // claim, so that its distance ahead of the loads does not depend on when claims are
  // made. A tile at or past `tiles` loads nothing but still commits its (empty) group,
  // so that the callers' group counting holds.
  //
  // Full tiles take an unrolled path with no per-chunk bounds code; only a partial last
  // tile takes the loop below it. With the partial chunk handled inside the unrolled loop
  // (a variable-length byte copy per chunk) the kernel was several times longer, had a
  // stack frame, and int64 ran slower (docs/perf/scan.md, "The stage layout").
  static __device__ ONEPASS_FORCEINLINE void start_loads(unsigned char* stage, const T* in, index_t tile,
                                                         index_t tiles, index_t n, index_t prefetch_tiles) {
    const index_t total_bytes = n * static_cast<index_t>(sizeof(T));
    const int tid = static_cast<int>(threadIdx.x);
    if (tile < tiles) {
      if (tid == 0) prefetch_tile_l2(in, tile, prefetch_tiles, tile_bytes, total_bytes);
      const char* src = reinterpret_cast<const char*>(in) + tile * tile_bytes;
      const index_t tile_left = total_bytes - tile * tile_bytes;
      if (tile_left >= tile_bytes) {
#pragma unroll
        for (int k = 0; k < thread_chunks; ++k) {
          const int c = k * BlockThreads + tid;
          cp_async_16(stage + chunk_offset(c), src + c * 16);
        }
      } else {
#pragma unroll 1
        for (int k = 0; k < thread_chunks; ++k) {
          const int c = k * BlockThreads + tid;
          const index_t left = tile_left - c * 16;
          unsigned char* to = stage + chunk_offset(c);
          if (left >= 16) {
            cp_async_16(to, src + c * 16);
          } else {
            // The array's last, partial chunk (or a chunk past it): whole items, zeros
            // after them. A cp.async with fewer source bytes would be a 16-byte read
            // past the allocation as far as compute-sanitizer is concerned.
            *reinterpret_cast<uint4*>(to) = uint4{0, 0, 0, 0};
            const T* from = reinterpret_cast<const T*>(src + c * 16);
            for (int i = 0; i * static_cast<index_t>(sizeof(T)) < left; ++i) reinterpret_cast<T*>(to)[i] = from[i];
          }
        }
      }
    }
    cp_async_commit();
  }

  // The calling thread's items, blocked: items tid * ItemsPerThread + [0, ItemsPerThread).
  static __device__ ONEPASS_FORCEINLINE void read_blocked(const unsigned char* stage, T (&items)[ItemsPerThread]) {
    const int tid = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int j = 0; j < thread_chunks; ++j) {  // 16-byte accesses: the compiler cannot see the alignment
      const uint4 chunk = *reinterpret_cast<const uint4*>(stage + chunk_offset(tid * thread_chunks + j));
      std::memcpy(&items[j * vector], &chunk, 16);
    }
  }
  static __device__ ONEPASS_FORCEINLINE void write_blocked(unsigned char* stage, const T (&items)[ItemsPerThread]) {
    const int tid = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int j = 0; j < thread_chunks; ++j) {
      uint4 chunk;
      std::memcpy(&chunk, &items[j * vector], 16);
      *reinterpret_cast<uint4*>(stage + chunk_offset(tid * thread_chunks + j)) = chunk;
    }
  }
  // As write_blocked, except the items whose bit is set in `keep` (bit i: the thread's
  // item i), whose slots keep what they hold: a chunk with some of them is read back and
  // merged, so every chunk is still one 16-byte store.
  static __device__ ONEPASS_FORCEINLINE void write_blocked_except(unsigned char* stage,
                                                                  const T (&items)[ItemsPerThread], unsigned keep) {
    const int tid = static_cast<int>(threadIdx.x);
    constexpr unsigned chunk_mask = (1u << vector) - 1u;
#pragma unroll
    for (int j = 0; j < thread_chunks; ++j) {
      unsigned char* const at = stage + chunk_offset(tid * thread_chunks + j);
      const unsigned kept = (keep >> (j * vector)) & chunk_mask;
      T merged[vector];
#pragma unroll
      for (int i = 0; i < vector; ++i) merged[i] = items[j * vector + i];
      if (kept != 0) {
        T old[vector];
        const uint4 held = *reinterpret_cast<const uint4*>(at);
        std::memcpy(old, &held, 16);
#pragma unroll
        for (int i = 0; i < vector; ++i)
          if ((kept >> i) & 1u) merged[i] = old[i];
      }
      uint4 chunk;
      std::memcpy(&chunk, merged, 16);
      *reinterpret_cast<uint4*>(at) = chunk;
    }
  }

  // Stores the stage as tile `tile` of `out` (n items in all): consecutive threads,
  // consecutive 16-byte chunks; a partial last tile in a loop of its own (see
  // start_loads), its last partial chunk item by item.
  static __device__ ONEPASS_FORCEINLINE void store_tile(const unsigned char* stage, T* out, index_t tile,
                                                        index_t n) {
    const index_t total_bytes = n * static_cast<index_t>(sizeof(T));
    const int tid = static_cast<int>(threadIdx.x);
    char* dst = reinterpret_cast<char*>(out) + tile * tile_bytes;
    const index_t tile_left = total_bytes - tile * tile_bytes;
    if (tile_left >= tile_bytes) {
#pragma unroll
      for (int k = 0; k < thread_chunks; ++k) {
        const int c = k * BlockThreads + tid;
        *reinterpret_cast<uint4*>(dst + c * 16) = *reinterpret_cast<const uint4*>(stage + chunk_offset(c));
      }
      return;
    }
#pragma unroll 1
    for (int k = 0; k < thread_chunks; ++k) {
      const int c = k * BlockThreads + tid;
      const index_t left = tile_left - c * 16;
      const unsigned char* from = stage + chunk_offset(c);
      if (left >= 16) {
        *reinterpret_cast<uint4*>(dst + c * 16) = *reinterpret_cast<const uint4*>(from);
      } else {
        T* to = reinterpret_cast<T*>(dst + c * 16);
        for (int i = 0; i * static_cast<index_t>(sizeof(T)) < left; ++i) to[i] = reinterpret_cast<const T*>(from)[i];
      }
    }
  }
};

// What a tile's reduction (stage B) leaves for the same tile's scan a step later (stage
// A): the calling thread's prefix within the tile (absent in thread 0) and the tile's
// aggregate. V: the scan's value, or the segmented scan's (value, head) pair.
template <class V>
struct pipeline_reduction {
  V thread_prefix;
  V aggregate;
  bool has_thread_prefix = false;
};

// For a pipelined kernel launched cooperatively, in place of the dispatcher's memset of
// its workspace: every thread of the grid clears its share of the descriptors of `tiles`
// tiles, the grid's first thread sets the counter so that the next claim returns
// `next_claim`, and a grid barrier (a grid-scope fence and a block barrier) orders both
// before any publication, descriptor read or claim. Every thread of the grid calls it.
template <int BlockThreads, class State>
__device__ ONEPASS_FORCEINLINE void clear_lookback_in_grid(const State& state, const lookback::tile_counter& counter,
                                                           index_t tiles, index_t next_claim) {
  const index_t threads = static_cast<index_t>(gridDim.x) * BlockThreads;
  const index_t rank = static_cast<index_t>(blockIdx.x) * BlockThreads + threadIdx.x;
  state.clear_part(tiles, rank, threads);
  if (rank == 0) counter.reset(next_claim);
  cooperative_groups::this_grid().sync();
}

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
template <class T, class Op, int BlockThreads, int ItemsPerThread, bool Exclusive, class Delay,
          int LookbackTilesPerLane = 1, bool ClearsWorkspace = false, int FirstLookbackTilesPerLane = 0>
__global__ void __launch_bounds__(
    BlockThreads, (scan_pipeline_layout<T, BlockThreads, ItemsPerThread>::resident_by_shared))
    scan_pipeline_kernel(const T* in, T* out, index_t n, T init, Op op,
                         scan_tile_state<T> state, lookback::tile_counter counter,
                         unsigned backoff_ns, Delay delay, index_t prefetch_tiles) {
  using layout = scan_pipeline_layout<T, BlockThreads, ItemsPerThread>;
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

  // One cp.async group per stage, empty or not, so the counting below holds.
  auto start_loads = [&](int s, index_t tile) {
    layout::start_loads(stage_at(s), in, tile, tiles, n, prefetch_tiles);
  };
  auto read_items = [&](int s, T (&items)[N]) { layout::read_blocked(stage_at(s), items); };
  using reduction = pipeline_reduction<T>;
  // Waits for the stage's loads (all but the newest group are complete), reduces the
  // tile and publishes its aggregate. Ends with the block's barrier inside the reduction.
  // The thread totals are folded in item order, as the scan's thread-local pass does, so
  // the scan can reuse the thread prefixes instead of a second block-wide scan.
  auto publish_aggregate = [&](int s, index_t tile, reduction& r) {
    cp_async_wait<1>();
    __syncthreads();  // every thread's copies into stage s have landed
    if (tile >= tiles) return;  // uniform
    T items[N];
    read_items(s, items);
    T thread_total = items[0];
#pragma unroll
    for (int i = 1; i < N; ++i) thread_total = op(thread_total, items[i]);
    r.has_thread_prefix = scan_t(reduce_storage).exclusive_prefix(thread_total, op, r.thread_prefix, r.aggregate);
    if (tid == 0 && tile > 0) {  // tile 0 publishes its prefix directly
      delay(tile, lookback::tile_status::aggregate);
      state.publish(tile, lookback::tile_status::aggregate, r.aggregate);
    }
  };

  auto claim_into = [&](int s) { claimed[s] = counter.claim(); };
  // The thread that claims each next tile: the first of warp 1 (thread 0 publishes).
  constexpr int claimer = BlockThreads > 32 ? 32 : 0;

  // Prologue: tiles for stages 0, 1 and 2 (A, B and C of step 0) claimed, the first two
  // loading; stage 0's aggregate published.
  reduction reduced_a;  // this step's A, reduced a step ago
  if constexpr (ClearsWorkspace) {
    const index_t blocks = gridDim.x;
    const index_t first = blockIdx.x;
    if (tid < S) claimed[tid] = first + tid * blocks;
    start_loads(0, first);
    start_loads(1, first + blocks);
    clear_lookback_in_grid<BlockThreads>(state, counter, tiles, S * blocks);  // while the loads fly
    publish_aggregate(0, first, reduced_a);
  } else {
    if (tid == 0) {
      claim_into(0);
      claim_into(1);
      claim_into(2);
    }
    __syncthreads();
    start_loads(0, claimed[0]);
    start_loads(1, claimed[1]);
    publish_aggregate(0, claimed[0], reduced_a);  // waits for group 0 (group 1 may still fly)
  }

  for (int step = 0;; ++step) {
    const int a = step % S, b = (step + 1) % S, c = (step + 2) % S;
    __syncthreads();  // the last claim is visible; stage c (last step's A) is no longer read
    const index_t tile = claimed[a];
    if (tile >= tiles) break;  // uniform; later claims are larger still
    start_loads(c, claimed[c]);
    reduction reduced_b;
    publish_aggregate(b, claimed[b], reduced_b);  // waits for b's group, c's may still fly

    // A's thread prefixes and aggregate come from its reduction: no block-wide scan here.
    T items[N];
    read_items(a, items);
    scan_t::scan_thread_items(items, op);
    const bool has_tile_prefix = Exclusive || tile > 0;
    if (warp == 0) {  // the aggregate went out a step ago
      if (first_window != LookbackTilesPerLane && step == 0)  // (see the tuning's field)
        resolve_tile_prefix<Exclusive, false, first_window>(state, tile, reduced_a.aggregate, init, op, backoff_ns,
                                                            delay, tile_prefix);
      else
        resolve_tile_prefix<Exclusive, false, LookbackTilesPerLane>(state, tile, reduced_a.aggregate, init, op,
                                                                    backoff_ns, delay, tile_prefix);
    }
    __syncthreads();  // the tile's prefix is known
    scan_t::template apply_prefixes<Exclusive>(items, has_tile_prefix, tile_prefix, reduced_a.has_thread_prefix,
                                               reduced_a.thread_prefix, op);
    reduced_a = reduced_b;
    layout::write_blocked(stage_at(a), items);
    __syncthreads();  // the scanned tile is in stage a

    // The next step's C: claimed now, after the step's last barrier (a barrier waits for a
    // participant's outstanding atomic), so that its round trip overlaps the stores; it
    // goes into slot a, whose tile every thread holds in `tile`, and the barrier at the
    // next step's start publishes it.
    index_t next_claim = 0;
    if (tid == claimer) next_claim = counter.claim();
    layout::store_tile(stage_at(a), out, tile, n);
    if (tid == claimer) claimed[a] = next_claim;
  }
  cp_async_wait<0>();  // no copy may outlive the block
}

}  // namespace onepass::detail
