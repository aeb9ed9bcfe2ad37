// onepass/agent/segmented_scan.cuh — the production segmented scan's work on one tile.
//
// A segmented scan is an ordinary scan of (value, head) pairs under the operator
//     (a, ha) . (b, hb) = hb ? (b, hb) : (a op b, ha)
// which is associative whenever op is, so everything the plain scan does carries over:
// the thread scans its items, the block scans the thread totals, and the tiles are
// chained by the decoupled lookback (on descriptors holding the value alone, and in forms
// with gaps the head's kind as their tag: segment_descriptor below). Two things are
// particular to segments:
//   - A tile whose items contain a head knows its inclusive prefix without looking back
//     (nothing before the last head matters), so it publishes PREFIX at once. Only tiles
//     with no head at all publish an AGGREGATE, and a lookback walks back at most to the
//     nearest tile holding a head: with short segments every lookback ends one tile back.
//   - A tile whose first item is a head needs no prefix at all and does not look back.
// Hence one pass over the data, one block per tile, whatever the segment lengths: a
// million one-item segments and one segment of the whole array run the same code.
//
// Where the heads come from is a policy (a "head source"): head flags, a change of key
// (scan by key), or the bitmaps the offsets form builds (dispatch_segmented_scan.cuh).
// The offsets form may leave stretches of items in no segment; such a stretch starts
// with a "gap" head, its items are scanned like any others, and they are not written.
// The head's kind travels in the pair (1 = segment, 2 = gap), so an item knows whether
// it is covered from the kind of the last head at or before it.
//
// Per tile:
//   1. each warp loads its 32 * N values (128-bit loads where aligned) and transposes
//      them to blocked order; each thread gets its N heads as a bit mask;
//   2. each thread scans its items, restarting at its heads; the block scans the thread
//      totals as pairs (warp shuffles + one barrier);
//   3. warp 0 publishes (PREFIX at once when the tile has a head) and, if the tile's first
//      item is not a head, looks back and hands the prefix over through shared memory
//      at a named barrier that only the warps whose items need it join (the others go on
//      to store);
//   4. each thread folds the prefix into its items before its first head, makes them
//      exclusive if asked, and the warp transposes back and stores (items in gaps are
//      skipped, in warps that have any).
// In place (out == in) is safe: a tile reads and writes only its own items.
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
#include "onepass/lookback/lookback.cuh"

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
// rides as the publication's tag (lookback/tile_state.cuh, "Tags") and the lookback
// returns the PREFIX's (lookback_warp_tagged). Publishing and folding whole pairs instead
// (twice the words, the pair operator in the warp's fold) made the begin/end form's scan
// markedly slower than CSR's on one segment (docs/perf/segmented_scan.md, "Begin/end
// arrays: where the time went").
// Each descriptor in a 32-byte slot of its own (lookback/tile_state.cuh, "Spacing"): with
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
#endif
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

// --- head sources -----------------------------------------------------------------------
// Each provides `has_gaps`, `has_window`, ok() (false: the input was found bad on the
// device, and the kernel writes nothing), and
//   load<N, V, ScratchBytes>(scratch, tile_begin, tile_valid, n): the calling thread's
//   thread_heads, for items tile_begin + threadIdx.x * N + [0, N). Item 0
//   of the array always begins a segment (or, for the offsets form, possibly a gap); the
//   source need not mark it, the kernel does. Slots past the end may hold anything.
//   `scratch` is the calling warp's ScratchBytes of shared memory (16-byte aligned; the
//   exchange of the values reuses it after load returns), which the source may use until
//   it returns, every lane done with it (__syncwarp) by then.
// Sources the pipelined agent (segmented_scan_pipeline.cuh) can use have `pipelined` true
// and split that in two, so that the loads stay in flight for a whole step:
//   fetched<N>: what a thread holds in registers between the two (a few words);
//   fetch<N>(tile_begin, n): issues the loads for the same items (zeros past n);
//   heads<N>(fetched): the thread_heads, once the loads are needed.
// A source with `has_window` (and no gaps) covers one contiguous range of items, given by
// window_begin() / window_end() (device loads): the kernels scan every item as if all were
// covered and write only the items inside the window.
// The offsets forms' sources wrapped in gaps_copied (below) have `copies_gaps` true: the
// kernels then write every item, those in no segment with their input value.

#if defined(__CUDACC__)
// flags[i] converting to true: item i begins a segment.
template <class Flag>
struct flag_heads {
  static constexpr bool has_gaps = false;
  static constexpr bool has_window = false;
  const Flag* flags;
  __device__ ONEPASS_FORCEINLINE bool ok() const { return true; }

  // Asks L2 for the flags `ahead` tiles past `tile`, as the one-tile kernel does for the
  // values, so that a tile's flags do not come from DRAM when its values come from L2.
  // Flags of any alignment: only the whole 16-byte chunks inside the tile's range.
  __device__ ONEPASS_FORCEINLINE void prefetch_l2(index_t tile, index_t ahead, index_t tile_items, index_t n) const {
    if (ahead <= 0) return;
    const index_t first = (tile + ahead) * tile_items;
    if (first >= n) return;
    prefetch_range_l2(flags + first, flags + (first + tile_items < n ? first + tile_items : n));
  }

  // Each thread reads its own N consecutive flags (blocked): with one-byte flags and
  // N = 16 that is one 16-byte load per thread, 512 contiguous bytes per warp, so no
  // exchange is needed.
  template <int N, int V, int ScratchBytes>
  __device__ ONEPASS_FORCEINLINE thread_heads load(unsigned char* /*scratch*/, index_t tile_begin,
                                                   long long tile_valid, index_t /*n*/) const {
    Flag f[N];
#pragma unroll
    for (int i = 0; i < N; ++i) f[i] = Flag{};
    load_blocked(flags + tile_begin, f, static_cast<int>(threadIdx.x), tile_valid);
    unsigned heads = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) heads |= static_cast<unsigned>(static_cast<bool>(f[i])) << i;
    return {heads, 0u};
  }

  // Pipelined: one-byte flags only (a thread's 32 flags are 8 registers), as words of
  // four flags; 16- or 8-byte loads when the thread's flags are whole and aligned.
  static constexpr bool pipelined = sizeof(Flag) == 1;
  template <int N>
  struct fetched {
    unsigned words[(N + 3) / 4];
  };
  template <int N>
  __device__ ONEPASS_FORCEINLINE fetched<N> fetch(index_t tile_begin, index_t n) const {
    fetched<N> f{};
    const index_t first = tile_begin + static_cast<index_t>(threadIdx.x) * N;
    const auto* bytes = reinterpret_cast<const unsigned char*>(flags);
    if constexpr (N % 8 == 0) {
      using vector_t = std::conditional_t<N % 16 == 0, uint4, uint2>;
      constexpr int V = static_cast<int>(sizeof(vector_t));
      if (first + N <= n && reinterpret_cast<std::uintptr_t>(bytes + first) % V == 0) {
        const auto* v = reinterpret_cast<const vector_t*>(bytes + first);
        // One vector load each, then a copy between registers: a memcpy straight from
        // global memory was compiled to V one-byte loads (the pointer's alignment lost).
#pragma unroll
        for (int j = 0; j < N / V; ++j) {
          const vector_t x = v[j];
          std::memcpy(&f.words[V / 4 * j], &x, V);
        }
        return f;
      }
    }
#pragma unroll
    for (int i = 0; i < N; ++i)
      if (first + i < n) f.words[i / 4] |= static_cast<unsigned>(bytes[first + i]) << (8 * (i % 4));
    return f;
  }
  template <int N>
  __device__ ONEPASS_FORCEINLINE thread_heads heads(const fetched<N>& f) const {
    unsigned heads = 0;
#pragma unroll
    for (int w = 0; w < (N + 3) / 4; ++w) {
      const unsigned x = f.words[w];
      // Bit 7 of each byte: set when the byte is nonzero (no carry crosses a byte).
      const unsigned nonzero = (((x & 0x7f7f7f7fu) + 0x7f7f7f7fu) | x) & 0x80808080u;
      // Bits 0, 8, 16, 24 moved to 21, 22, 23, 24 by one multiply (no two terms meet).
      heads |= ((((nonzero >> 7) * 0x00204081u) >> 21) & 0xfu) << (4 * w);
    }
    return {heads, 0u};
  }
};

// Stores the low Bytes bytes of x at p (aligned to Bytes) with one access.
template <int Bytes>
__device__ ONEPASS_FORCEINLINE void store_bytes(unsigned char* p, unsigned long long x) {
  if constexpr (Bytes == 8) {
    *reinterpret_cast<unsigned long long*>(p) = x;
  } else if constexpr (Bytes == 4) {
    *reinterpret_cast<unsigned*>(p) = static_cast<unsigned>(x);
  } else if constexpr (Bytes == 2) {
    *reinterpret_cast<unsigned short*>(p) = static_cast<unsigned short>(x);
  } else {
#pragma unroll
    for (int b = 0; b < Bytes; ++b) p[b] = static_cast<unsigned char>(x >> (8 * b));
  }
}

// keys[i] not equal (eq) to keys[i - 1]: item i begins a segment.
template <class Key, class Eq>
struct key_heads {
  static constexpr bool has_gaps = false;
  static constexpr bool has_window = false;
  const Key* keys;
  Eq eq;
  __device__ ONEPASS_FORCEINLINE bool ok() const { return true; }

  // Asks L2 for the keys `ahead` tiles past `tile`, as the kernel does for the values: the
  // keys are as many bytes as 4-byte values. Only for 16-byte aligned keys (the kernel's
  // vector path, where the dispatcher has checked them).
  __device__ ONEPASS_FORCEINLINE void prefetch_l2(index_t tile, index_t ahead, index_t tile_items, index_t n) const {
    prefetch_tile_l2(keys, tile, ahead, tile_items * static_cast<index_t>(sizeof(Key)),
                     n * static_cast<index_t>(sizeof(Key)));
  }

  // The keys are loaded vector-striped like the values (coalesced, 128-bit where aligned
  // and N allows), each compared with the key before it (a neighbour lane's, or lane 31's
  // of the previous vector, or for a warp's first item the global key before it), and the
  // results go through the scratch as bytes to reach blocked order. (Staging the keys in
  // the scratch with cp.async instead, so that they hold no registers in flight, and
  // comparing them there in blocked order was slower: docs/perf/segmented_scan.md.)
  template <int N, int V, int ScratchBytes>
  __device__ ONEPASS_FORCEINLINE thread_heads load(unsigned char* scratch, index_t tile_begin, long long tile_valid,
                                                   index_t /*n*/) const {
    static_assert(32 * N <= ScratchBytes, "the warp's head bytes go through the scratch");
    // (Keys narrower than 2 bytes are read one per load: a vector of them would hold more
    // head bytes than one store_bytes moves.)
    constexpr int VK = (V > 1 && vector_width<Key> <= 8 && N % vector_width<Key> == 0) ? vector_width<Key> : 1;
    const int lane = lane_id();
    const int warp = warp_id();
    const index_t warp_begin = tile_begin + static_cast<index_t>(warp) * 32 * N;
    const long long warp_valid = tile_valid - static_cast<long long>(warp) * 32 * N;
    Key k[N];
#pragma unroll
    for (int i = 0; i < N; ++i) k[i] = Key{};
    load_vector_striped<32, VK>(keys + warp_begin, k, lane, warp_valid);
    // The key before the warp's first item (read by lane 0 only).
    Key before_warp{};
    if (lane == 0 && warp_begin > 0 && warp_valid > 0) before_warp = keys[warp_begin - 1];
#pragma unroll
    for (int j = 0; j < N / VK; ++j) {
      const Key from_lower_lane = shfl_up(k[j * VK + VK - 1], 1);
      const Key from_lane_31 = j > 0 ? shfl_idx(k[(j - 1) * VK + VK - 1], 31) : before_warp;
      Key previous = lane > 0 ? from_lower_lane : from_lane_31;
      // VK bytes (0 or 1) packed into one store of VK bytes.
      unsigned long long packed = 0;
#pragma unroll
      for (int v = 0; v < VK; ++v) {
        packed |= static_cast<unsigned long long>(!static_cast<bool>(eq(previous, k[j * VK + v]))) << (8 * v);
        previous = k[j * VK + v];
      }
      store_bytes<VK>(scratch + (lane + j * 32) * VK, packed);
    }
    __syncwarp();
    // The thread's N bytes, four at a time where N allows: 0/1 bytes to bits.
    unsigned heads = 0;
    if constexpr (N % 4 == 0) {
      const auto* words = reinterpret_cast<const unsigned*>(scratch + lane * N);
#pragma unroll
      for (int w = 0; w < N / 4; ++w) {
        const unsigned x = words[w];
#pragma unroll
        for (int b = 0; b < 4; ++b) heads |= ((x >> (8 * b)) & 1u) << (4 * w + b);
      }
    } else {
#pragma unroll
      for (int i = 0; i < N; ++i) heads |= static_cast<unsigned>(scratch[lane * N + i]) << i;
    }
    __syncwarp();  // every lane is done with the scratch
    return {heads, 0u};
  }

  // Pipelined for keys of up to 4 bytes: a thread holds its N keys in registers for a step
  // (16 registers for 16 int32 keys; the values wait in shared memory), and lane 0 the key
  // before its warp. The dispatcher takes this path where the tuning row gives scan by key
  // a register cap of its own (pipeline_by_key_min_blocks_per_sm: the 4-byte row's 64
  // registers spilled the keys, 80 do not). 8-byte keys stay one tile per block. (Keys
  // staged in shared memory instead cost the pipeline a block a SM and gained nothing:
  // docs/perf/segmented_scan.md, "Scan by key pipelined, its keys staged"; in registers,
  // "Scan by key pipelined, its keys in registers".)
  static constexpr bool pipelined = sizeof(Key) <= 4;
  template <int N>
  struct fetched {
    Key k[N];
    Key before;  // lane 0's only: the key before the warp's first item
  };
  // The thread's N consecutive keys (blocked, as its values): 16-byte loads when they are
  // whole and fill whole vectors (the keys are 16-byte aligned where this path runs, and a
  // thread's first key sits N * sizeof(Key) bytes past the last thread's); keys past n
  // are Key{} (their heads fall on items nothing stores).
  template <int N>
  __device__ ONEPASS_FORCEINLINE fetched<N> fetch(index_t tile_begin, index_t n) const {
    fetched<N> f;
    const index_t first = tile_begin + static_cast<index_t>(threadIdx.x) * N;
    constexpr int bytes = N * static_cast<int>(sizeof(Key));
    bool as_vectors = false;
    if constexpr (bytes % 16 == 0) as_vectors = first + N <= n;
    if (as_vectors) {
      const auto* v = reinterpret_cast<const uint4*>(keys + first);
#pragma unroll
      for (int j = 0; j < bytes / 16; ++j) {
        const uint4 x = v[j];
        std::memcpy(reinterpret_cast<unsigned char*>(f.k) + 16 * j, &x, 16);
      }
    } else {
#pragma unroll
      for (int i = 0; i < N; ++i) f.k[i] = first + i < n ? keys[first + i] : Key{};
    }
    f.before = Key{};
    if (lane_id() == 0 && first > 0 && first <= n) f.before = keys[first - 1];
    return f;
  }
  // Every thread of the warp calls it (the key before a lane's first item is the lower
  // lane's last).
  template <int N>
  __device__ ONEPASS_FORCEINLINE thread_heads heads(const fetched<N>& f) const {
    const Key from_lower_lane = shfl_up(f.k[N - 1], 1);
    Key previous = lane_id() == 0 ? f.before : from_lower_lane;
    unsigned heads = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) {
      heads |= static_cast<unsigned>(!static_cast<bool>(eq(previous, f.k[i]))) << i;
      previous = f.k[i];
    }
    return {heads, 0u};
  }
};

// A thread's N bits of a bitmap of 32-bit words: items [first, first + N), where `word`
// is the word holding item `first` (32 % N == 0 and first a multiple of N: one word).
template <int N>
__device__ ONEPASS_FORCEINLINE unsigned bitmap_bits(std::uint32_t word, index_t first) {
  static_assert(32 % N == 0, "a thread's bits must lie in one word");
  const unsigned mask = N == 32 ? ~0u : (1u << N) - 1u;
  return (word >> static_cast<int>(first % 32)) & mask;
}

// The offsets form's heads, from two bitmaps of one bit per item (32 items per word):
// `begins` marks the first item of every non-empty segment, `ends` the item just past a
// segment (empty ones too) where the next segment does not begin: a gap's first item, which
// no segment covers. An item with an `ends` bit starts a gap (the scan still takes the kind
// as e & ~b). Segments that leave no gap mark no `ends` bit.
struct bitmap_heads {
  static constexpr bool has_gaps = true;
  static constexpr bool has_window = false;
  const std::uint32_t* begins;
  const std::uint32_t* ends;
  // Zero unless the offsets were found bad (segment_offsets_error); then nothing is
  // written.
  const unsigned long long* error;
  // Nonzero where the marking set some `ends` bit (mark_segments_kernel).
  const unsigned* gaps_found;
  __device__ ONEPASS_FORCEINLINE bool ok() const { return *error == 0; }
  // Called on the pipelined agent's copy for its block (block_view_of): where no segment
  // leaves a gap, the `ends` bitmap is all zero, and reading the `begins` word in its place
  // gives the same heads (b | b) and no gap (b & ~b) with no branch: the second load of the
  // same word costs no DRAM traffic, where the zeros cost n / 8 bytes.
  static constexpr bool has_block_view = true;
  __device__ ONEPASS_FORCEINLINE void prepare_block() {
    if (*gaps_found == 0) ends = begins;
  }

  template <int N, int V, int ScratchBytes>
  __device__ ONEPASS_FORCEINLINE thread_heads load(unsigned char* /*scratch*/, index_t tile_begin,
                                                   long long /*tile_valid*/, index_t n) const {
    const index_t first = tile_begin + static_cast<index_t>(threadIdx.x) * N;
    if (first >= n) return {0u, 0u};
    const unsigned b = bitmap_bits<N>(begins[first / 32], first);
    const unsigned e = bitmap_bits<N>(ends[first / 32], first);
    return {b | e, e & ~b};
  }

  // Pipelined: the thread's word of each bitmap (its N bits start at (threadIdx.x * N) %
  // 32 of it: tiles are whole words).
  static constexpr bool pipelined = true;
  template <int N>
  struct fetched {
    std::uint32_t begins, ends;
  };
  template <int N>
  __device__ ONEPASS_FORCEINLINE fetched<N> fetch(index_t tile_begin, index_t n) const {
    static_assert(32 % N == 0, "a thread's bits must lie in one word");
    const index_t first = tile_begin + static_cast<index_t>(threadIdx.x) * N;
    if (first >= n) return {0u, 0u};
    return {begins[first / 32], ends[first / 32]};
  }
  template <int N>
  __device__ ONEPASS_FORCEINLINE thread_heads heads(const fetched<N>& f) const {
    const unsigned b = bitmap_bits<N>(f.begins, threadIdx.x * N);
    const unsigned e = bitmap_bits<N>(f.ends, threadIdx.x * N);
    return {b | e, e & ~b};
  }
};

// The offsets form's heads for CSR offsets (one array of count + 1 boundaries): the
// segments then tile [offsets[0], offsets[count]) with no gap between them, so the items
// in no segment are the ones before offsets[0] and from offsets[count] on: one window.
// The scan treats every item as covered (the begins bitmap marks each non-empty segment's
// first item, and the first item at or after offsets[0] always begins one, so nothing
// before the window reaches into it) and writes only the window. No gap heads, so the
// kernels run their gap-free code; the window's ends are read once per block (pipelined
// agent) or tile (one-tile agent). Half the bitmap bytes of bitmap_heads to clear, mark
// and read. (The trailing gap as a gap head, read from the offsets by every thread of
// every tile, made the kernels run their gap code: docs/perf/segmented_scan.md, "CSR
// offsets: one window, no gap heads".)
template <class Offset>
struct csr_bitmap_heads {
  static constexpr bool has_gaps = false;
  static constexpr bool has_window = true;
  const std::uint32_t* begins;
  const Offset* first_boundary;  // offsets
  const Offset* last_boundary;   // offsets + count
  const unsigned long long* error;  // as bitmap_heads'
  __device__ ONEPASS_FORCEINLINE bool ok() const { return *error == 0; }
  // The covered items, [window_begin(), window_end()) (valid offsets: checked before the
  // scan, and nothing is written when one is bad).
  __device__ ONEPASS_FORCEINLINE index_t window_begin() const { return static_cast<index_t>(*first_boundary); }
  __device__ ONEPASS_FORCEINLINE index_t window_end() const { return static_cast<index_t>(*last_boundary); }

  template <int N, int V, int ScratchBytes>
  __device__ ONEPASS_FORCEINLINE thread_heads load(unsigned char* /*scratch*/, index_t tile_begin,
                                                   long long /*tile_valid*/, index_t n) const {
    const index_t first = tile_begin + static_cast<index_t>(threadIdx.x) * N;
    if (first >= n) return {0u, 0u};
    return {bitmap_bits<N>(begins[first / 32], first), 0u};
  }

  static constexpr bool pipelined = true;
  template <int N>
  struct fetched {
    std::uint32_t begins;
  };
  template <int N>
  __device__ ONEPASS_FORCEINLINE fetched<N> fetch(index_t tile_begin, index_t n) const {
    static_assert(32 % N == 0, "a thread's bits must lie in one word");
    const index_t first = tile_begin + static_cast<index_t>(threadIdx.x) * N;
    if (first >= n) return {0u};
    return {begins[first / 32]};
  }
  template <int N>
  __device__ ONEPASS_FORCEINLINE thread_heads heads(const fetched<N>& f) const {
    return {bitmap_bits<N>(f.begins, threadIdx.x * N), 0u};
  }
};

// The mask of items first + [0, N) outside the window [begin, end) (a source's
// has_window): the items a kernel must not write. (Host too: tested without a GPU.)
template <int N>
ONEPASS_HD ONEPASS_FORCEINLINE unsigned outside_window(index_t first, index_t begin, index_t end) {
  if (first >= begin && first + N <= end) return 0u;
  unsigned outside = 0;
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
  for (int i = 0; i < N; ++i) outside |= static_cast<unsigned>(first + i < begin || first + i >= end) << i;
  return outside;
}

// --- the offsets form's preparation -------------------------------------------------------
// What is wrong with a segment's offsets (the first check that fails).
enum class segment_problem : unsigned { none = 0, begin_out_of_range, end_out_of_range, end_before_begin, out_of_order };

// The first bad segment (lowest index) and its problem, packed so that atomicMax keeps it:
// ~(segment << 8 | problem). Zero means no problem was found.
ONEPASS_HD constexpr unsigned long long encode_segment_error(index_t segment, segment_problem p) {
  return ~(static_cast<unsigned long long>(segment) << 8 | static_cast<unsigned>(p));
}

// Sets bits of one bitmap for a run of increasing items, one atomicOr per word: the bits
// of consecutive items that fall into the same word are gathered first. Item: long long
// for items of a global bitmap; unsigned for items counted from the first word of a
// block's shared copy of part of one (32-bit arithmetic).
// Toggle: each mark flips its bit instead (XOR, atomicXor), so that two marks of one item,
// by one lane or two, cancel.
template <class Item, bool Toggle = false>
struct bitmap_marker {
  static constexpr Item no_word = ~Item{0};
  std::uint32_t* bitmap;
  Item word = no_word;
  unsigned bits = 0;
  __device__ ONEPASS_FORCEINLINE void mark(Item item) {
    const Item w = item / 32;
    if (w != word) {
      flush();
      word = w;
    }
    if constexpr (Toggle)
      bits ^= 1u << (item % 32);
    else
      bits |= 1u << (item % 32);
  }
  __device__ ONEPASS_FORCEINLINE void flush() {
    if (word != no_word) {
      if constexpr (Toggle)
        atomicXor(&bitmap[word], bits);
      else
        atomicOr(&bitmap[word], bits);
    }
    word = no_word;
    bits = 0;
  }
};

// Gaps whose inner bitmap words (those wholly inside the gap) number more than this are
// listed, not stored by the marking warp, in pieces of at most this many words: a list of
// word ranges [first, last] (ranges[0]: how many; piece r at ranges[2 + 2r] and
// ranges[3 + 2r]) that set_listed_words_kernel sets, a warp a piece. One warp storing a
// long gap's words alone kept the scan waiting: one trimmed segment with long gaps on
// either side ran several times slower than with them listed (docs/perf/
// segmented_scan.md, "Copied gap items as one-item segments"). Pieces, not whole gaps,
// so that no thread of the listed words' kernel walks the list ("Long gaps in pieces").
inline constexpr long long listed_range_words = 1024;

// The most pieces the marking lists for n items. A listed gap of L > listed_range_words
// inner words is ceil(L / listed_range_words) <= 2 L / listed_range_words pieces, and no
// two gaps share an inner word. The list fits in the `ends` bitmap's n / 8 bytes
// wherever a gap can be listed (n > 32 * listed_range_words).
constexpr long long max_listed_pieces(long long n) { return 2 * ((n + 31) / 32) / listed_range_words; }
// The pieces a listed gap of `words` inner words is cut into.
ONEPASS_HD constexpr long long listed_pieces(long long words) {
  return (words + listed_range_words - 1) / listed_range_words;
}

// Sets bits [first, last) of a global bitmap for each lane's range (empty where first >=
// last), the warp together: a lane ORs its range's partly covered first and last words,
// and the warp stores the words wholly inside each range, lane by lane, 32 consecutive
// words a store; where there are more than listed_range_words of them and `ranges` is not
// null, the warp lists them there in pieces instead (the lanes writing a range's pieces
// together). Only this call (or the listed words' kernel) sets bits in those inner words
// (they hold no other item), so plain stores do. All 32 lanes must call it.
__device__ ONEPASS_FORCEINLINE void set_bit_ranges(std::uint32_t* bitmap, long long first, long long last,
                                                   unsigned long long* ranges) {
  long long inner_first = 0, inner_last = -1;  // words wholly inside the range
  unsigned long long first_piece = 0;  // listed: where its pieces begin in the list
  if (first < last) {
    const long long fw = first / 32, lw = (last - 1) / 32;
    const unsigned head = ~0u << (first % 32), tail = ~0u >> (31 - (last - 1) % 32);
    if (fw == lw) {
      atomicOr(&bitmap[fw], head & tail);
    } else {
      atomicOr(&bitmap[fw], head);
      atomicOr(&bitmap[lw], tail);
      inner_first = fw + 1;
      inner_last = lw - 1;
      const long long words = inner_last - inner_first + 1;
      if (ranges != nullptr && words > listed_range_words)
        first_piece = atomicAdd(&ranges[0], static_cast<unsigned long long>(listed_pieces(words)));
    }
  }
  const int lane = lane_id();
  for (unsigned pending = __ballot_sync(~0u, inner_first <= inner_last); pending != 0; pending &= pending - 1) {
    const int owner = __ffs(pending) - 1;
    const long long a = __shfl_sync(~0u, inner_first, owner), z = __shfl_sync(~0u, inner_last, owner);
    // Listed or not follows from the range itself, the same on every lane.
    if (ranges != nullptr && z - a + 1 > listed_range_words) {
      const unsigned long long at = __shfl_sync(~0u, first_piece, owner);
      const long long pieces = listed_pieces(z - a + 1);
      for (long long p = lane; p < pieces; p += 32) {
        const long long piece_first = a + p * listed_range_words;
        const long long piece_last = piece_first + listed_range_words - 1;
        const unsigned long long r = at + static_cast<unsigned long long>(p);
        ranges[2 + 2 * r] = static_cast<unsigned long long>(piece_first);
        ranges[3 + 2 * r] = static_cast<unsigned long long>(piece_last < z ? piece_last : z);
      }
    } else {
      for (long long w = a + lane; w <= z; w += 32) bitmap[w] = ~0u;
    }
  }
}

// A lane's run of Count consecutive offsets starting at `index`: those at or past `count`
// read as `tail`. Aligned: `p` is 16-byte aligned, so for 4- and 8-byte offsets whole runs
// load as 16-byte vectors (each lane's run starts at a multiple of Count); other offset
// types, runs that reach `count`, and unaligned arrays load offset by offset.
template <int Count, class Offset>
__device__ ONEPASS_FORCEINLINE void load_offset_run(const Offset* p, index_t index, index_t count, long long tail,
                                                    bool aligned, long long (&out)[Count]) {
  constexpr bool vectors = (sizeof(Offset) == 4 || sizeof(Offset) == 8) && Count * sizeof(Offset) % 16 == 0;
  if constexpr (vectors) {
    if (aligned && index + Count <= count) {
      constexpr int per_vector = 16 / static_cast<int>(sizeof(Offset));
      using vector = std::conditional_t<sizeof(Offset) == 8, longlong2, int4>;
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
      for (int v = 0; v < Count / per_vector; ++v) {
        const vector x = *reinterpret_cast<const vector*>(p + index + v * per_vector);
        if constexpr (sizeof(Offset) == 8) {
          out[v * 2] = static_cast<long long>(static_cast<Offset>(x.x));
          out[v * 2 + 1] = static_cast<long long>(static_cast<Offset>(x.y));
        } else {
          out[v * 4] = static_cast<long long>(static_cast<Offset>(x.x));
          out[v * 4 + 1] = static_cast<long long>(static_cast<Offset>(x.y));
          out[v * 4 + 2] = static_cast<long long>(static_cast<Offset>(x.z));
          out[v * 4 + 3] = static_cast<long long>(static_cast<Offset>(x.w));
        }
      }
      return;
    }
  }
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
  for (int u = 0; u < Count; ++u) out[u] = index + u < count ? static_cast<long long>(p[index + u]) : tail;
}

// Moves one word of a warp's bitmap window to the bitmap (clearing it for the next run):
// a plain store for a word only this run marks, atomicOr for one it may share.
__device__ ONEPASS_FORCEINLINE void write_window_word(std::uint32_t& window_word, std::uint32_t* bitmap_word,
                                                      bool shared_word) {
  const std::uint32_t bits = window_word;
  window_word = 0;
  if (bits == 0) return;
  if (shared_word)
    atomicOr(bitmap_word, bits);
  else
    *bitmap_word = bits;
}

// Checks every segment against n and its successor, and marks the first item of each
// non-empty segment in `begins` and (unless Csr) in `ends` the item after each segment,
// when inside the array and where the next segment does not begin: the gaps' first items
// (bitmap_heads). Begin/end arrays without gaps mark no `ends` bit, so their marking writes
// what CSR offsets' does (marking every non-empty segment's end cost a second atomicOr or
// window word a segment: docs/perf/segmented_scan.md, "Ends marked only where a gap
// begins"), and `gaps_found` (unless null) is set where
// any `ends` bit is. With null bitmaps it only checks. Segments must be in order and must
// not overlap: begin[s] <= end[s] <= begin[s + 1]. Csr: end == begin + 1 (one array of
// boundaries), read once; the scan then needs no `ends` (csr_bitmap_heads).
//
// Warp by warp, with no block-wide barrier (docs/perf/segmented_scan.md, "The marking,
// warp by warp"). Each warp takes runs of 32 * SegmentsPerLane consecutive segments:
//   1. lane l loads segments l * SegmentsPerLane ... of the run into registers (16-byte
//      vectors where the arrays are aligned) and the next lane's first begin by shuffle;
//   2. it checks its segments with one chain of comparisons (begin <= end <= next begin,
//      first >= 0, last <= n); only a run where some lane's chain fails is checked segment
//      by segment, to name the first bad one, and such a run marks nothing;
//   3. if the run's items span at most WindowWords bitmap words, each lane ORs the bits of
//      its segments that share a word in a register and adds them to the warp's own
//      window of the bitmaps in shared memory (a shared atomic per lane and word); the warp
//      then writes the window out coalesced: plain stores inside the span, which no other
//      run marks (segments are in order), and atomicOr on its first and last words. Sparser
//      runs (long segments: few marks per word) OR each lane's words into global memory.
// The block-wide version before (a chunk of 2048 segments staged in shared memory, four
// block barriers a chunk, 2 blocks per SM for begin/end arrays) executed far more
// instructions a segment on one-item begin/end segments and read them well below this
// one's rate.
//
// GapsAsHeads (begin/end arrays, for inclusive scans whose gap items are copied): every
// item in no segment is marked in `begins` as well, as a segment of its own, and nothing
// in `ends`: an inclusive scan of a one-item segment is its input, which is what a copied
// gap item gets, so the scan runs the gap-free code on one bitmap. A run marks its
// segments' gaps up to the next run's first begin (the first run from item 0, the last to
// n). In the window, a lane toggles the bits where its gaps begin and end (twice at one
// item cancels: an empty segment between two gaps), and the warp turns the toggles into
// the gaps' items with a prefix XOR, bit by bit within each word and by ballot across
// words. Sparser runs set each gap's bits in global memory, the warp storing the words
// wholly inside a gap together (set_bit_ranges), except that a gap of more than
// listed_range_words such words is listed, in pieces, in `ends` (unused otherwise; its
// first 16 bytes, which hold the list's count, cleared; max_listed_pieces says why the
// list fits) for set_listed_words_kernel, launched next.
template <int BlockThreads, int SegmentsPerLane, int WindowWords, int MinBlocksPerSm, bool Csr, bool GapsAsHeads,
          class Offset>
__global__ __launch_bounds__(BlockThreads, MinBlocksPerSm) void mark_segments_kernel(
    const Offset* begin, const Offset* end, index_t num_segments, index_t n, std::uint32_t* begins,
    std::uint32_t* ends, unsigned long long* error, unsigned* gaps_found) {
  static_assert(!(Csr && GapsAsHeads), "CSR offsets leave no gap between segments");
  constexpr int U = SegmentsPerLane;
  constexpr int run = 32 * U;
  constexpr int warps = BlockThreads / 32;
  constexpr int bitmaps = Csr ? 1 : 2;  // GapsAsHeads: the second holds the toggles
  static_assert(BlockThreads % 32 == 0 && WindowWords % 32 == 0, "whole warps, whole window rows");
  __shared__ std::uint32_t window_storage[warps][bitmaps][WindowWords];
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  std::uint32_t(&window)[bitmaps][WindowWords] = window_storage[warp];
  for (int i = lane; i < WindowWords; i += 32)
    for (int k = 0; k < bitmaps; ++k) window[k][i] = 0;
  __syncwarp();
  // The value past the last segment: CSR's last boundary, else n (the largest end allowed).
  const long long tail = Csr ? static_cast<long long>(begin[num_segments]) : n;
  const bool aligned = reinterpret_cast<std::uintptr_t>(begin) % 16 == 0 &&
                       (Csr || reinterpret_cast<std::uintptr_t>(end) % 16 == 0);
  const index_t stride = static_cast<index_t>(gridDim.x) * warps * run;
  bool marked_end = false;  // some gap begins in this lane's segments
  for (index_t s0 = (static_cast<index_t>(blockIdx.x) * warps + warp) * run; s0 < num_segments; s0 += stride) {
    const index_t first = s0 + static_cast<index_t>(lane) * U;
    long long b[U], e[U];
    load_offset_run<U>(begin, first, num_segments, tail, aligned, b);
    if constexpr (!Csr) load_offset_run<U>(end, first, num_segments, tail, aligned, e);
    // The next lane's first begin; the last lane's is the next run's (CSR: the boundary
    // after the run, which exists while s0 + run <= num_segments).
    long long next = __shfl_down_sync(~0u, b[0], 1);
    if (lane == 31) next = s0 + run < num_segments ? static_cast<long long>(begin[s0 + run]) : tail;
    // Each segment's next begin (registers renamed, nothing copied): CSR's end of it, and
    // where an end that differs from it leaves a gap.
    long long nb[U];
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
    for (int u = 0; u < U; ++u) nb[u] = u + 1 < U ? b[u + 1] : next;
    if constexpr (Csr) {
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
      for (int u = 0; u < U; ++u) e[u] = nb[u];
    }
    bool in_order = b[0] >= 0 && next <= n;
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
    for (int u = 0; u < U; ++u) in_order &= b[u] <= e[u] && e[u] <= nb[u];
    if (__any_sync(~0u, !in_order)) {
      bool bad = false;
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
      for (int u = 0; u < U; ++u) {
        const index_t s = first + u;
        if (s >= num_segments) break;
        segment_problem p = segment_problem::none;
        if (b[u] < 0 || b[u] > n)
          p = segment_problem::begin_out_of_range;
        else if (e[u] < 0 || e[u] > n)
          p = segment_problem::end_out_of_range;
        else if (e[u] < b[u])
          p = segment_problem::end_before_begin;
        else if (s + 1 < num_segments && nb[u] < e[u])
          p = segment_problem::out_of_order;
        if (p != segment_problem::none) {
          atomicMax(error, encode_segment_error(s, p));
          bad = true;
        }
      }
      if (__any_sync(~0u, bad)) continue;
    }
    if (begins == nullptr) continue;
    // The run's marks lie in items [lo, hi]: its first begin, and its last end (n - 1 at
    // most). GapsAsHeads: from item 0 in the first run, to the next run's first begin.
    long long lo = __shfl_sync(~0u, b[0], 0);
    long long hi;
    if constexpr (GapsAsHeads) {
      if (s0 == 0) lo = 0;
      const long long run_next = __shfl_sync(~0u, next, 31);
      hi = (run_next < n ? run_next : n) - 1;
    } else {
      const long long last_end = __shfl_sync(~0u, e[U - 1], 31);
      hi = last_end < n ? last_end : n - 1;
    }
    const long long lo_word = lo / 32;
    const long long words = hi / 32 - lo_word + 1;
    if (words <= 0) continue;  // every segment empty at n
    if constexpr (GapsAsHeads) {
      if (words > WindowWords) {
        bitmap_marker<long long> head_marks{begins};
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
        for (int u = 0; u < U; ++u)
          if (b[u] < e[u]) head_marks.mark(b[u]);
        head_marks.flush();
        const auto ranges = reinterpret_cast<unsigned long long*>(ends);
        // before segment 0:
        set_bit_ranges(begins, s0 == 0 && lane == 0 ? 0 : 1, s0 == 0 && lane == 0 ? b[0] : 0, ranges);
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
        for (int u = 0; u < U; ++u) set_bit_ranges(begins, e[u], nb[u] < n ? nb[u] : n, ranges);
        continue;
      }
      const auto base = static_cast<unsigned>(lo_word * 32);
      const auto last = static_cast<unsigned>(hi) - base;
      {
        bitmap_marker<unsigned> head_marks{window[0]};
        bitmap_marker<unsigned, true> toggles{window[1]};
        if (s0 == 0 && lane == 0 && b[0] > 0) {  // the items before segment 0: a gap from item 0
          toggles.mark(0u);
          if (static_cast<unsigned>(b[0]) - base <= last) toggles.mark(static_cast<unsigned>(b[0]) - base);
        }
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
        for (int u = 0; u < U; ++u) {
          const unsigned rb = static_cast<unsigned>(b[u]) - base, re = static_cast<unsigned>(e[u]) - base;
          if (rb < re) head_marks.mark(rb);
          if (e[u] < nb[u] && re <= last) {  // a gap [e, next begin): toggled where it starts and ends
            toggles.mark(re);
            const unsigned rn = static_cast<unsigned>(nb[u]) - base;
            if (rn <= last) toggles.mark(rn);
          }
        }
        head_marks.flush();
        toggles.flush();
      }
      __syncwarp();
      // Word i's gap items: the XOR of every toggle at or before each bit, from the run's
      // first word on (the bits within the word by five shifts, the words before it by the
      // parity of their toggles).
      const int span = static_cast<int>(words);
      const unsigned lanes_below = (1u << lane) - 1u;
      unsigned carry = 0;  // the parity of the toggles in the words before this round's
      for (int i0 = 0; i0 < span; i0 += 32) {
        const int i = i0 + lane;
        const unsigned t = i < span ? window[1][i] : 0u;
        unsigned in_gap = t;
        in_gap ^= in_gap << 1;
        in_gap ^= in_gap << 2;
        in_gap ^= in_gap << 4;
        in_gap ^= in_gap << 8;
        in_gap ^= in_gap << 16;
        const unsigned odd = __ballot_sync(~0u, (__popc(t) & 1) != 0);
        if ((carry + __popc(odd & lanes_below)) & 1) in_gap = ~in_gap;
        carry = (carry + __popc(odd)) & 1;
        if (i < span) {
          // Not past hi: the last gap's end is not toggled where it is the next run's first
          // begin (or n), and the items after it belong to that run (or to no item).
          const long long word_first = static_cast<long long>(base) + 32ll * i;
          if (word_first + 32 > hi + 1) in_gap &= (1u << (hi + 1 - word_first)) - 1u;
          window[1][i] = 0;
          window[0][i] |= in_gap;
          write_window_word(window[0][i], begins + lo_word + i, i == 0 || i == span - 1);
        }
      }
      __syncwarp();
      continue;
    }
    if (words > WindowWords) {
      bitmap_marker<long long> head_marks{begins}, end_marks{ends};
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
      for (int u = 0; u < U; ++u) {
        if (b[u] < e[u]) head_marks.mark(b[u]);
        if (!Csr && e[u] < n && e[u] != nb[u]) {
          end_marks.mark(e[u]);
          marked_end = true;
        }
      }
      head_marks.flush();
      end_marks.flush();
      continue;
    }
    // Items relative to the window's first word: 32-bit arithmetic from here.
    const auto base = static_cast<unsigned>(lo_word * 32);
    const auto last = static_cast<unsigned>(hi) - base;
    {
      bitmap_marker<unsigned> head_marks{window[0]}, end_marks{window[bitmaps - 1]};
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
      for (int u = 0; u < U; ++u) {
        const unsigned rb = static_cast<unsigned>(b[u]) - base, re = static_cast<unsigned>(e[u]) - base;
        if (rb < re) head_marks.mark(rb);
        if (!Csr && re <= last && e[u] != nb[u]) {
          end_marks.mark(re);
          marked_end = true;
        }
      }
      head_marks.flush();
      end_marks.flush();
    }
    __syncwarp();
    const int span = static_cast<int>(words);
    for (int i = lane; i < span; i += 32) {
      const bool shared_word = i == 0 || i == span - 1;  // other runs may mark it too
      write_window_word(window[0][i], begins + lo_word + i, shared_word);
      if constexpr (!Csr) write_window_word(window[1][i], ends + lo_word + i, shared_word);
    }
    __syncwarp();
  }
  // One word says whether any `ends` bit is set: without, the scan reads no `ends` word.
  if constexpr (!Csr)
    if (gaps_found != nullptr && __any_sync(~0u, marked_end) && lane == 0) atomicOr(gaps_found, 1u);
}

// Sets every word of the pieces the marking listed (set_bit_ranges) to all ones, a warp a
// piece (at most listed_range_words words: a few 16-byte stores a lane), grid-stride over
// the list; nothing where none is listed.
template <int BlockThreads>
__global__ __launch_bounds__(BlockThreads) void set_listed_words_kernel(std::uint32_t* bitmap,
                                                                        const unsigned long long* ranges) {
  constexpr int warps = BlockThreads / 32;
  const unsigned long long count = ranges[0];
  const auto lane = static_cast<index_t>(threadIdx.x % 32);
  const auto stride = static_cast<unsigned long long>(gridDim.x) * warps;
  for (auto r = static_cast<unsigned long long>(blockIdx.x) * warps + threadIdx.x / 32; r < count; r += stride) {
    const auto first = static_cast<index_t>(ranges[2 + 2 * r]), last = static_cast<index_t>(ranges[3 + 2 * r]);
    // Words [first, vector_first) and [vector_end, last] one by one, whole 16-byte vectors between.
    const auto misalignment = static_cast<index_t>(reinterpret_cast<std::uintptr_t>(bitmap + first) % 16 / 4);
    const index_t vector_first = first + (4 - misalignment) % 4;
    const index_t vectors = (last + 1 - vector_first) / 4;
    const index_t vector_end = vector_first + 4 * vectors;
    if (first + lane < vector_first && first + lane <= last) bitmap[first + lane] = ~0u;
    if (vector_end + lane <= last) bitmap[vector_end + lane] = ~0u;
    auto* const v = reinterpret_cast<uint4*>(bitmap + vector_first);
    for (index_t i = lane; i < vectors; i += 32) v[i] = make_uint4(~0u, ~0u, ~0u, ~0u);
  }
}

// --- the kernel -------------------------------------------------------------------------

template <class T, class Heads, int BlockThreads, int ItemsPerThread, int V>
struct segmented_scan_shared {
  using pair = segmented_value<T>;
  // A warp's exchange of its values, which is also the head source's scratch before that
  // (16-byte aligned: scan by key stores its head bytes there in vectors of up to 8).
  struct alignas(16) warp_exchange_storage {
    typename warp_exchange<T, ItemsPerThread, V>::storage values;
  };
  warp_exchange_storage exchange[BlockThreads / 32];
  typename block_scan<pair, BlockThreads>::storage scan;
  pair tile_prefix;
  // Per warp, written before the block scan's barrier: does its first item begin a
  // segment, does any of its items. Every thread reads them to count the warps that wait
  // for the tile's prefix.
  bool warp_first_head[BlockThreads / 32];
  bool warp_any_head[BlockThreads / 32];
  index_t tile;
};

// A source of the offsets form (bitmap_heads, csr_bitmap_heads) whose items in no segment
// are written with their input value (onepass::gap_items::copied) instead of being left
// as they are in out: the kernels store every item, whole 16-byte chunks where aligned,
// and never a partly written 32-byte sector (which the memory system completes with a read
// of out: docs/perf/segmented_scan.md, "Gap items copied from the input").
template <class Source>
struct gaps_copied : Source {
  static_assert(Source::has_gaps || Source::has_window, "only the offsets forms leave items in no segment");
  static constexpr bool copies_gaps = true;
};
template <class Heads, class = void>
struct heads_copy_gaps : std::false_type {};
template <class Heads>
struct heads_copy_gaps<Heads, std::enable_if_t<Heads::copies_gaps>> : std::true_type {};
// Whether a kernel must leave some items of `out` unwritten: the offsets forms, unless
// they copy their gap items.
template <class Heads>
inline constexpr bool heads_leave_gaps = (Heads::has_gaps || Heads::has_window) && !heads_copy_gaps<Heads>::value;

// Whether a head source prefetches its own bytes into L2 beside the values (scan by key's
// keys, head flags; not the bitmaps, a 64th of 8-byte values' bytes and read once a tile).
template <class Heads, class = void>
struct heads_prefetch_l2 : std::false_type {};
template <class Heads>
struct heads_prefetch_l2<Heads, std::void_t<decltype(&Heads::prefetch_l2)>> : std::true_type {};

// A source's view for one block of the pipelined agent, read once at its start (a source
// with `has_block_view`: bitmap_heads), else the source itself.
template <class Heads, class = void>
struct heads_block_view : std::false_type {};
template <class Heads>
struct heads_block_view<Heads, std::enable_if_t<Heads::has_block_view>> : std::true_type {};
template <class Heads>
__device__ ONEPASS_FORCEINLINE Heads block_view_of(const Heads& source) {
  Heads view = source;
  if constexpr (heads_block_view<Heads>::value) view.prepare_block();
  return view;
}

// Named barrier 1 over the first `warps` warps of the block (barrier 0 is __syncthreads).
// Orders shared-memory accesses among them like __syncthreads.
__device__ ONEPASS_FORCEINLINE void sync_first_warps(int warps) {
  asm volatile("bar.sync 1, %0;" ::"r"(warps * 32) : "memory");
}

// Exclusive: out[i] = init op (the items of i's segment before i); otherwise the items of
// i's segment up to and including i. Descriptors hold inclusive pairs without init.
template <class T, class Heads, class Op, int BlockThreads, int ItemsPerThread, int V, bool Exclusive,
          class Delay, int MinBlocksPerSM>
__global__ void __launch_bounds__(BlockThreads, MinBlocksPerSM)
    segmented_scan_kernel(const T* in, T* out, index_t n, Heads source, T init, Op op,
                          segment_tile_state<T, Heads> state, lookback::tile_counter counter,
                          unsigned backoff_ns, Delay delay, index_t prefetch_tiles) {
  constexpr int N = ItemsPerThread;
  using descriptor = segment_descriptor_for<T, Heads>;
  static_assert(N >= 1 && N <= 32, "a thread's heads are one 32-bit mask");
  constexpr index_t tile_items = static_cast<index_t>(BlockThreads) * N;
  using pair = segmented_value<T>;
  using pair_op = segmented_op<Op>;
  using shared_t = segmented_scan_shared<T, Heads, BlockThreads, N, V>;
  __shared__ shared_t shared;
  __shared__ index_t window[2];  // a has_window source's covered items
  const pair_op seg{op};

  const int tid = static_cast<int>(threadIdx.x);
  const int lane = lane_id();
  const int warp = warp_id();
  if (tid == 0) {
    // The source's check and window are loaded before the claim and used after it, so
    // that their round trips to L2 overlap the claim's. (With the check returning before
    // the claim and the window stored before it, three round trips ran in series before
    // every tile's loads could start: docs/perf/segmented_scan.md, "The one-tile kernel's
    // claim waited for the source's loads".)
    const bool ok = source.ok();
    index_t window_begin = 0, window_end = 0;
    if constexpr (Heads::has_window) {
      window_begin = source.window_begin();
      window_end = source.window_end();
    }
    const index_t claimed = counter.claim();
    if constexpr (Heads::has_window) {
      window[0] = window_begin;
      window[1] = window_end;
    }
    shared.tile = ok ? claimed : index_t{-1};
    if (ok) {
      prefetch_tile_l2(in, claimed, prefetch_tiles, tile_items * static_cast<index_t>(sizeof(T)),
                       n * static_cast<index_t>(sizeof(T)));
      if constexpr (V > 1 && heads_prefetch_l2<Heads>::value)
        source.prefetch_l2(claimed, prefetch_tiles, tile_items, n);
    }
  }
  __syncthreads();
  const index_t tile = shared.tile;
  if (tile < 0) return;  // the source found its input bad: every block returns, none waits
  const index_t tile_begin = tile * tile_items;
  const long long tile_valid = n - tile_begin;
  const index_t warp_begin = tile_begin + static_cast<index_t>(warp) * 32 * N;
  const long long warp_valid = n - warp_begin;  // may be <= 0 in the last tile

  T items[N];
  load_vector_striped<32, V>(in + warp_begin, items, lane, warp_valid);
  // The heads before the values' exchange, so that their loads are in flight with the
  // values' (after it, the exchange's shared-memory round trip ordered them behind).
  using warp_storage = typename shared_t::warp_exchange_storage;
  thread_heads h = source.template load<N, V, static_cast<int>(sizeof(warp_storage))>(
      reinterpret_cast<unsigned char*>(&shared.exchange[warp]), tile_begin, tile_valid, n);
  typename warp_exchange<T, N, V>::storage& exchange_storage = shared.exchange[warp].values;
  warp_exchange<T, N, V> exchange(exchange_storage, lane);
  exchange.striped_to_blocked(items, items);

  if (tile == 0 && tid == 0 && (h.heads & 1u) == 0) {  // item 0 always begins something
    h.heads |= 1u;
    if constexpr (Heads::has_gaps) h.gaps |= 1u;  // no segment begins there: a gap
  }
  if constexpr (!Heads::has_gaps) h.gaps = 0;

  // The thread's own items, restarting at each head. The last head's kind goes into the
  // thread's total.
  const pair thread_total = scan_thread_segments<Heads::has_gaps>(items, h, op);

  {
    const bool any_head = __any_sync(full_warp_mask, h.heads != 0);
    if (lane == 0) {
      shared.warp_first_head[warp] = h.heads & 1u;
      shared.warp_any_head[warp] = any_head;
    }
  }
  block_scan<pair, BlockThreads> scan(shared.scan);
  pair thread_prefix, aggregate;
  const bool has_thread_prefix = scan.exclusive_prefix(thread_total, seg, thread_prefix, aggregate);

  // Does the tile's first item need what comes before the tile? (Thread 0, lane 0 of
  // warp 0, holds it.)
  if (warp == 0) {
    const bool needs_prefix = !(shfl_idx(h.heads, 0) & 1u);
    const bool leader = lane == 0;
    if (aggregate.head != no_head) {
      if (leader) {
        delay(tile, lookback::tile_status::prefix);
        descriptor::publish(state, tile, lookback::tile_status::prefix, aggregate);
      }
    } else if (leader) {
      delay(tile, lookback::tile_status::aggregate);
      descriptor::publish(state, tile, lookback::tile_status::aggregate, aggregate);
    }
    if (needs_prefix) {  // never tile 0: its first item is a head
      // The warp's items wait in its exchange slots during the lookback: held in
      // registers beside the lookback's, they set the kernel's register peak (8-byte
      // values spilled under the 4-blocks-per-SM cap; docs/perf/segmented_scan.md).
      exchange.save_blocked(items);
      const pair prefix = descriptor::template look_back<1>(state, tile, op, backoff_ns);
      if (leader) {
        if (aggregate.head == no_head) {
          delay(tile, lookback::tile_status::prefix);
          descriptor::publish(state, tile, lookback::tile_status::prefix, seg(prefix, aggregate));
        }
        shared.tile_prefix = prefix;
      }
      exchange.restore_blocked(items);
    }
  }

  // A thread needs the tile's prefix when nothing before its first item, in the tile, is
  // a head: its thread prefix has no head (thread 0 has none) and its first item is not
  // one. Such threads fill the first `waiting` warps (those up to the first warp that
  // starts with a head, or that holds one); only they meet warp 0 at a named barrier once
  // it has the prefix, the others finish while warp 0 looks back. Usually waiting is 0
  // or 1; with one long segment it is every warp. (The per-warp flags were written before
  // the block scan's barrier.) Thread 0 of tile 0 never waits: item 0 is a head.
  int waiting = 0;
#pragma unroll
  for (int w = 0; w < BlockThreads / 32; ++w) {
    if (shared.warp_first_head[w]) break;
    waiting = w + 1;
    if (shared.warp_any_head[w]) break;
  }
  if (waiting > 1 && warp < waiting) {
    sync_first_warps(waiting);
  } else if (warp == 0) {
    __syncwarp();  // lane 0's tile_prefix, for the other lanes
  }

  // Fold the prefixes into the items before the first head; for gap forms, work out which
  // items are covered (the kind of the last head at or before each).
  unsigned uncovered = finish_thread_segments<Exclusive, Heads::has_gaps>(
      items, h, has_thread_prefix, thread_prefix, shared.tile_prefix, init, op);
  if constexpr (Heads::has_window)
    uncovered = outside_window<N>(tile_begin + static_cast<index_t>(tid) * N, window[0], window[1]);

  bool warp_has_gaps = false;
  if constexpr (Heads::has_gaps || Heads::has_window)
    warp_has_gaps = __any_sync(full_warp_mask, uncovered != 0);
  if (!warp_has_gaps) {
    exchange.blocked_to_striped(items, items);
    store_vector_striped<32, V>(out + warp_begin, items, lane, warp_valid);
  } else if constexpr (heads_copy_gaps<Heads>::value) {
    // A warp holding items in no segment, asked to copy them: every item in the striped
    // order, those items read again from `in` (coalesced, 32 consecutive items a load).
    exchange.save_blocked(items);
    __syncwarp();
    store_striped_copying_gaps<N>(out + warp_begin, in + warp_begin, uncovered, warp_valid,
                                  [&](int j) { return exchange.element(j * 32 + lane); });
  } else if constexpr (Heads::has_gaps || Heads::has_window) {
    // A warp holding items outside every segment: item by item in the striped order, 32
    // consecutive items a store, read from the exchange's slots, those items left as they
    // are in `out`. (Each thread writing its own covered items from the blocked order, at
    // a stride of N items across the warp, ran far below the plain scan's rate even with
    // gaps thousands of items apart.)
    exchange.save_blocked(items);
    __syncwarp();  // the warp's items, in order
    store_covered_striped<N>(out + warp_begin, uncovered, warp_valid,
                             [&](int j) { return exchange.element(j * 32 + lane); });
  }
}
#endif

}  // namespace onepass::detail
