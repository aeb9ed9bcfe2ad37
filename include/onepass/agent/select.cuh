// onepass/agent/select.cuh — the production stream compaction's work on one tile.
//
// One block per tile, tiles claimed in execution order (as the scan's); with its claim a
// block asks L2 to prefetch a tile further ahead (tuning: l2_prefetch_bytes). Per tile:
//   1. each warp loads its contiguous segment (32 * N items) with 128-bit loads where the
//      input is aligned, and transposes it to blocked order (per-warp exchange);
//   2. each thread decides which of its N items are kept (the Job: a predicate, a flag,
//      or "differs from the item before") and counts them; the block scans the counts;
//   3. warp 0 publishes the tile's count, looks back over the predecessors' counts
//      (decoupled lookback on 64-bit counts) and publishes the running total;
//   4. the kept items are packed in shared memory (for a partition, the rejected ones
//      from the other end) and the block writes them out contiguously, coalesced, 16
//      bytes a store where the tuning says so (store_packed).
// Every item is read once and every kept item written once: one pass. The last tile
// writes the total count. Where the tuning says so, aligned inputs with enough tiles run
// the pipelined agent (agent/select_pipeline.cuh: every call but select_flagged), else
// the split tile (agent/select_split.cuh: 8-byte calls and 4-byte partitions that the
// agent cannot run); this kernel is then the fallback.
//
// In place (out == in) is safe: a tile writes only after its lookback has seen every
// earlier tile publish, and a tile publishes only after loading its input, so no write
// lands on input not yet read; a tile's output [prefix, prefix + count) never reaches
// past its own end. unique reads the item before its tile, in[tile_begin - 1]: the
// previous tile can write that slot only when every earlier item was kept, and then it
// writes the value already there.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "onepass/block/block_exchange.cuh"
#include "onepass/block/block_load_store.cuh"
#include "onepass/block/block_scan.cuh"
#include "onepass/detail/async_copy.cuh"
#include "onepass/functional.cuh"
#include "onepass/single_pass/lookback.cuh"
#include "onepass/single_pass/tile_prefix.cuh"

namespace onepass::detail {

// --- jobs: which items are kept ---------------------------------------------------------
// A job holds the input and decides for item `i` (with `previous`, the item before it,
// meaningful only when needs_previous and i > 0).

template <class Pred, class T>
__device__ ONEPASS_FORCEINLINE bool call_predicate(const Pred& pred, const T& item, index_t i) {
  if constexpr (std::is_invocable_v<const Pred&, const T&, index_t>) {
    return static_cast<bool>(pred(item, i));
  } else {
    (void)i;
    return static_cast<bool>(pred(item));
  }
}

// split_tile: whether the job may run on the split-tile kernel (agent/select_split.cuh);
// may_partition: whether the dispatch may pass it a rejected side; reads_flags: whether
// the one-tile kernel takes a thread's decisions at once from load_flags (16 bytes of
// flags a load) instead of calling keep() per item.
template <class T, class Pred>
struct select_if_job {
  using value_type = T;
  static constexpr bool needs_previous = false;
  static constexpr bool reads_flags = false;
  static constexpr bool split_tile = true;
  static constexpr bool may_partition = true;
  const T* in;
  Pred pred;
  __device__ ONEPASS_FORCEINLINE bool keep(const T& item, index_t i, const T& /*previous*/) const {
    return call_predicate(pred, item, i);
  }
};

template <class T, class Flag>
struct select_flagged_job {
  using value_type = T;
  static constexpr bool needs_previous = false;
  static constexpr bool reads_flags = true;
  // Not the split tile: its one-byte flag loads, row by row, each touch a 32-byte sector
  // for a few bytes, and it ran far slower than the one-tile kernel (docs/perf/select.md,
  // "The split tile in production").
  static constexpr bool split_tile = false;
  static constexpr bool may_partition = false;
  const T* in;
  const Flag* flags;
  __device__ ONEPASS_FORCEINLINE bool keep(const T& /*item*/, index_t i, const T& /*previous*/) const {
    return static_cast<bool>(flags[i]);
  }
  // Bit j set: item first + j (below n) is kept. The flags are read as whole 16-byte
  // vectors where they are aligned and all below n: one at a time in this blocked order,
  // every warp load touched 32 sectors, and select_flagged ran far below select_if
  // (docs/perf/select.md, "flags as vectors"). As bits, a thread's 64 decisions take 2
  // registers while the items are exchanged. (load_blocked into a Flag[N], then bits, is
  // the same load, but it took the kernel from 107 registers to 149-161 where this takes
  // 113-118: docs/perf/select.md.)
  template <int N>
  __device__ ONEPASS_FORCEINLINE unsigned long long load_flags(index_t first, index_t n) const {
    static_assert(N <= 64, "one bit per item in a 64-bit mask");
    constexpr int V = vector_width<Flag>;
    unsigned long long bits = 0;
    const Flag* mine = flags + first;
    if constexpr (N % V == 0 && V > 1) {
      if (first + N <= n && is_vector_aligned(mine)) {
        using vec = vector_of<Flag, V>;
#pragma unroll
        for (int c = 0; c < N / V; ++c) {
          const vec x = reinterpret_cast<const vec*>(mine)[c];
#pragma unroll
          for (int v = 0; v < V; ++v)
            if (static_cast<bool>(x.v[v])) bits |= 1ull << (c * V + v);
        }
        return bits;
      }
    }
#pragma unroll
    for (int j = 0; j < N; ++j)
      if (first + j < n && static_cast<bool>(mine[j])) bits |= 1ull << j;
    return bits;
  }
};

template <class T, class Eq>
struct unique_job {
  using value_type = T;
  static constexpr bool needs_previous = true;
  static constexpr bool reads_flags = false;
  static constexpr bool split_tile = true;
  static constexpr bool may_partition = false;
  const T* in;
  Eq eq;
  __device__ ONEPASS_FORCEINLINE bool keep(const T& item, index_t i, const T& previous) const {
    return i == 0 || !static_cast<bool>(eq(previous, item));
  }
};

// The number of set bits of a keep mask.
__device__ ONEPASS_FORCEINLINE unsigned count_bits(unsigned m) { return static_cast<unsigned>(__popc(m)); }
__device__ ONEPASS_FORCEINLINE unsigned count_bits(unsigned long long m) { return static_cast<unsigned>(__popcll(m)); }

// --- the kernel -------------------------------------------------------------------------
// The packing buffer holds the tile in item order with one padding item after every
// 128 bytes: threads write their kept items at positions about N * (fraction kept)
// apart, which without the padding fall into the same bank for every thread of a warp.
template <class T>
struct packed_layout {
  static constexpr int row = sizeof(T) >= 128 ? 1 : static_cast<int>(128 / sizeof(T));
  static __device__ ONEPASS_FORCEINLINE int slot(int k) { return k + k / row; }
  static constexpr int slots(int items) { return items + items / row; }
};

template <class T, int Threads, int N, int V>
struct select_shared {
  using exchange_t = warp_exchange<T, N, V>;
  union {
    typename exchange_t::storage exchange[Threads / 32];     // loading
    T packed[packed_layout<T>::slots(Threads * N)];         // writing (after two barriers)
  };
  typename block_scan<int, Threads>::storage scan;
  index_t tile_prefix;
  index_t tile;
};

// Writes items [0, count) of a packed buffer, item k read as read(k), to dst[0, count),
// the block's threads sharing the work. VectorStores, for 4- and 8-byte items at an
// address that is a multiple of their size (alignof does not promise that for a struct
// of two floats) and at least one 16-byte vector a thread: a scalar head up to dst's
// next 16-byte boundary, then one 16-byte store a thread per 16/sizeof(T) consecutive
// items (their shared-memory reads are at most 2-way bank conflicts with packed_layout's
// padding), then a scalar tail; the same bytes as the scalar loop, so in-place calls stay
// safe. Both loops are unrolled so several reads are in flight.
template <bool VectorStores, int Threads, class T, class Read>
__device__ ONEPASS_FORCEINLINE void store_packed(T* dst, int count, Read read) {
  const int tid = static_cast<int>(threadIdx.x);
  int done = 0;
  if constexpr (VectorStores && (sizeof(T) == 4 || sizeof(T) == 8)) {
    constexpr int V = static_cast<int>(16 / sizeof(T));
    const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(dst);
    // Uniform; below one vector a thread the scalar loop is a round or so.
    if (count >= Threads * V && address % sizeof(T) == 0) {
      const int misaligned = static_cast<int>((address % 16) / sizeof(T));
      const int head = misaligned == 0 ? 0 : V - misaligned;
      if (tid < head) dst[tid] = read(tid);
      const int vectors = (count - head) / V;
      uint4* body = reinterpret_cast<uint4*>(dst + head);
#pragma unroll 4
      for (int m = tid; m < vectors; m += Threads) {
        T v[V];
#pragma unroll
        for (int i = 0; i < V; ++i) v[i] = read(head + m * V + i);
        uint4 chunk;
        std::memcpy(&chunk, v, 16);
        body[m] = chunk;
      }
      done = head + vectors * V;
    }
  }
#pragma unroll 4
  for (int k = done + tid; k < count; k += Threads) dst[k] = read(k);
}

// The tiles' running counts of kept items, one descriptor per tile in a 32-byte slot of
// its own (single_pass/tile_state.cuh, "Spacing"): faster than two to a sector
// (docs/perf/select.md, "Descriptors a sector apart").
using select_tile_state = lookback::tile_state<index_t, 4>;

// Thread 0 claims the block's tile and asks L2 to prefetch the one `prefetch_tiles`
// ahead; every thread gets the tile (through `slot`, in shared memory) after a barrier.
template <class T>
__device__ ONEPASS_FORCEINLINE index_t claim_select_tile(lookback::tile_counter& counter, const T* in, index_t n,
                                                         int tile_items, index_t prefetch_tiles, index_t& slot) {
  if (threadIdx.x == 0) {
    slot = counter.claim();
    prefetch_tile_l2(in, slot, prefetch_tiles, tile_items * static_cast<index_t>(sizeof(T)),
                     n * static_cast<index_t>(sizeof(T)));
  }
  __syncthreads();
  return slot;
}

// out_rejected == nullptr: a select (rejected items are dropped); otherwise a partition.
// MinBlocksPerSM: __launch_bounds__'s minimum of resident blocks (0: the compiler's choice).
template <class Job, int Threads, int N, int V, class Delay, bool VectorStores = false, int MinBlocksPerSM = 0>
__global__ void __launch_bounds__(Threads, MinBlocksPerSM)
    select_kernel(Job job, index_t n, typename Job::value_type* out, typename Job::value_type* out_rejected,
                  index_t* count_out, index_t num_tiles, select_tile_state state,
                  lookback::tile_counter counter, unsigned backoff_ns, Delay delay, index_t prefetch_tiles) {
  using T = typename Job::value_type;
  using shared_t = select_shared<T, Threads, N, V>;
  constexpr int tile_items = Threads * N;
  __shared__ shared_t shared;

  const int lane = lane_id();
  const int warp = warp_id();
  const index_t tile = claim_select_tile(counter, job.in, n, tile_items, prefetch_tiles, shared.tile);
  const index_t tile_begin = tile * tile_items;
  const index_t warp_begin = tile_begin + static_cast<index_t>(warp) * (32 * N);
  const index_t thread_begin = warp_begin + static_cast<index_t>(lane) * N;

  T items[N];
  load_vector_striped<32, V>(job.in + warp_begin, items, lane, n - warp_begin);
  // A flags job's decisions as one bit an item, loaded with the items (tiles of more than
  // 64 items a thread, which no production row has, call keep() per item).
  constexpr bool flag_bits_path = Job::reads_flags && N <= 64;
  [[maybe_unused]] unsigned long long flag_bits = 0;
  if constexpr (flag_bits_path) flag_bits = job.template load_flags<N>(thread_begin, n);
  typename shared_t::exchange_t(shared.exchange[warp], lane).striped_to_blocked(items, items);

  T previous{};
  if constexpr (Job::needs_previous) {
    previous = shfl_up(items[N - 1], 1);
    if (lane == 0 && warp_begin > 0 && warp_begin <= n) previous = job.in[warp_begin - 1];
  }
  bool keep[N];
  int kept = 0;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    const index_t i = thread_begin + j;
    if constexpr (flag_bits_path)
      keep[j] = ((flag_bits >> j) & 1) != 0;
    else
      keep[j] = i < n && job.keep(items[j], i, j == 0 ? previous : items[j > 0 ? j - 1 : 0]);
    kept += keep[j] ? 1 : 0;
  }

  int kept_before = 0, tile_kept = 0;
  block_scan<int, Threads>(shared.scan).exclusive_prefix(kept, plus{}, kept_before, tile_kept);
  if (warp == 0)
    resolve_tile_prefix<false, true>(state, tile, static_cast<index_t>(tile_kept), index_t{0}, plus{}, backoff_ns,
                                     delay, shared.tile_prefix);
  __syncthreads();  // tile_prefix is known; every warp is done with the exchange storage

  // Pack: kept items from the front, rejected ones (partition) from the back.
  using pack = packed_layout<T>;
  const int local_begin = static_cast<int>(thread_begin - tile_begin);
  int front = kept_before;
  int back = local_begin - kept_before;  // rejected items before this thread
#pragma unroll
  for (int j = 0; j < N; ++j) {
    if (keep[j]) {
      shared.packed[pack::slot(front++)] = items[j];
    } else if (out_rejected != nullptr && thread_begin + j < n) {
      shared.packed[pack::slot(tile_items - 1 - back++)] = items[j];
    }
  }
  __syncthreads();

  const index_t prefix = shared.tile_prefix;
  store_packed<VectorStores, Threads>(out + prefix, tile_kept, [&](int k) { return shared.packed[pack::slot(k)]; });
  if (out_rejected != nullptr) {
    const index_t tile_valid = n - tile_begin < tile_items ? n - tile_begin : tile_items;
    const int rejected = static_cast<int>(tile_valid) - tile_kept;
    T* dst = out_rejected + (tile_begin - prefix);  // items before the tile minus those kept
    store_packed<VectorStores, Threads>(dst, rejected,
                                        [&](int k) { return shared.packed[pack::slot(tile_items - 1 - k)]; });
  }
  if (tile == num_tiles - 1 && threadIdx.x == 0) *count_out = prefix + tile_kept;
}

}  // namespace onepass::detail
