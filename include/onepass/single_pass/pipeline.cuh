// onepass/single_pass/pipeline.cuh — the persistent pipeline every pipelined single-pass
// primitive runs: the scan (agent/scan_pipeline.cuh), the stream compaction
// (agent/select_pipeline.cuh) and the segmented scan (agent/segmented_scan_pipeline.cuh).
//
// A block stays resident and works on three tiles at once, one per shared-memory stage;
// each step, for the tiles A < B < C it holds:
//   C: starts the copies of the tile claimed during the last step (cp.async, global ->
//      shared; one group a stage, empty or not), with an L2 prefetch further ahead;
//   B: waits for the tile started one step earlier, reduces it and publishes what its
//      successors need (an AGGREGATE, or a PREFIX where the tile knows it);
//   A: finishes the tile reduced a step earlier: looks back for its prefix, applies it
//      and stores; while it stores, the first thread of warp 1 claims the next step's C.
// So C's loads fly during A's lookback, every tile's aggregate is out a step before its
// own lookback, and the claim's round trip overlaps the stores. What each primitive does
// at B and A is its policy (run_persistent_pipeline's hooks); the control flow is here.
//
// No deadlock: each block claims tiles in increasing order, so its A < B < C (< the next
// C, claimed during A's stores). Take the smallest tile m without a published prefix: its
// block's earlier tiles all have theirs, so the block reaches m's lookback waiting only
// on its own loads, and m's lookback finds only published descriptors below m. So m gets
// its prefix, and by induction every tile does.
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

#include "onepass/block/block_load_store.cuh"
#include "onepass/detail/async_copy.cuh"
#include "onepass/single_pass/lookback.cuh"

namespace onepass::detail {

template <class T, int BlockThreads, int ItemsPerThread>
struct pipeline_layout {
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

  // One 16-byte chunk of whole items into the stage: one cp.async, or (Aligned = false)
  // one per item.
  template <bool Aligned>
  static __device__ ONEPASS_FORCEINLINE void copy_chunk(unsigned char* to, const char* from) {
    if constexpr (Aligned) {
      cp_async_16(to, from);
    } else {
#pragma unroll
      for (int i = 0; i < vector; ++i)
        cp_async_element<sizeof(T)>(to + i * sizeof(T), from + i * static_cast<int>(sizeof(T)));
    }
  }
  // Stores one chunk of the stage: one 16-byte store, or (Aligned = false) one per item.
  template <bool Aligned>
  static __device__ ONEPASS_FORCEINLINE void store_chunk(char* to, const unsigned char* from) {
    if constexpr (Aligned) {
      *reinterpret_cast<uint4*>(to) = *reinterpret_cast<const uint4*>(from);
    } else {
#pragma unroll
      for (int i = 0; i < vector; ++i) reinterpret_cast<T*>(to)[i] = reinterpret_cast<const T*>(from)[i];
    }
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
  //
  // Aligned = false: `in` is aligned to T only (the deterministic scan, which runs this
  // pipeline whatever the alignment): each chunk is copied item by item (cp.async of 4 or
  // 8 bytes), into the same places, so the stage holds the same tile either way.
  template <bool Aligned = true>
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
          copy_chunk<Aligned>(stage + chunk_offset(c), src + c * 16);
        }
      } else {
#pragma unroll 1
        for (int k = 0; k < thread_chunks; ++k) {
          const int c = k * BlockThreads + tid;
          const index_t left = tile_left - c * 16;
          unsigned char* to = stage + chunk_offset(c);
          if (left >= 16) {
            copy_chunk<Aligned>(to, src + c * 16);
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
  // Aligned = false: `out` aligned to T only, one store an item.
  template <bool Aligned = true>
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
        store_chunk<Aligned>(dst + c * 16, stage + chunk_offset(c));
      }
      return;
    }
#pragma unroll 1
    for (int k = 0; k < thread_chunks; ++k) {
      const int c = k * BlockThreads + tid;
      const index_t left = tile_left - c * 16;
      const unsigned char* from = stage + chunk_offset(c);
      if (left >= 16) {
        store_chunk<Aligned>(dst + c * 16, from);
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

// What a hook returns where it has nothing to hand on (a scan's loads leave nothing in
// registers; its A leaves nothing for its stores).
struct pipeline_nothing {};

// The pipeline's control flow, for every pipelined kernel; each hook is one of the
// kernel's lambdas (forced inline, so the kernel compiles as if written out):
//   start(s, tile) -> Inflight       C: starts tile's copies into stage s (one cp.async
//                                    group, even for a tile past the end), returns what
//                                    the loads leave in registers for B
//   prepare(inflight, tile) -> Ready B's register work that must not wait on C's loads
//                                    (run before C's copies are issued)
//   reduce(s, tile, ready, Carried&) B: waits for stage s, reduces, publishes; ends after a
//                                    block barrier; fills what A needs a step later
//   finish(s, tile, Carried&, step) -> Finished
//                                    A up to its last block barrier (lookback, prefix,
//                                    the result in stage s or in registers)
//   store(s, tile, Carried&, Finished&)  A's stores, while the next claim flies
//   clear(next_claim)                ClearsWorkspace: the grid clears the lookback's state
//                                    and sets the counter to next_claim
//                                    (clear_lookback_in_grid) while the first loads fly
// claimed: the block's __shared__ slots of the tiles of its three stages. Claimer: the
// thread that claims (not thread 0, which publishes). ClearsWorkspace: the kernel is
// launched cooperatively and takes its first three tiles without the counter (b, b + G,
// b + 2G for block b of G: the tiles the first claims would hand out), the counter being
// set to 3G by clear().
template <class Carried, bool ClearsWorkspace, int Claimer, class Start, class Prepare, class Reduce, class Finish,
          class Store, class Clear>
__device__ ONEPASS_FORCEINLINE void run_persistent_pipeline(index_t (&claimed)[3], const lookback::tile_counter& counter,
                                                            index_t tiles, Start start, Prepare prepare, Reduce reduce,
                                                            Finish finish, Store store, Clear clear) {
  constexpr int S = 3;
  const int tid = static_cast<int>(threadIdx.x);
  // Prologue: the tiles of stages 0, 1 and 2 (A, B and C of step 0), the first two
  // loading, stage 0's reduced.
  index_t first_tile, second_tile;
  [[maybe_unused]] const index_t blocks = gridDim.x;
  if constexpr (ClearsWorkspace) {
    first_tile = blockIdx.x;
    second_tile = first_tile + blocks;
    if (tid < S) claimed[tid] = first_tile + tid * blocks;
  } else {
    if (tid == 0) {
      claimed[0] = counter.claim();
      claimed[1] = counter.claim();
      claimed[2] = counter.claim();
    }
    __syncthreads();
    first_tile = claimed[0];
    second_tile = claimed[1];
  }
  const auto inflight_a = start(0, first_tile);
  auto inflight_b = start(1, second_tile);
  if constexpr (ClearsWorkspace) clear(S * blocks);  // while the loads fly
  Carried carried_a;                       // this step's A, reduced a step ago
  reduce(0, first_tile, prepare(inflight_a, first_tile), carried_a);

  for (int step = 0;; ++step) {
    const int a = step % S, b = (step + 1) % S, c = (step + 2) % S;
    __syncthreads();  // the last claim is visible; stage c (last step's A) is no longer read
    const index_t tile = claimed[a];
    if (tile >= tiles) break;  // uniform; later claims are larger still
    const auto ready_b = prepare(inflight_b, claimed[b]);
    const auto inflight_c = start(c, claimed[c]);
    Carried carried_b;
    reduce(b, claimed[b], ready_b, carried_b);  // waits for b's group; c's may still fly
    auto finished = finish(a, tile, carried_a, step);

    // The next step's C: claimed after the step's last barrier (a barrier waits for a
    // participant's outstanding atomic), so that its round trip overlaps the stores; it
    // goes into slot a, whose tile every thread holds in `tile`, and the barrier at the
    // next step's start publishes it.
    index_t next_claim = 0;
    if (tid == Claimer) next_claim = counter.claim();
    store(a, tile, carried_a, finished);
    if (tid == Claimer) claimed[a] = next_claim;
    carried_a = carried_b;
    inflight_b = inflight_c;
  }
  cp_async_wait<0>();  // no copy may outlive the block
}

}  // namespace onepass::detail
