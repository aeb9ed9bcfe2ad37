// onepass/agent/select_pipeline.cuh — the stream compaction (select_if, unique, partition)
// as persistent blocks that keep loads in flight during their lookback: a policy of the
// persistent pipeline (single_pass/pipeline.cuh) with a select's decisions and writes.
//
// Why: the one-tile kernels (agent/select.cuh, agent/select_split.cuh) hold a tile while
// their lookback waits and load nothing meanwhile. The scan's pipeline, with its stores
// cut to half of each tile as a select with half kept would write them, moved its bytes
// clearly faster than the one-tile select did (docs/perf/select.md, "The pipelined
// select").
//
// A block works on three tiles at once, one per shared-memory stage, each step:
//   C: starts the copies of the tile claimed during the last step (cp.async, global ->
//      shared), and with them asks L2 to prefetch a tile further ahead;
//   B: waits for the tile started one step earlier; each thread decides its N items
//      (blocked: items tid * N + [0, N)) into one bit an item, kept in a register for the
//      next step; the block scans the per-thread counts and publishes the tile's count;
//   A: for the tile decided a step earlier (its count is already out), every thread reads
//      its items from the stage; after a barrier warp 0 looks back while the other warps
//      pack their kept items into the same stage (packed_layout, as the one-tile kernel's
//      buffer; a partition's rejected ones from the other end), and warp 0 packs after its
//      lookback; after a second barrier the block stores them (store_packed: 16 bytes a
//      store). The first thread of warp 1 claims the next C while the block stores.
//      (Packing during the lookback was faster on every call: docs/perf/select.md,
//      "Packing during the lookback in the pipelined agent".)
// So every tile's count is published a step before its own lookback, and C's loads fly
// during A's lookback and stores. No deadlock, as in the scan's pipeline: each block
// claims tiles in increasing order (A < B < C < the next C); the smallest tile without a
// published prefix has all its predecessors' counts published, its block reaches its
// lookback waiting only on its own loads, and that lookback finds only published
// descriptors below it.
//
// The per-item work is kept branch-free: a first version that packed with a branch per
// item and addressed the stage's permuted chunks ran far slower than this one
// (docs/perf/select.md, "The pipelined select").
//
// unique needs the item before each tile: thread 0 copies the 16 bytes before the tile
// with the tile's own copies (inputs are 16-byte aligned, so they are one chunk).
//
// In place (select_if and unique with out == in) is safe: a tile publishes its count only
// after its copies have landed, a tile writes only after its lookback has seen every
// earlier tile's count, so only after every earlier tile is in shared memory; its output
// [prefix, prefix + count) never reaches past its own end, so no later tile's input. The
// 16 bytes before a tile that unique copies can be overwritten by the previous tile; of
// them unique reads only the last item, which that tile writes only when every earlier
// item was kept, and then with the value already there.
//
// Requirements (checked by the dispatcher): 4- or 8-byte items, the input and every output
// 16-byte aligned (16-byte copies; store_packed's vector path), no flags job.
#pragma once

#include <cstring>
#include <type_traits>

#include "onepass/agent/select.cuh"
#include "onepass/single_pass/pipeline.cuh"

namespace onepass::detail {

template <class T, int BlockThreads, int ItemsPerThread>
struct select_pipeline_layout {
  using loads = pipeline_layout<T, BlockThreads, ItemsPerThread>;
  static constexpr int vector = loads::vector;  // items per 16-byte chunk
  static constexpr int tile_items = loads::tile_items;
  static constexpr int tile_bytes = loads::tile_bytes;
  static constexpr int stages = 3;
  // A stage holds the tile as loaded (permuted chunks, pipeline_layout) and later its
  // packed items (packed_layout: one padding item every 128 bytes, so threads writing
  // kept items about N * (fraction kept) apart do not share banks), so it is as large as
  // the packed tile; then 16 bytes for the chunk before the tile that unique copies;
  // rounded up to whole 128-byte rows.
  using pack = packed_layout<T>;
  static constexpr int packed_bytes = pack::slots(tile_items) * static_cast<int>(sizeof(T));
  static constexpr int previous_offset = packed_bytes;
  static constexpr int stage_bytes = (packed_bytes + 16 + 127) / 128 * 128;
  static constexpr int base_alignment = loads::base_alignment;
  static constexpr int shared_bytes = stages * stage_bytes + base_alignment - 16;
  // Blocks per SM that the shared memory allows (as pipeline_layout's).
  static constexpr int resident_by_shared = arch_max_shared_bytes_per_block / (shared_bytes + 1024) > 0
                                                ? arch_max_shared_bytes_per_block / (shared_bytes + 1024)
                                                : 1;
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "the pipelined select moves 4- and 8-byte items");
  static_assert(ItemsPerThread <= 64, "a thread's decisions are one bit an item in a 64-bit mask");

  static __device__ ONEPASS_FORCEINLINE unsigned char* stage(unsigned char* memory, int s) {
    const unsigned at = static_cast<unsigned>(__cvta_generic_to_shared(memory));
    return memory + ((base_alignment - (at & (base_alignment - 1))) & (base_alignment - 1)) + s * stage_bytes;
  }
  // Item k of the tile as loaded (permuted chunks).
  static __device__ ONEPASS_FORCEINLINE const T* item(const unsigned char* stage, int k) {
    return reinterpret_cast<const T*>(stage + loads::chunk_offset(k / vector)) + k % vector;
  }
  // Packed item k: pack::slot in unsigned arithmetic (a signed division by the row costs
  // two more instructions an item), and pack::slot itself (see the packing loops).
  static __device__ ONEPASS_FORCEINLINE T* packed(unsigned char* stage, unsigned k) {
    return reinterpret_cast<T*>(stage) + (k + k / static_cast<unsigned>(pack::row));
  }
  static __device__ ONEPASS_FORCEINLINE T* signed_packed(unsigned char* stage, int k) {
    return reinterpret_cast<T*>(stage) + pack::slot(k);
  }
};

// What a tile's decision (stage B) leaves for the same tile's writes a step later (A).
template <int N>
struct select_pipeline_decision {
  std::conditional_t<(N > 32), unsigned long long, unsigned> keep = 0;  // bit j: item j kept
  int kept_before = 0;  // kept items of the tile before this thread's
  int tile_kept = 0;
};

// Partition: out_rejected receives the rejected items (otherwise it is unused, a select).
// Any grid size works; the dispatcher launches as many blocks as are resident at once,
// after clearing the tile counter and the descriptors.
template <class Job, int Threads, int N, bool Partition, class Delay, int LookbackTilesPerLane = 1>
__global__ void __launch_bounds__(
    Threads, (select_pipeline_layout<typename Job::value_type, Threads, N>::resident_by_shared))
    select_pipeline_kernel(Job job, index_t n, typename Job::value_type* out, typename Job::value_type* out_rejected,
                           index_t* count_out, select_tile_state state, lookback::tile_counter counter,
                           unsigned backoff_ns, Delay delay, index_t prefetch_tiles) {
  using T = typename Job::value_type;
  using layout = select_pipeline_layout<T, Threads, N>;
  using scan_t = block_scan<int, Threads>;
  using decision = select_pipeline_decision<N>;
  using mask_t = decltype(decision::keep);
  static_assert(!Job::reads_flags, "the pipelined select has no flags path");
  static_assert(!Partition || Job::may_partition, "this job is never a partition");
  constexpr int S = layout::stages;
  constexpr int tile_items = layout::tile_items;
  extern __shared__ __align__(16) unsigned char stage_memory[];
  __shared__ typename scan_t::storage scan_storage;
  __shared__ index_t claimed[S];
  __shared__ index_t tile_prefix;

  const int tid = static_cast<int>(threadIdx.x);
  const int warp = warp_id();
  const index_t tiles = layout::loads::num_tiles(n);
  auto stage_at = [&](int s) { return layout::stage(stage_memory, s); };
  // How many of the calling thread's items in tile `tile` exist (0 to N).
  auto valid_items = [&](index_t tile) {
    const index_t left = n - tile * tile_items - static_cast<index_t>(tid) * N;
    return left >= N ? N : left > 0 ? static_cast<int>(left) : 0;
  };

  // One cp.async group per stage, empty or not (the pipeline's group counting).
  auto start_loads = [&](int s, index_t tile) {
    if constexpr (Job::needs_previous) {
      if (tid == 0 && tile > 0 && tile < tiles)
        cp_async_16(stage_at(s) + layout::previous_offset,
                    reinterpret_cast<const unsigned char*>(job.in) + tile * layout::tile_bytes - 16);
    }
    layout::loads::start_loads(stage_at(s), job.in, tile, tiles, n, prefetch_tiles);
    return pipeline_nothing{};
  };
  auto prepare = [](pipeline_nothing, index_t) { return pipeline_nothing{}; };

  // Stage B: waits for the stage's copies (all but the newest group are complete),
  // decides the thread's items, scans the counts and publishes the tile's count (tile 0
  // publishes its prefix at its lookback instead). Ends after the scan's barrier.
  auto decide = [&](int s, index_t tile, pipeline_nothing, decision& d) {
    cp_async_wait<1>();
    __syncthreads();  // every thread's copies into stage s have landed
    if (tile >= tiles) return;  // uniform
    const unsigned char* stage = stage_at(s);
    T items[N];
    layout::loads::read_blocked(stage, items);
    const index_t first = tile * tile_items + static_cast<index_t>(tid) * N;
    const int valid = valid_items(tile);
    T previous{};
    if constexpr (Job::needs_previous)
      previous = tid > 0 ? *layout::item(stage, tid * N - 1)
                         : *reinterpret_cast<const T*>(stage + layout::previous_offset + 16 - sizeof(T));
    mask_t keep = 0;
#pragma unroll
    for (int j = 0; j < N; ++j) {
      const bool kept = j < valid && job.keep(items[j], first + j, j == 0 ? previous : items[j > 0 ? j - 1 : 0]);
      keep |= static_cast<mask_t>(kept ? 1 : 0) << j;
    }
    d.keep = keep;
    d.kept_before = 0;
    scan_t(scan_storage).exclusive_prefix(static_cast<int>(count_bits(keep)), plus{}, d.kept_before, d.tile_kept);
    if (tid == 0 && tile > 0) {
      delay(tile, lookback::tile_status::aggregate);
      state.publish(tile, lookback::tile_status::aggregate, static_cast<index_t>(d.tile_kept));
    }
  };

  // A: every thread reads its items; warp 0 looks back while the other warps pack (it
  // packs after): only its own packing follows the lookback on the step's path. Ends with
  // the packed items in the stage and the tile's prefix known; returns the stage for the
  // stores (`store`, below).
  auto pack = [&](int s, index_t tile, const decision& decided, int) {
    unsigned char* stage = stage_at(s);
    T items[N];
    layout::loads::read_blocked(stage, items);
    __syncthreads();  // every thread holds its items: the stage may be overwritten
    if (warp == 0)
      resolve_tile_prefix<false, false, LookbackTilesPerLane>(state, tile, static_cast<index_t>(decided.tile_kept),
                                                             index_t{0}, plus{}, backoff_ns, delay, tile_prefix);

    // Pack in place: kept items from the front, a partition's rejected ones from the back.
    // Every bit of the mask is a valid item; a partition's other valid items are rejected.
    // The two forms below are the fastest measured for each call (docs/perf/select.md, "The
    // pipelined select"): a select's loop with its count advanced on every item, a
    // partition's with each run's position advanced only where an item goes; each form
    // loses to the other on the other call.
    if constexpr (Partition) {
      unsigned front = static_cast<unsigned>(decided.kept_before);
#pragma unroll
      for (int j = 0; j < N; ++j) {
        if ((decided.keep >> j) & 1) {
          *layout::packed(stage, front) = items[j];
          ++front;
        }
      }
      const int valid = valid_items(tile);
      // From the end backwards: the last slot takes the first rejected item.
      unsigned back = static_cast<unsigned>(tile_items - 1 - (tid * N - decided.kept_before));
#pragma unroll
      for (int j = 0; j < N; ++j) {
        if (!((decided.keep >> j) & 1) && j < valid) {
          *layout::packed(stage, back) = items[j];
          --back;
        }
      }
    } else {
      int front = decided.kept_before;
#pragma unroll
      for (int j = 0; j < N; ++j) {
        const bool kept = ((decided.keep >> j) & 1) != 0;
        if (kept) *layout::signed_packed(stage, front) = items[j];
        front += kept ? 1 : 0;
      }
    }
    __syncthreads();  // the packed items are in stage s; the tile's prefix is known
    return stage;
  };
  auto store = [&](int, index_t tile, const decision& decided, unsigned char* stage) {
    const index_t prefix = tile_prefix;
    const int tile_kept = decided.tile_kept;
    store_packed<true, Threads>(out + prefix, tile_kept,
                                [&](int k) { return *layout::packed(stage, static_cast<unsigned>(k)); });
    if constexpr (Partition) {
      const index_t tile_begin = tile * tile_items;
      const int tile_valid = static_cast<int>(n - tile_begin < tile_items ? n - tile_begin : tile_items);
      store_packed<true, Threads>(out_rejected + (tile_begin - prefix), tile_valid - tile_kept,
                                  [&](int k) { return *layout::packed(stage, static_cast<unsigned>(tile_items - 1 - k)); });
    }
    if (tile == tiles - 1 && tid == 0) *count_out = prefix + tile_kept;
  };
  constexpr int claimer = Threads > 32 ? 32 : 0;  // thread 0 publishes
  run_persistent_pipeline<decision, false, claimer>(claimed, counter, tiles, start_loads, prepare, decide, pack, store,
                                                    [](index_t) {});
}

}  // namespace onepass::detail
