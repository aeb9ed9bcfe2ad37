// onepass/agent/select_split.cuh — the production stream compaction's kernel for 4- and
// 8-byte items on a 16-byte aligned input: each tile split between registers and shared
// memory.
//
// Why: a block holds its tile while it waits for its lookback, and that wait is longer
// than the load (docs/perf/select.md), so the bytes in flight per SM are what the
// waiting tiles hold. The one-tile kernel (agent/select.cuh) holds its tile in registers
// and then packs the kept items into shared memory, so each item takes room in both.
// Here a tile's first part is loaded into registers and its second part copied by
// cp.async into shared memory, where it stays: the two storages hold different items,
// and the kept ones go from wherever they are straight to global memory, each warp
// ranking them with ballots. No packing buffer, no transposes.
//
// Tile layout (Threads * Rows + SharedItems items, W = Threads / 32 warps):
//   [warp 0's register segment | ... | warp W-1's][warp 0's shared segment | ... ]
// A register segment is Rows rows of 32 items: lane l holds item 32 r + l of row r in
// items[r]. A shared segment is SharedItems / W items, copied by its own warp, so a warp
// reads it after its own cp.async wait and a __syncwarp, with no block barrier.
//
// Per tile:
//   1. thread 0 claims the tile (and asks L2 to prefetch one further ahead); barrier;
//   2. each warp starts the copies of its shared segment, then loads its register rows;
//   3. each lane sets one bit per row for the items it keeps (register rows, then shared
//      rows once the copies land); each warp writes its two segments' counts; barrier;
//   4. warp 0 scans the 2W counts in tile order, publishes the tile's count, looks back,
//      publishes the running total; barrier;
//   5. each warp writes its kept items row by row at (kept before the row) + (kept lanes
//      below it in the row); a partition writes its rejected items the same way.
//
// In place (out == in) is safe for the reasons given in agent/select.cuh: all of a tile's
// input is in registers or shared memory before it publishes anything, and a tile's
// output never reaches past its own end. unique reads the item before each segment from
// global memory: that is inside the tile, which only this block writes and only after
// its reads, or in[tile_begin - 1], which the previous tile can overwrite only with the
// value already there.
#pragma once

#include <type_traits>

#include "onepass/agent/select.cuh"
#include "onepass/detail/async_copy.cuh"
#include "onepass/warp/warp_scan.cuh"

namespace onepass::detail {

template <class T, int Threads, int SharedItems>
struct select_split_shared {
  alignas(16) T stage[SharedItems];
  int segment_kept[2 * (Threads / 32)];  // per segment; after warp 0's scan, kept before it
  int tile_kept;
  index_t tile_prefix;
  index_t tile;
};

// A lane's keep bits, one per row.
template <int Rows>
using keep_mask = std::conditional_t<(Rows > 32), unsigned long long, unsigned>;

// Copies a warp's shared segment (Bytes bytes at src, of which `valid` exist) with its
// 32 lanes, 16 bytes per copy; the chunk that straddles the end goes item by item (Item
// bytes each), chunks past the end are not copied. One commit group per lane.
template <int Bytes, int Item>
__device__ ONEPASS_FORCEINLINE void copy_segment_async(void* dst, const void* src, index_t valid, int lane) {
  static_assert(Bytes % 16 == 0, "a shared segment is whole 16-byte chunks");
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
#pragma unroll
  for (int c = lane * 16; c < Bytes; c += 32 * 16) {
    if (c + 16 <= valid) {
      cp_async_16(d + c, s + c);
    } else {
      for (int b = c; b < c + 16 && b < valid; b += Item) cp_async_element<Item>(d + b, s + b);
    }
  }
  cp_async_commit();
}

// One row of 32 items, each lane's `item`, written where it belongs: kept ones at
// kept_at + (kept lanes below), rejected valid ones (a partition only) at rejected_at +
// (rejected valid lanes below). Both positions move on past the row. All lanes call it.
template <class T>
__device__ ONEPASS_FORCEINLINE void write_row(const T& item, bool kept, bool valid, unsigned lanes_below, T* out,
                                              T* out_rejected, index_t& kept_at, index_t& rejected_at) {
  const unsigned kept_lanes = __ballot_sync(full_warp_mask, kept);
  if (kept) out[kept_at + __popc(kept_lanes & lanes_below)] = item;
  kept_at += __popc(kept_lanes);
  if (out_rejected != nullptr) {
    const bool rejected = valid && !kept;
    const unsigned rejected_lanes = __ballot_sync(full_warp_mask, rejected);
    if (rejected) out_rejected[rejected_at + __popc(rejected_lanes & lanes_below)] = item;
    rejected_at += __popc(rejected_lanes);
  }
}

// out_rejected == nullptr: a select (rejected items are dropped); otherwise a partition.
// job.in must be 16-byte aligned.
template <class Job, int Threads, int Rows, int SharedItems, int MinBlocksPerSM, class Delay>
__global__ void __launch_bounds__(Threads, MinBlocksPerSM)
    select_split_kernel(Job job, index_t n, typename Job::value_type* out, typename Job::value_type* out_rejected,
                        index_t* count_out, index_t num_tiles, select_tile_state state,
                        lookback::tile_counter counter, unsigned backoff_ns, Delay delay, index_t prefetch_tiles) {
  using T = typename Job::value_type;
  constexpr int warps = Threads / 32;
  constexpr int shared_rows = SharedItems / Threads;  // rows of a warp's shared segment
  constexpr int register_items = Threads * Rows;
  constexpr int tile_items = register_items + SharedItems;
  static_assert(Threads % 32 == 0 && 2 * warps <= 32, "warp 0 scans two counts per warp");
  static_assert(SharedItems % Threads == 0, "a whole number of rows per warp in shared memory");
  static_assert(Rows <= 64 && shared_rows <= 64, "one keep bit per row in a 64-bit mask at most");
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte items");
  static_assert(register_items * sizeof(T) % 16 == 0 && (32 * shared_rows * sizeof(T)) % 16 == 0,
                "the shared segments start on 16-byte boundaries");
  using shared_t = select_split_shared<T, Threads, SharedItems>;
  __shared__ shared_t shared;

  const int lane = lane_id();
  const int warp = warp_id();
  const unsigned lanes_below = (1u << lane) - 1;
  const index_t tile = claim_select_tile(counter, job.in, n, tile_items, prefetch_tiles, shared.tile);
  const index_t tile_begin = tile * tile_items;
  const index_t register_begin = tile_begin + static_cast<index_t>(warp) * (32 * Rows);
  const index_t shared_begin = tile_begin + register_items + static_cast<index_t>(warp) * (32 * shared_rows);
  T* const stage = shared.stage + warp * (32 * shared_rows);

  // 2. The copies first (they land last), then the register rows.
  copy_segment_async<32 * shared_rows * static_cast<int>(sizeof(T)), static_cast<int>(sizeof(T))>(
      stage, job.in + shared_begin, (n - shared_begin) * static_cast<index_t>(sizeof(T)), lane);
  T items[Rows];
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
    const index_t i = register_begin + 32 * r + lane;
    items[r] = i < n ? job.in[i] : T{};
  }
  // unique: the items before the two segments (read by lane 0 only).
  T before_registers{}, before_shared{};
  if constexpr (Job::needs_previous) {
    if (lane == 0 && register_begin > 0 && register_begin < n) before_registers = job.in[register_begin - 1];
    if (lane == 0 && shared_begin < n) before_shared = job.in[shared_begin - 1];
  }

  // 3. Keep bits: bit r of a lane's mask is its item of row r.
  keep_mask<Rows> register_keep = 0;
  T carried = before_registers;  // lane 0: the item before this row (lane 31 of the row above)
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
    const index_t i = register_begin + 32 * r + lane;
    T previous{};
    if constexpr (Job::needs_previous) {
      const T rotated = shfl_idx(items[r], (lane + 31) & 31);  // lane l - 1's item; lane 0 gets lane 31's
      previous = lane > 0 ? rotated : carried;
      carried = rotated;
    }
    if (i < n && job.keep(items[r], i, previous)) register_keep |= keep_mask<Rows>{1} << r;
  }
  cp_async_wait<0>();
  __syncwarp();
  keep_mask<shared_rows> shared_keep = 0;
#pragma unroll 4  // shared rows need no register indexing: keep the code small
  for (int r = 0; r < shared_rows; ++r) {
    const int k = 32 * r + lane;
    const index_t i = shared_begin + k;
    T previous{};
    if constexpr (Job::needs_previous) previous = k > 0 ? stage[k - 1] : before_shared;
    if (i < n && job.keep(stage[k], i, previous)) shared_keep |= keep_mask<shared_rows>{1} << r;
  }
  const int register_kept = static_cast<int>(__reduce_add_sync(full_warp_mask, count_bits(register_keep)));
  const int shared_kept = static_cast<int>(__reduce_add_sync(full_warp_mask, count_bits(shared_keep)));
  if (lane == 0) {
    shared.segment_kept[warp] = register_kept;
    shared.segment_kept[warps + warp] = shared_kept;
  }
  __syncthreads();

  // 4. Warp 0: the segments' offsets within the tile, then the tile's prefix.
  if (warp == 0) {
    const int count = lane < 2 * warps ? shared.segment_kept[lane] : 0;
    int tile_kept = 0;
    const int kept_before = warp_scan<int>::exclusive(count, 0, plus{}, tile_kept);
    if (lane < 2 * warps) shared.segment_kept[lane] = kept_before;
    if (lane == 0) shared.tile_kept = tile_kept;
    resolve_tile_prefix<false, true>(state, tile, static_cast<index_t>(tile_kept), index_t{0}, plus{}, backoff_ns,
                                     delay, shared.tile_prefix);
  }
  __syncthreads();

  // 5. Writes. The rejected items before a segment are the items before it less the kept
  // ones.
  const index_t prefix = shared.tile_prefix;
  index_t kept_at = prefix + shared.segment_kept[warp];
  index_t rejected_at = register_begin - kept_at;
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
    const bool valid = register_begin + 32 * r + lane < n;
    write_row(items[r], ((register_keep >> r) & 1u) != 0, valid, lanes_below, out, out_rejected, kept_at,
              rejected_at);
  }
  kept_at = prefix + shared.segment_kept[warps + warp];
  rejected_at = shared_begin - kept_at;
#pragma unroll 4
  for (int r = 0; r < shared_rows; ++r) {
    const int k = 32 * r + lane;
    write_row(stage[k], ((shared_keep >> r) & 1u) != 0, shared_begin + k < n, lanes_below, out, out_rejected,
              kept_at, rejected_at);
  }
  if (tile == num_tiles - 1 && threadIdx.x == 0) *count_out = prefix + shared.tile_kept;
}

}  // namespace onepass::detail
