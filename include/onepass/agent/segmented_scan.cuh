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
//
// The pieces: agent/segmented_thread.cuh (pairs, descriptors, one thread's items),
// agent/segment_heads.cuh (head sources), agent/segment_marking.cuh (the offsets form's
// marking kernels); this file holds the one-tile kernel.
#pragma once

#include "onepass/agent/segment_marking.cuh"

namespace onepass::detail {

#if defined(__CUDACC__)

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
// FixedOrderTilesPerLane > 0: the deterministic segmented scan. The tile looks back in the
// fixed order (segment_descriptor::look_back_fixed_order, groups of 32 times this many
// tiles), and a tile without a head publishes its PREFIX only if it is its group's last
// (lookback::fixed_order_publishes_prefix), so the bits depend on the tile shape and the
// input alone. A tile with a head still publishes its PREFIX at once: it equals its
// AGGREGATE, whatever reads it. V (the loads' width) never changes which items a thread
// holds, so every alignment gives the same bits.
template <class T, class Heads, class Op, int BlockThreads, int ItemsPerThread, int V, bool Exclusive,
          class Delay, int MinBlocksPerSM, int FixedOrderTilesPerLane = 0>
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
  constexpr bool fixed_order = FixedOrderTilesPerLane > 0;
  // (The fixed order tags every publication with its pair's kind.)
  const auto publish = [&](lookback::tile_status status, const pair& p) {
    if constexpr (fixed_order)
      descriptor::publish_pair(state, tile, status, p);
    else
      descriptor::publish(state, tile, status, p);
  };
  if (warp == 0) {
    const bool needs_prefix = !(shfl_idx(h.heads, 0) & 1u);
    const bool leader = lane == 0;
    if (aggregate.head != no_head) {
      if (leader) {
        delay(tile, lookback::tile_status::prefix);
        publish(lookback::tile_status::prefix, aggregate);
      }
    } else if (leader) {
      delay(tile, lookback::tile_status::aggregate);
      publish(lookback::tile_status::aggregate, aggregate);
    }
    if (needs_prefix) {  // never tile 0: its first item is a head
      // The warp's items wait in its exchange slots during the lookback: held in
      // registers beside the lookback's, they set the kernel's register peak (8-byte
      // values spilled under the 4-blocks-per-SM cap; docs/perf/segmented_scan.md).
      exchange.save_blocked(items);
      pair prefix;
      if constexpr (fixed_order)
        prefix = descriptor::template look_back_fixed_order<FixedOrderTilesPerLane>(state, tile, op, backoff_ns);
      else
        prefix = descriptor::template look_back<1>(state, tile, op, backoff_ns);
      if (leader) {
        // A tile without a head publishes its PREFIX now (fixed order: its group's last only).
        bool publishes = aggregate.head == no_head;
        if constexpr (fixed_order)
          publishes = publishes && lookback::fixed_order_publishes_prefix<FixedOrderTilesPerLane>(tile);
        if (publishes) {
          delay(tile, lookback::tile_status::prefix);
          publish(lookback::tile_status::prefix, seg(prefix, aggregate));
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
