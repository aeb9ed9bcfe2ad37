// onepass/agent/segmented_scan_pipeline.cuh — the production segmented scan as
// persistent blocks that keep loads in flight during their lookback.
//
// The segmented scan's pairs (segmented_thread.cuh) as a policy of the persistent
// pipeline (single_pass/pipeline.cuh), as the plain scan's (scan_pipeline.cuh): a block
// stays resident and works on three tiles at once, one per shared-memory stage. Each step:
//   C: starts the copies of a newly claimed tile's values into a stage (cp.async) and the
//      loads of its heads into registers (the head source's fetch: 8 registers of flags,
//      a word of each bitmap, or a thread's keys and, for lane 0, the key before its warp);
//   B: for the tile started one step earlier: turns its heads' registers into head masks,
//      reduces the tile as pairs and publishes — PREFIX at once when the tile holds a
//      head, AGGREGATE otherwise;
//   A: scans the tile started two steps earlier, within each thread only (the thread
//      prefixes and the aggregate are kept from B's block-wide scan, as in the plain
//      pipeline); if its first item is not a head, warp 0 looks back (every tile before
//      it published a step ago, so with heads about, the tile before usually has its
//      PREFIX out already); folds the prefixes in and stores.
// Why: in the one-tile-per-block kernel the warps that need the tile's prefix wait with
// no loads in flight while warp 0 looks back; with one long segment that is every warp
// of every tile, and the segmented scan ran well below the plain scan's rate there
// (docs/perf/segmented_scan.md, "The pipelined agent").
//
// The values move as in the plain scan: 16-byte cp.async chunks into a stage
// of pipeline_layout (128-byte aligned rows, chunks permuted within a row), blocked
// reads, striped 16-byte stores from the stage. In a tile holding items in no segment
// (gaps: begin/end arrays, or outside CSR offsets' window) each warp stores its own items,
// item by item in the striped order where it holds such items, leaving them as they are
// in `out` (store_warp_items); or, asked to copy them (gaps_copied), the scan leaves
// their input values in the stage and the tile is stored whole.
//
// No deadlock, by the plain pipeline's argument: a block claims tiles in increasing
// order, and the smallest tile without a published prefix finds only PREFIXes below it.
#pragma once

#include <type_traits>

#include "onepass/agent/segmented_scan.cuh"
#include "onepass/single_pass/pipeline.cuh"

namespace onepass::detail {

// A full tile of a gap form (begin/end arrays, or CSR offsets' window), stored warp by
// warp from its stage (Layout: the tile's pipeline_layout). Warp w writes items
// [w * 32 * N, (w + 1) * 32 * N) of dst, which its own threads wrote to the stage; a
// warp without uncovered items as 16-byte chunks, 512 contiguous bytes a store, a warp
// with some through store_covered_striped (uncovered: the calling thread's mask).
template <class Layout, int N, class T>
__device__ ONEPASS_FORCEINLINE void store_warp_items(const unsigned char* stage, T* dst, unsigned uncovered,
                                                     bool warp_has_gaps) {
  constexpr int warp_items = 32 * N;
  const int lane = lane_id();
  const int first = warp_id() * warp_items;  // the warp's first item in the tile
  if (!warp_has_gaps) {
    char* const to = reinterpret_cast<char*>(dst + first);
#pragma unroll
    for (int k = 0; k < Layout::thread_chunks; ++k) {
      const int c = k * 32 + lane;  // of the warp's chunks
      *reinterpret_cast<uint4*>(to + c * 16) =
          *reinterpret_cast<const uint4*>(stage + Layout::chunk_offset(first / Layout::vector + c));
    }
    return;
  }
  // Item j * 32 + lane of the warp sits at byte w = (first + j * 32 + lane) * sizeof(T)
  // of the unpermuted tile, and at w with bits 4-6 XORed with bits 7-9 in the stage
  // (Layout::chunk_offset). For 4- and 8-byte items a step of j moves w by whole
  // 128-byte rows, so j enters the XOR only through the row and the rest of the address
  // as an immediate (the permutation applied to each whole byte address made these
  // kernels 64-112 SASS lines longer). The lane's bytes are made opaque to the compiler
  // each tile: it hoisted the sixteen addresses out of the persistent loop, and at the
  // 4-byte kernel's 64-register cap they spilled.
  unsigned lane_bytes = static_cast<unsigned>(lane) * sizeof(T);
  asm volatile("" : "+r"(lane_bytes));
  const unsigned w0 = static_cast<unsigned>(first) * sizeof(T) + lane_bytes;
  constexpr unsigned row_bytes = 32 * sizeof(T);  // one j
  store_covered_striped<N>(dst + first, uncovered, warp_items, [&](int j) {
    unsigned at;
    if constexpr (row_bytes % 128 == 0) {
      const unsigned row = (w0 >> 7) + j * (row_bytes / 128);
      at = (w0 ^ ((row & 7u) << 4)) + j * row_bytes;
    } else {  // 1- and 2-byte items
      const unsigned w = w0 + j * row_bytes;
      at = w ^ (((w >> 7) & 7u) << 4);
    }
    return *reinterpret_cast<const T*>(stage + at);
  });
}

// in and out 16-byte aligned; any grid size works. Heads: a source with `pipelined` true.
// MinBlocksPerSM: __launch_bounds__' minimum (it caps the registers); 0 = as many blocks
// as the shared memory allows. ClearsWorkspace: launched cooperatively, the kernel clears
// its descriptors and sets its tile counter itself, as the plain scan's pipelined agent
// does (agent/scan_pipeline.cuh): no memset of them before it. GroupedThreadScan: A scans
// a thread's items with scan_thread_segments_grouped (tuning::thread_scan_order; in order
// where N is not a multiple of four). HeadlessTiles: a tile in which no item begins a
// segment or a gap (one long segment's tiles) is reduced and scanned as plain values, in
// code compiled for no heads, as the plain scan's pipeline does; the block learns it from
// B's barrier. The branches test a warp vote of that flag, not the flag: ptxas keeps a
// vote in a uniform predicate, but takes a barrier's result for divergent and fences
// every shuffle in the arms (BRA.DIV, WARPSYNC). It still costs the tiles that hold heads
// a few percent (the dispatcher takes it where heads are known to be far apart:
// tuning::segmented_scan_tuning::pipeline_headless_min_segment_items).
template <class T, class Heads, class Op, int BlockThreads, int ItemsPerThread, bool Exclusive, class Delay,
          int LookbackTilesPerLane = 1, int MinBlocksPerSM = 0, bool ClearsWorkspace = false,
          bool GroupedThreadScan = false, bool HeadlessTiles = false>
__global__ void __launch_bounds__(BlockThreads,
                                  (MinBlocksPerSM > 0
                                       ? MinBlocksPerSM
                                       : pipeline_layout<T, BlockThreads, ItemsPerThread>::resident_by_shared))
    segmented_scan_pipeline_kernel(const T* in, T* out, index_t n, Heads given_source, T init, Op op,
                                   segment_tile_state<T, Heads> state, lookback::tile_counter counter,
                                   unsigned backoff_ns, Delay delay, index_t prefetch_tiles) {
  static_assert(Heads::pipelined, "the head source must support fetch/heads");
  using layout = pipeline_layout<T, BlockThreads, ItemsPerThread>;
  using pair = segmented_value<T>;
  using pair_op = segmented_op<Op>;
  using descriptor = segment_descriptor_for<T, Heads>;
  using scan_t = block_scan<pair, BlockThreads>;
  constexpr int N = ItemsPerThread;
  static_assert(N >= 1 && N <= 32, "a thread's heads are one 32-bit mask");
  constexpr int S = layout::stages;
  using fetched_t = typename Heads::template fetched<N>;
  extern __shared__ __align__(16) unsigned char stage_memory[];
  __shared__ typename scan_t::storage reduce_storage;
  __shared__ typename block_scan<T, BlockThreads>::storage headless_storage;  // B's scan of a headless tile
  __shared__ index_t claimed[S];
  __shared__ pair tile_prefix;
  __shared__ index_t window[2];  // a has_window source's covered items
  // Items may be in no segment, and out keeps what it held there (else gaps_copied: such
  // items keep their input value in the stage, and every tile is stored whole).
  constexpr bool gap_form = heads_leave_gaps<Heads>;

  const Heads source = block_view_of(given_source);  // (its loads beside ok()'s)
  if (!source.ok()) return;  // uniform: every block returns, none waits on another
  if constexpr (Heads::has_window) {
    if (threadIdx.x == 0) {  // read by the first tile's stores, after many barriers
      window[0] = source.window_begin();
      window[1] = source.window_end();
    }
  }
  const pair_op seg{op};
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = warp_id();
  const index_t tiles = layout::num_tiles(n);
  auto stage_at = [&](int s) { return layout::stage(stage_memory, s); };

  // C for stage s: values by cp.async (one group per stage, empty or not), heads into
  // registers.
  auto start_loads = [&](int s, index_t tile) {
    layout::start_loads(stage_at(s), in, tile, tiles, n, prefetch_tiles);
    return source.template fetch<N>(tile * layout::tile_items, n);
  };
  // The tile's head masks. Item 0 of the array always begins something: a segment, or
  // (offsets form) a gap when no segment begins there.
  auto heads_of = [&](const fetched_t& f, index_t tile) {
    thread_heads h = source.template heads<N>(f);
    if (tile == 0 && tid == 0 && (h.heads & 1u) == 0) {
      h.heads |= 1u;
      if constexpr (Heads::has_gaps) h.gaps |= 1u;
    }
    if constexpr (!Heads::has_gaps) h.gaps = 0;
    return h;
  };
  // B's result, kept for A a step later; `headless`: no item of the tile begins a segment
  // or a gap (with HeadlessTiles; else always false).
  struct reduction : pipeline_reduction<pair> {
    bool headless = false;
  };
  // B needs the thread's total only. 8-byte floating-point values take it as a tree (4
  // dependent steps for 16 items, not 15): faster for double on uniform lengths, level for
  // float, slower for integers, whose chain the compiler may shorten itself
  // (docs/perf/segmented_scan.md, "B's thread total as a tree, for double").
  auto thread_total_of = [&](T (&items)[N], const thread_heads& h) {  // (integers: scans items in place)
    if constexpr (std::is_floating_point_v<T> && sizeof(T) == 8)
      return reduce_thread_segments<Heads::has_gaps>(items, h, op);
    else
      return scan_thread_segments<Heads::has_gaps>(items, h, op);
  };
  // B: waits for the stage's values (all but the newest group are complete), reduces the
  // tile as pairs and publishes it: PREFIX when it holds a head (nothing before its last
  // head matters to its successors; tile 0 always does), AGGREGATE otherwise.
  auto publish_tile = [&](int s, index_t tile, const thread_heads& h, reduction& r) {
    cp_async_wait<1>();
    // Every thread's copies into stage s have landed; with HeadlessTiles the same barrier
    // tells whether any thread holds a head.
    if constexpr (HeadlessTiles)
      r.headless = !__syncthreads_or(h.heads != 0);
    else
      __syncthreads();
    if (tile >= tiles) return;  // uniform
    T items[N];
    layout::read_blocked(stage_at(s), items);
    // Uniform (a vote, for ptxas): the values' block scan, every kind no_head.
    if (HeadlessTiles && __all_sync(full_warp_mask, r.headless)) {
      const T thread_total = thread_total_of(items, thread_heads{0u, 0u}).value;
      T thread_prefix, aggregate;
      r.has_thread_prefix = block_scan<T, BlockThreads>(headless_storage)
                                .exclusive_prefix(thread_total, op, thread_prefix, aggregate);
      r.thread_prefix = {thread_prefix, no_head};
      r.aggregate = {aggregate, no_head};
    } else {
      r.has_thread_prefix =
          scan_t(reduce_storage).exclusive_prefix(thread_total_of(items, h), seg, r.thread_prefix, r.aggregate);
    }
    if (tid == 0) {
      const auto status =
          r.aggregate.head != no_head ? lookback::tile_status::prefix : lookback::tile_status::aggregate;
      delay(tile, status);
      descriptor::publish(state, tile, status, r.aggregate);
    }
  };

  // What B leaves for A a step later: the reduction and the tile's head masks.
  struct carried {
    reduction reduced;
    thread_heads heads;
  };
  // B, after C's loads: publish_tile, keeping the heads for A.
  auto reduce = [&](int s, index_t tile, const thread_heads& h, carried& out_b) {
    out_b.heads = h;
    publish_tile(s, tile, h, out_b.reduced);
  };
  // A's result for its stores: the scanned items (the partial last tile of a gap form
  // stores them from registers), the items not to write, whether the warp has any.
  struct finished {
    T items[N];
    unsigned uncovered;
    bool warp_has_gaps;
  };
  // A: its thread prefixes and aggregate come from its reduction, no block-wide scan.
  // Ends with the scanned tile in its stage.
  auto finish = [&](int s, index_t tile, const carried& ca, int) {
    finished f;
    T (&items)[N] = f.items;
    layout::read_blocked(stage_at(s), items);
    const thread_heads& h = ca.heads;
    const reduction& reduced_a = ca.reduced;
    const bool headless = HeadlessTiles && __all_sync(full_warp_mask, reduced_a.headless);  // uniform
    if (headless)
      scan_thread_segments<Heads::has_gaps>(items, thread_heads{0u, 0u}, op);  // in order, as the plain scan
    else if constexpr (GroupedThreadScan && N % 4 == 0)
      scan_thread_segments_grouped<Heads::has_gaps>(items, h, op);
    else
      scan_thread_segments<Heads::has_gaps>(items, h, op);
    const pair& aggregate = reduced_a.aggregate;
    // Warp 0 looks back when the tile's first item needs what precedes it.
    if (warp == 0 && (headless || !(shfl_idx(h.heads, 0) & 1u))) {
      const pair prefix = descriptor::template look_back<LookbackTilesPerLane>(state, tile, op, backoff_ns);
      if (lane_id() == 0) {
        if (aggregate.head == no_head) {  // else its PREFIX went out at B
          delay(tile, lookback::tile_status::prefix);
          descriptor::publish(state, tile, lookback::tile_status::prefix, seg(prefix, aggregate));
        }
        tile_prefix = prefix;
      }
    }
    __syncthreads();  // the tile's prefix is known
    // A headless tile's thread prefix is rebuilt with a literal no_head (B stored the same)
    // so that the compiler folds the kind tests away, as for the zero masks.
    unsigned uncovered =
        headless ? finish_thread_segments<Exclusive, Heads::has_gaps>(
                       items, thread_heads{0u, 0u}, reduced_a.has_thread_prefix,
                       pair{reduced_a.thread_prefix.value, no_head}, tile_prefix, init, op)
                 : finish_thread_segments<Exclusive, Heads::has_gaps>(
                       items, h, reduced_a.has_thread_prefix, reduced_a.thread_prefix, tile_prefix, init, op);
    if constexpr (Heads::has_window)
      uncovered = outside_window<N>(tile * layout::tile_items + static_cast<index_t>(tid) * N, window[0], window[1]);
    if constexpr (heads_copy_gaps<Heads>::value)
      layout::write_blocked_except(stage_at(s), items, uncovered);  // gap items: their input, loaded at C
    else
      layout::write_blocked(stage_at(s), items);
    bool warp_has_gaps = false;  // gap forms store warp by warp (store_warp_items)
    if constexpr (gap_form) warp_has_gaps = __any_sync(full_warp_mask, uncovered != 0);
    __syncthreads();  // the scanned tile is in stage s
    f.uncovered = uncovered;
    f.warp_has_gaps = warp_has_gaps;
    return f;
  };
  auto store = [&](int s, index_t tile, const carried&, const finished& f) {
    if constexpr (!gap_form) {
      layout::store_tile(stage_at(s), out, tile, n);
    } else if (n - tile * layout::tile_items >= layout::tile_items) {
      store_warp_items<layout, N>(stage_at(s), out + tile * layout::tile_items, f.uncovered, f.warp_has_gaps);
    } else {
      // The last, partial tile: each thread writes its own covered items.
      const index_t first_item = tile * layout::tile_items + static_cast<index_t>(tid) * N;
#pragma unroll
      for (int i = 0; i < N; ++i)
        if (first_item + i < n && !((f.uncovered >> i) & 1u)) out[first_item + i] = f.items[i];
    }
  };
  auto clear = [&](index_t next_claim) { clear_lookback_in_grid<BlockThreads>(state, counter, tiles, next_claim); };
  constexpr int claimer = BlockThreads > 32 ? 32 : 0;  // thread 0 publishes
  // B's head masks are computed before C's loads go out (heads_of as the pipeline's
  // prepare): computed after them, the masks' instructions waited on those loads' round
  // trip with the step's first barrier behind them (int64 begin/end arrays,
  // docs/perf/segmented_scan.md, "stall sampling").
  run_persistent_pipeline<carried, ClearsWorkspace, claimer>(claimed, counter, tiles, start_loads, heads_of, reduce,
                                                              finish, store, clear);
}

}  // namespace onepass::detail
