// onepass/agent/scan_pipeline.cuh — the production scan as persistent, pipelined blocks.
//
// Why: in the one-tile-per-block kernel (scan_tile.cuh) seven of a block's eight warps
// sit at a barrier while warp 0 looks back, and no loads are in flight for that block
// meanwhile; Nsight Compute puts 56% of warp time in that barrier stall (docs/perf/
// scan.md). Here a block stays resident and claims its next tile before it scans the
// current one, and the next tile's loads (cp.async, global -> shared, no registers) are
// in flight during the current tile's lookback and stores.
//
// Per block, with S stages (S - 1 tiles ahead):
//   prologue: claim and start loading S - 1 tiles;
//   each step: claim one more tile and start its loads into the free stage (barrier A);
//              wait for the oldest stage (barrier B); each thread reads its items in
//              blocked order from shared memory; thread scan, block scan, warp 0's
//              lookback (barrier C); fold the prefix in, write the items back into the
//              stage (barrier D); store the stage to global memory with 128-bit stores,
//              striped, so a warp's stores are contiguous.
// Barrier A of the next step also orders this step's reads of the stage before any new
// copy into it.
//
// Why no deadlock: tiles are claimed in increasing order and each block processes its
// claims in order, so a block's claimed-ahead tiles are all later than the tile it is
// working on. The smallest unfinished tile is therefore some resident block's current
// tile, and everything it waits for (the descriptors of smaller tiles) is published.
//
// Shared layout: a stage is the tile's bytes with a 16-byte pad after every 128 bytes,
// which makes both the blocked reads (each thread's 16-byte chunks are consecutive) and
// the striped accesses (consecutive threads, consecutive chunks) free of bank conflicts:
// the eight 16-byte accesses a quarter-warp makes fall in eight different 16-byte bank
// groups for every per-thread chunk count of 1, 2, 4 or 8.
#pragma once

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
  static constexpr int stage_bytes = (chunks + chunks / 8) * 16;
  static __device__ ONEPASS_FORCEINLINE int chunk_offset(int c) { return (c + c / 8) * 16; }
};

template <class T, int BlockThreads, int ItemsPerThread, int Stages>
constexpr int scan_pipeline_shared_bytes() {
  return Stages * scan_pipeline_layout<T, BlockThreads, ItemsPerThread>::stage_bytes;
}

// in and out 16-byte aligned; gridDim.x <= tiles, every block resident at once is not
// required (see above) but is what the dispatcher launches.
template <class T, class Op, int BlockThreads, int ItemsPerThread, int Stages, bool Exclusive,
          class Delay>
__global__ void __launch_bounds__(BlockThreads)
    scan_pipeline_kernel(const T* in, T* out, index_t n, T init, Op op,
                         lookback::tile_state<T> state, lookback::tile_counter counter,
                         unsigned backoff_ns, Delay delay) {
  static_assert(Stages >= 2, "one stage to work on, at least one to load into");
  using layout = scan_pipeline_layout<T, BlockThreads, ItemsPerThread>;
  constexpr int N = ItemsPerThread;
  constexpr int V = layout::vector;
  constexpr int C = layout::thread_chunks;
  extern __shared__ __align__(16) unsigned char stage_memory[];
  __shared__ typename block_scan<T, BlockThreads>::storage scan_storage;
  __shared__ index_t claimed[Stages];
  __shared__ T tile_prefix;

  const int tid = static_cast<int>(threadIdx.x);
  const int lane = lane_id();
  const int warp = warp_id();
  const index_t tiles = (n + layout::tile_items - 1) / layout::tile_items;
  const index_t total_bytes = n * static_cast<index_t>(sizeof(T));

  // Starts loading `tile` into `stage`: chunk c of the tile is read by thread c % threads,
  // so each warp's copies cover 512 contiguous bytes. Chunks past the end are zero-filled.
  auto start_loads = [&](int stage, index_t tile) {
    if (tile >= tiles) return;
    unsigned char* dst = stage_memory + stage * layout::stage_bytes;
    const char* src = reinterpret_cast<const char*>(in);
    const index_t tile_begin = tile * layout::tile_bytes;
#pragma unroll
    for (int k = 0; k < C; ++k) {
      const int c = k * BlockThreads + tid;
      const index_t begin = tile_begin + static_cast<index_t>(c) * 16;
      const index_t left = total_bytes - begin;
      const int valid = left >= 16 ? 16 : left > 0 ? static_cast<int>(left) : 0;
      cp_async_16(dst + layout::chunk_offset(c), valid > 0 ? src + begin : src, valid);
    }
  };

  // Claims go through one shared slot per stage; the next tile is claimed by warp 0's
  // lane 0 right after the current tile's lookback (see the log: claiming it before the
  // lookback delays every claimed-ahead tile's aggregate by a whole step, and lookbacks
  // across the GPU then wait on each other).
  if (tid == 0) claimed[0] = counter.claim();
  __syncthreads();
  start_loads(0, claimed[0]);
  cp_async_commit();

  for (int step = 0;; ++step) {
    const int s = step % Stages;
    const int next = (step + 1) % Stages;
    const index_t tile = claimed[s];
    if (tile >= tiles) break;  // uniform: read after a barrier by every thread
    cp_async_wait<0>();  // this thread's copies into stage s are done
    __syncthreads();     // B: everyone's are
    unsigned char* stage = stage_memory + s * layout::stage_bytes;
    T items[N];
#pragma unroll
    for (int j = 0; j < C; ++j)
      std::memcpy(&items[j * V], stage + layout::chunk_offset(tid * C + j), 16);

    // Items past the end are zeros; a prefix never depends on later items, so only the
    // last tile's aggregate (read by nobody) sees them.
    block_scan<T, BlockThreads> scan(scan_storage);
    scan.scan_thread_items(items, op);
    T thread_prefix, aggregate;
    const bool has_thread_prefix = scan.exclusive_prefix(items[N - 1], op, thread_prefix, aggregate);
    const bool has_tile_prefix = Exclusive || tile > 0;
    if (warp == 0) {
      if (tile == 0) {
        if (lane == 0) {
          delay(tile, lookback::tile_status::prefix);
          state.publish(tile, lookback::tile_status::prefix, Exclusive ? op(init, aggregate) : aggregate);
          tile_prefix = init;
        }
      } else {
        if (lane == 0) {
          delay(tile, lookback::tile_status::aggregate);
          state.publish(tile, lookback::tile_status::aggregate, aggregate);
        }
        const T prefix = lookback::lookback_warp(state, tile, op, backoff_ns);
        if (lane == 0) {
          delay(tile, lookback::tile_status::prefix);
          state.publish(tile, lookback::tile_status::prefix, op(prefix, aggregate));
          tile_prefix = prefix;
        }
      }
      if (lane == 0) claimed[next] = counter.claim();
    }
    __syncthreads();  // C: the tile's prefix and the next claim are known
    start_loads(next, claimed[next]);  // in flight during this tile's stores
    cp_async_commit();
    block_scan<T, BlockThreads>::template apply_prefixes<Exclusive>(
        items, has_tile_prefix, tile_prefix, has_thread_prefix, thread_prefix, op);
#pragma unroll
    for (int j = 0; j < C; ++j)
      std::memcpy(stage + layout::chunk_offset(tid * C + j), &items[j * V], 16);
    __syncthreads();  // D: the scanned tile is in the stage

    char* dst = reinterpret_cast<char*>(out);
    const index_t tile_begin = tile * layout::tile_bytes;
#pragma unroll
    for (int k = 0; k < C; ++k) {
      const int c = k * BlockThreads + tid;
      const index_t begin = tile_begin + static_cast<index_t>(c) * 16;
      const unsigned char* chunk = stage + layout::chunk_offset(c);
      if (begin + 16 <= total_bytes) {
        *reinterpret_cast<uint4*>(dst + begin) = *reinterpret_cast<const uint4*>(chunk);
      } else if (begin < total_bytes) {  // the last, partial chunk: whole items only
        for (int b = 0; begin + b < total_bytes; b += static_cast<int>(sizeof(T)))
          std::memcpy(dst + begin + b, chunk + b, sizeof(T));
      }
    }
  }
  cp_async_wait<0>();  // no copy may outlive the block
}

}  // namespace onepass::detail
