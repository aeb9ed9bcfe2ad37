// onepass/agent/segmented_thread.cuh — the segmented scan's pairs and one thread's items.
//
// The (value, head) pair and its operator, the tile descriptors the lookback publishes
// (the head's kind as their tag where the form has gaps), a thread's heads as bit masks,
// and what a thread does with its N items: scan or reduce them restarting at its heads,
// fold in the prefix, make them exclusive, store the covered ones. Used by the one-tile
// kernel (agent/segmented_scan.cuh) and the pipelined agent (segmented_scan_pipeline.cuh).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "onepass/agent/scan_tile.cuh"
#include "onepass/block/block_exchange.cuh"
#include "onepass/block/block_load_store.cuh"
#include "onepass/block/block_scan.cuh"
#include "onepass/detail/async_copy.cuh"
#include "onepass/single_pass/lookback.cuh"

namespace onepass::detail {

// Kinds of head carried by segmented_value::head.
inline constexpr std::uint32_t no_head = 0;
inline constexpr std::uint32_t segment_head = 1;
inline constexpr std::uint32_t gap_head = 2;

// A value and the kind of the last head within the span it covers (no_head: none).
template <class T>
struct segmented_value {
  T value;
  std::uint32_t head;
};

// The pair operator above. Associative when Op is; not commutative.
template <class Op>
struct segmented_op {
  Op op;
  template <class T>
  ONEPASS_HD ONEPASS_FORCEINLINE segmented_value<T> operator()(const segmented_value<T>& a,
                                                               const segmented_value<T>& b) const {
    return b.head != no_head ? b : segmented_value<T>{op(a.value, b.value), a.head};
  }
};

// What a tile's descriptor carries. A tile that holds a head publishes PREFIX at once, so
// an AGGREGATE is only ever published by a tile with no head, and a lookback, which folds
// AGGREGATEs onto the nearest PREFIX, combines plain values: the pair operator reduces to
// `op` there, and the result's kind is the nearest PREFIX's. So every descriptor holds
// the value alone (one 64-bit word for 4-byte values, two for 8-byte ones), and the
// lookback folds values with `op`. The kind matters after the lookback only in forms with
// gaps (it tells whether the items before the tile's first head are covered); there it
// rides as the publication's tag (single_pass/tile_state.cuh, "Tags") and the lookback
// returns the PREFIX's (lookback_warp_tagged). Publishing and folding whole pairs instead
// (twice the words, the pair operator in the warp's fold) made the begin/end form's scan
// markedly slower than CSR's on one segment (docs/perf/segmented_scan.md, "Begin/end
// arrays: where the time went").
// Each descriptor in a 32-byte slot of its own (single_pass/tile_state.cuh, "Spacing"): with
// two to a sector the 8-byte value-only descriptors ran slower on one segment, uniform and
// power-law lengths (docs/perf/segmented_scan.md, "Descriptors: the value alone, a sector
// apart").
inline constexpr int segment_descriptor_slot_words = 4;
template <class T, bool KeepsKind>
struct segment_descriptor {
  using state = lookback::tile_state<T, segment_descriptor_slot_words>;
  static ONEPASS_HD ONEPASS_FORCEINLINE void publish(const state& s, index_t tile, lookback::tile_status status,
                                                     const segmented_value<T>& p) {
    if constexpr (KeepsKind)
      s.publish(tile, status, p.value, p.head);
    else
      s.publish(tile, status, p.value);
  }
#if defined(__CUDACC__)
  // The exclusive prefix of `tile` as a pair (the kind is segment_head without gaps).
  template <int TilesPerLane, class Op>
  static __device__ ONEPASS_FORCEINLINE segmented_value<T> look_back(const state& s, index_t tile, Op op,
                                                                     unsigned backoff_ns) {
    if constexpr (KeepsKind) {
      std::uint32_t kind = no_head;
      const T value = lookback::lookback_warp_tagged<TilesPerLane>(s, tile, op, kind, backoff_ns);
      return {value, kind};
    } else {
      return {lookback::lookback_warp<TilesPerLane>(s, tile, op, backoff_ns), segment_head};
    }
  }
  // The fixed order (the deterministic scans, lookback_fixed_order_walk): the tiles of a
  // group are folded as pairs, whatever their status, so each carries its kind as its tag
  // in every form (publish_pair); a pair holding a head absorbs what is left of it, so a
  // fold that holds one does not wait for the previous group's PREFIX. Returns the
  // exclusive prefix of `tile` as a pair (its kind: the last head's before the tile).
  template <int TilesPerLane, class Op>
  static __device__ ONEPASS_FORCEINLINE segmented_value<T> look_back_fixed_order(const state& s, index_t tile, Op op,
                                                                                 unsigned backoff_ns) {
    using pair = segmented_value<T>;
    return lookback::lookback_fixed_order_walk<TilesPerLane, pair>(
        tile, [&](index_t t, pair& p) { return s.try_read(t, p.value, p.head); }, segmented_op<Op>{op},
        [](const pair& p) { return p.head != no_head; }, backoff_ns);
  }
#endif
  // A publication for the fixed order: the kind rides as the tag whatever the form.
  static ONEPASS_HD ONEPASS_FORCEINLINE void publish_pair(const state& s, index_t tile, lookback::tile_status status,
                                                          const segmented_value<T>& p) {
    s.publish(tile, status, p.value, p.head);
  }
};
template <class T, class Heads>
using segment_descriptor_for = segment_descriptor<T, Heads::has_gaps>;
template <class T, class Heads>
using segment_tile_state = typename segment_descriptor_for<T, Heads>::state;

// A thread's N items in blocked order: bit i of `heads` is set when item i begins a
// segment or a gap, bit i of `gaps` when it begins a gap (a subset of heads).
struct thread_heads {
  unsigned heads;
  unsigned gaps;
};

// Which of a thread's N items lie in a gap (bit i: item i is not to be written): those
// whose last head at or before them begins a gap, and, when `seed_in_gap` (the items
// before the thread come from a gap), those before its first head. `heads` and `gaps` as
// in thread_heads (gaps a subset of heads). Bit-parallel: each round lets a gap reach
// `shift` items further, up to the next head — log2(N) rounds of a few instructions,
// where tracking the kind item by item cost the begin/end form many more instructions a
// tile than CSR offsets and made its int32 scan ALU-bound (docs/perf/segmented_scan.md,
// "Begin/end arrays: where the time went").
template <int N>
ONEPASS_HD ONEPASS_FORCEINLINE constexpr unsigned items_in_gaps(unsigned heads, unsigned gaps, bool seed_in_gap) {
  static_assert(N >= 1 && N <= 32, "a thread's items are one 32-bit mask");
  constexpr unsigned all = N == 32 ? ~0u : (1u << N) - 1u;
  unsigned in_gap = gaps;      // bit i: the last head at or before i that is known begins a gap
  unsigned known = heads;      // bit i: some head at or before i is known
  for (int shift = 1; shift < N; shift *= 2) {
    in_gap |= (in_gap << shift) & ~known;
    known |= known << shift;
  }
  return (in_gap | (seed_in_gap ? ~known : 0u)) & all;
}

#if defined(__CUDACC__)
// The kind of the thread's last head (no_head where it has none): the kind of its total.
template <bool HasGaps>
__device__ ONEPASS_FORCEINLINE std::uint32_t last_head_kind(const thread_heads& h) {
  const int last_head = h.heads ? 31 - __clz(h.heads) : -1;
  return last_head < 0 ? no_head : ((HasGaps && ((h.gaps >> last_head) & 1u)) ? gap_head : segment_head);
}

// The thread's own part of a tile, shared by both agents (this one-tile kernel and
// segmented_scan_pipeline.cuh).
// Scans the thread's items in place, restarting at each head, and returns the thread's
// total as a pair: the last item's value and the kind of the thread's last head.
template <bool HasGaps, class T, int N, class Op>
__device__ ONEPASS_FORCEINLINE segmented_value<T> scan_thread_segments(T (&items)[N], const thread_heads& h, Op op) {
#pragma unroll
  for (int i = 1; i < N; ++i)
    if (!((h.heads >> i) & 1u)) items[i] = op(items[i - 1], items[i]);
  return {items[N - 1], last_head_kind<HasGaps>(h)};
}

// scan_thread_segments in fewer dependent steps: groups of four items are scanned side by
// side, then a running total goes from group to group, and each group's items before its
// first head take the total of the groups before it: 3 + (N / 4 - 1) + 1 dependent steps
// (7 for 16 items, not 15), about twice the operations. The operator's order is kept (the
// earlier value on the left), so it need only be associative.
template <bool HasGaps, class T, int N, class Op>
__device__ ONEPASS_FORCEINLINE segmented_value<T> scan_thread_segments_grouped(T (&items)[N], const thread_heads& h,
                                                                              Op op) {
  constexpr int G = 4;
  static_assert(N % G == 0, "whole groups of four items");
#pragma unroll
  for (int i = 1; i < G; ++i)
#pragma unroll
    for (int g = 0; g < N; g += G)
      if (!((h.heads >> (g + i)) & 1u)) items[g + i] = op(items[g + i - 1], items[g + i]);
  T carry = items[G - 1];  // the running value at the end of the groups so far
#pragma unroll
  for (int g = G; g < N; g += G) {
    const unsigned group_heads = (h.heads >> g) & ((1u << G) - 1u);
    const T before = carry;
    carry = group_heads ? items[g + G - 1] : op(before, items[g + G - 1]);
#pragma unroll
    for (int i = 0; i < G - 1; ++i)
      if (!(group_heads & ((2u << i) - 1u))) items[g + i] = op(before, items[g + i]);
    items[g + G - 1] = carry;
  }
  return {items[N - 1], last_head_kind<HasGaps>(h)};
}

// What scan_thread_segments returns, without the scan: the items are combined as a tree
// of the pair operator (a block's value restarts at its last head), log2(N) dependent
// steps instead of N - 1. The compiler may shorten the sequential chain itself for
// integers but not for floating point, where the order of the adds is part of the result.
template <bool HasGaps, class T, int N, class Op>
__device__ ONEPASS_FORCEINLINE segmented_value<T> reduce_thread_segments(const T (&items)[N], const thread_heads& h,
                                                                         Op op) {
  T v[N];
#pragma unroll
  for (int i = 0; i < N; ++i) v[i] = items[i];
  unsigned has_head = h.heads;  // bit i: the block starting at item i holds a head
#pragma unroll
  for (int w = 1; w < N; w *= 2) {
    const unsigned right = has_head >> w;
#pragma unroll
    for (int i = 0; i + w < N; i += 2 * w)
      v[i] = ((right >> i) & 1u) ? v[i + w] : op(v[i], v[i + w]);
    has_head |= right;
  }
  return {v[0], last_head_kind<HasGaps>(h)};
}

// Global stores of 4 or 8 bytes that happen only when `p` holds, as predicated
// instructions: a warp whose lanes need different stores issues each once, where
// branches around them made it run every path in turn.
__device__ ONEPASS_FORCEINLINE void store_global_if(bool p, std::size_t at, std::uint32_t x) {
  asm volatile("{\n .reg .pred p;\n setp.ne.u32 p, %0, 0;\n @p st.global.u32 [%1], %2;\n}\n" ::"r"(
                   static_cast<unsigned>(p)),
               "l"(at), "r"(x)
               : "memory");
}
__device__ ONEPASS_FORCEINLINE void store_global_if(bool p, std::size_t at, std::uint64_t x) {
  asm volatile("{\n .reg .pred p;\n setp.ne.u32 p, %0, 0;\n @p st.global.u64 [%1], %2;\n}\n" ::"r"(
                   static_cast<unsigned>(p)),
               "l"(at), "l"(x)
               : "memory");
}

// Writes x to *dst when `p` holds: a predicated store for 4- and 8-byte items, a branch
// otherwise.
template <class T>
__device__ ONEPASS_FORCEINLINE void store_item_if(bool p, T* dst, const T& x) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    using word = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    word bits;
    std::memcpy(&bits, &x, sizeof(T));
    store_global_if(p, __cvta_generic_to_global(dst), bits);
  } else if (p) {
    *dst = x;
  }
}

// The stores of a warp whose items include some in no segment (forms with gaps): the
// warp's 32 * N items written to dst[0, 32 * N) in the striped order, store j taking items
// j * 32 + lane, 32 consecutive items a store, with the lanes of uncovered items and of
// items at or past `valid` predicated off; those items are left as they are in dst.
// `uncovered`: the calling thread's mask from finish_thread_segments (bit i: its blocked
// item lane * N + i is in no segment). item_at(j): the lane's item of store j.
//
// Each 32-byte sector is written by one store. (Before, a warp stored 16-byte chunks,
// each lane's chunk holding an uncovered item item by item: a store then covered 16
// sectors 4 or 8 bytes at a time, and the chunk's vector store and each of its item
// stores wrote the same sectors again. Begin/end arrays with gaps between most segments
// run clearly faster this way: docs/perf/segmented_scan.md, "Gap stores item-striped".)
template <int N, class T, class ItemAt>
__device__ ONEPASS_FORCEINLINE void store_covered_striped(T* dst, unsigned uncovered, long long valid,
                                                          ItemAt item_at) {
  static_assert(32 % N == 0, "a store's 32 items span whole threads' items");
  constexpr unsigned all_uncovered = N == 32 ? ~0u : (1u << N) - 1u;
  if (__all_sync(full_warp_mask, uncovered == all_uncovered)) return;  // nothing to write
  const int lane = lane_id();
#pragma unroll
  for (int j = 0; j < N; ++j) {
    const T x = item_at(j);
    // Item j * 32 + lane belongs to lane j * 32 / N + lane / N of the warp, its bit lane % N.
    const unsigned owner_uncovered = __shfl_sync(full_warp_mask, uncovered, j * (32 / N) + lane / N);
    store_item_if(j * 32 + lane < valid && !((owner_uncovered >> (lane % N)) & 1u), dst + j * 32 + lane, x);
  }
}

// As store_covered_striped, for a source that copies its gap items (gaps_copied): every
// item below `valid` is written, the uncovered ones with their value in src (read by the
// lane that writes it, so src may be dst: in place).
template <int N, class T, class ItemAt>
__device__ ONEPASS_FORCEINLINE void store_striped_copying_gaps(T* dst, const T* src, unsigned uncovered,
                                                               long long valid, ItemAt item_at) {
  static_assert(32 % N == 0, "a store's 32 items span whole threads' items");
  const int lane = lane_id();
  // Every load before the first store: src may be dst, so a load after a store could not
  // be moved ahead of it, and each would wait its own round trip.
  T x[N];
#pragma unroll
  for (int j = 0; j < N; ++j) {
    const int at = j * 32 + lane;
    const unsigned owner_uncovered = __shfl_sync(full_warp_mask, uncovered, j * (32 / N) + lane / N);
    x[j] = (at < valid && ((owner_uncovered >> (lane % N)) & 1u)) ? src[at] : item_at(j);
  }
#pragma unroll
  for (int j = 0; j < N; ++j)
    if (j * 32 + lane < valid) dst[j * 32 + lane] = x[j];
}

// After the block scan (and the tile's lookback where needed): folds into the items
// before the thread's first head what comes before them — the thread's prefix within the
// tile, and the tile's prefix when nothing in the tile before the thread's first item is
// a head — and makes the items exclusive if asked (init at heads). Returns, for forms
// with gaps, the mask of the thread's items that lie in a gap (not to be written).
template <bool Exclusive, bool HasGaps, class T, int N, class Op>
__device__ ONEPASS_FORCEINLINE unsigned finish_thread_segments(T (&items)[N], const thread_heads& h,
                                                               bool has_thread_prefix,
                                                               const segmented_value<T>& thread_prefix,
                                                               const segmented_value<T>& tile_prefix, T init, Op op) {
  const segmented_op<Op> seg{op};
  const bool needs_tile_prefix = (!has_thread_prefix || thread_prefix.head == no_head) && !(h.heads & 1u);
  segmented_value<T> seed{};
  bool has_seed = false;
  if (has_thread_prefix) {
    seed = thread_prefix;
    has_seed = true;
  }
  if (needs_tile_prefix) {
    seed = has_seed ? seg(tile_prefix, seed) : tile_prefix;
    has_seed = true;
  }
  const int first_head = h.heads ? __ffs(h.heads) - 1 : N;
  unsigned uncovered = 0;
  if constexpr (HasGaps) uncovered = items_in_gaps<N>(h.heads, h.gaps, has_seed && seed.head == gap_head);
  T previous = seed.value;  // the inclusive result before item i (exclusive scans)
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const bool head = (h.heads >> i) & 1u;
    if (i < first_head && has_seed) items[i] = op(seed.value, items[i]);
    if constexpr (Exclusive) {
      const T inclusive = items[i];
      items[i] = head ? init : op(init, previous);
      previous = inclusive;
    }
  }
  return uncovered;
}
#endif

}  // namespace onepass::detail
