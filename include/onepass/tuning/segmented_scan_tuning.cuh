// onepass/tuning/segmented_scan_tuning.cuh — tile shapes of the production segmented
// scan (head flags, segment offsets, scan by key), as data.
//
// Two agents: one tile per block (block_threads x items_per_thread), and for large inputs
// with head flags or offsets the pipelined agent (pipeline_block_threads x
// pipeline_items_per_thread), whose persistent blocks keep loads in flight during their
// lookbacks. A thread's items are at most 32 (its head flags travel as one 32-bit mask)
// and a multiple of the 128-bit vector width of the values.
// All rows were chosen with bench/segmented_scan_tuning_sweep on sm_90, as a share of the
// plain scan's rate on one segment, uniform 1-1000, power-law and all-1 segments
// (docs/perf/segmented_scan.md). One segment is the distribution that waits most on
// lookbacks, so it decides between shapes that tie elsewhere.
// The pipelined agent wins with small tiles (8 KiB): 8 items a thread is far slower, and
// larger tiles lose most on one segment ("The pipelined agent").
// The one-tile rows: 4-byte values 256 x 32 (one segment clearly faster than 256 x 16;
// 128 x 32 within run-to-run noise of it; "Attempts, in order"). 8-byte values 128 x 32,
// the same 256 bytes a thread, well ahead of the first row tried (256 x 8, 4 blocks per
// SM, which spilled). A minimum of 4 blocks per SM (128 registers, a small stack) first
// beat the compiler's 3, and 5 blocks per SM or smaller tiles lost on one segment
// ("8-byte values: 4 blocks per SM"). Since warp 0 parks its items during the lookback
// the compiler's own choice fits 4 blocks as well, and the minimum only changed its
// schedule: without it one segment ran faster on both parts measured and nothing lost
// beyond noise, so the 8-byte row sets no minimum ("The 8-byte kernels lose their
// register cap").
// The 4-byte row asks for 3 blocks per SM: the flags and by-key kernels fit that anyway,
// the offsets form's bitmap kernel took 100 registers and ran 2 blocks per SM without it,
// markedly slower (with it, 80 registers and no spills; the offsets form's first
// measurements in docs/perf/segmented_scan.md).
// The 4-byte pipelined row is 256 x 16 at 4 blocks per SM: the same 64 registers and warps
// per SM as 128 x 16 at 8, half the tiles and lookbacks; faster on one segment and level
// elsewhere, where 512 x 16 at 2 lost ("The scan's new stage layout, and a register cap
// that moved with it"). The minimum is set, not left to the shared memory: the flags
// kernel's spills (more blocks per SM, or wider lookback windows) cost far more than the
// occupancy they bought.
// The 8-byte pipelined row is 128 x 16 at 4 blocks per SM: once the head flags were loaded
// as vectors and the descriptors held the value alone a sector apart, it had the best
// worst case on both parts measured, ahead of one tile per block and of 256 x 16
// ("8-byte values pipelined"). Scan by key runs the pipelined agent too, its keys in
// registers, 3 blocks a SM for 4-byte values (at the flags' 4 it spilled, badly) and 4 for
// 8-byte ones (112 registers): faster than one tile per block on every distribution
// (docs/perf/segmented_scan.md, "Scan by key pipelined, its keys in registers").
#pragma once

#include <cstddef>
#include <type_traits>

namespace onepass::tuning {

// The pipelined agent's step A scans a thread's items in order (N - 1 dependent steps for
// N items), or in groups of four side by side that then carry from group to group (7
// dependent steps for 16 items; about twice the operations): in every form, or in the
// offsets forms only (CSR offsets, begin/end arrays), head flags and scan by key in order.
// Measured on sm_90 (docs/perf/segmented_scan.md, "Step A's thread scan in groups"):
// double values faster in groups on uniform lengths in the offsets forms, level to
// slightly slower with head flags; int64 values slower in groups (the compiler may
// shorten an integer chain itself), so grouping is for floating point alone.
enum class thread_scan_order { in_order, grouped_for_offsets, grouped };

// The kernels' shapes: tiles, occupancy, lookback windows, the marking's runs.
struct segmented_scan_shape {
  int block_threads = 0;
  int items_per_thread = 0;
  unsigned lookback_backoff_ns = 0;  // first pause between polls of a not-ready tile; 0 = spin
  int min_blocks_per_sm = 0;     // __launch_bounds__' second argument; 0 = the compiler's choice
  int pipeline_block_threads = 128;
  int pipeline_items_per_thread = 32;
  int pipeline_lookback_tiles_per_lane = 1;  // lookback::lookback_warp's window
  // The pipelined kernel's __launch_bounds__ minimum (it caps the registers at 65536 /
  // (threads * this)); 0 = as many blocks as its shared memory allows.
  int pipeline_min_blocks_per_sm = 0;
  // Scan by key through the pipelined agent too, with this __launch_bounds__ minimum in
  // place of pipeline_min_blocks_per_sm (its keys, up to 4 bytes each, wait in registers
  // for a step: agent/segment_heads.cuh, key_heads); 0 = one tile per block.
  int pipeline_by_key_min_blocks_per_sm = 0;
  // How the pipelined agent's step A scans a thread's items (thread_scan_order).
  thread_scan_order pipeline_thread_scan = thread_scan_order::in_order;
  int gaps_as_heads_long_segments_per_lane = 8;
  int gaps_as_heads_long_window_words = 512;
  // > 0: the one-tile kernel looks back in a fixed order, in groups of 32 times this many
  // tiles (the deterministic segmented scan's own shape, set by no tuning row:
  // device/dispatch_segmented_scan.cuh); 0: the fast path's lookback.
  int fixed_order_tiles_per_lane = 0;
};

// Which kernel and which path a call runs, and what it asks of the memory system.
struct segmented_scan_choice {
  // How far ahead of its own tile a block asks L2 to prefetch the values (whole tiles; 0 =
  // none), for 16-byte aligned values of at least l2_prefetch_min_input_bytes (as the
  // scan's tuning).
  long long l2_prefetch_bytes = 0;
  long long l2_prefetch_min_input_bytes = 0;
  // Persistent blocks that keep the next tiles' loads in flight during a tile's lookback
  // (agent/segmented_scan_pipeline.cuh): for one-byte head flags, the offsets form and,
  // with pipeline_by_key_min_blocks_per_sm, scan by key, with 16-byte aligned values whose size
  // divides 16. Its own tile shape: a thread holds whole 16-byte chunks, 1, 2, 4 or 8 of
  // them, and at most 32 items.
  bool pipelined = false;
  // ... used from this many tiles per resident block up (as the plain scan's tuning;
  // tests set 0 to run it at every size).
  int pipeline_min_tiles_per_block = 4;
  // The pipelined kernel launched cooperatively, clearing its own descriptors and tile
  // counter (as the plain scan's): for head flags one launch instead of a memset and the
  // kernel. The offsets form keeps the memset, which clears its bitmaps too.
  bool pipeline_clears_workspace = false;
  // The offsets forms run the pipelined kernel with its headless-tile path (a tile in which
  // no item begins a segment or a gap is reduced and scanned as plain values, in code
  // compiled for no heads) when their heads lie at least this many items apart on average:
  // n over the segment count, or over twice the count for begin/end arrays (a gap may
  // follow each segment). 0 = never. Head flags and scan by key never do: the host does
  // not know their segment count, and the path costs tiles that hold heads a few percent
  // (docs/perf/segmented_scan.md, "Headless tiles").
  long long pipeline_headless_min_segment_items = 0;
  // Inclusive scans of begin/end arrays whose gap items are copied (gap_items::copied)
  // mark every gap item as a segment of its own, so that the scan runs its gap-free code
  // on one bitmap (mark_segments_kernel's GapsAsHeads); false: the gaps are marked in the
  // `ends` bitmap and scanned as gaps, as for exclusive scans. An inclusive scan of a
  // one-item segment is its input, so gap heads, the `ends` bitmap and the tagged kinds
  // are not needed; faster than as gaps on every distribution measured
  // (docs/perf/segmented_scan.md, "Copied gap items as one-item segments").
  bool copied_gaps_as_heads = true;
  // Gaps marked as heads (copied_gaps_as_heads) on segments that average at least
  // gaps_as_heads_long_segment_items items (n over the count; 0 = never): the marking
  // (mark_segments_kernel) gives a warp runs of 32 * gaps_as_heads_long_segments_per_lane
  // segments, not 256, with a window of gaps_as_heads_long_window_words bitmap words (512,
  // 1024 or 2048: blocks of 256, 128 or 64 threads). 256 long segments span past the
  // window, and a warp then sets its gaps' bits in global memory (atomics on their partly
  // covered words, stores scattered over some 16 KiB); shorter runs fit the window more
  // often, whose words the warp stores whole and coalesced, and give more warps a run.
  // Runs of 32 at a 512-word window were the best shape measured on uniform 1-1000
  // lengths; the same runs for CSR offsets and begin/end arrays without gaps were level,
  // and for untouched gaps slower, so they are for gaps as heads alone
  // (docs/perf/segmented_scan.md, "Gaps as heads on long segments: runs of 32"). That
  // sweep had short gaps' inner words stored by their lanes
  // (git show e8ae211:docs/perf/experiments/segmented-lane-gap-stores.patch); segmented_scan_row
  // turns the choice on from 64 items, measured again without them: faster, nothing
  // slower ("Runs of 32 adopted").
  long long gaps_as_heads_long_segment_items = 0;
};

// A row of the table: a shape and a choice, each field read by its name.
struct segmented_scan_tuning : segmented_scan_shape, segmented_scan_choice {
  constexpr int tile_items() const { return block_threads * items_per_thread; }
  constexpr int pipeline_tile_items() const { return pipeline_block_threads * pipeline_items_per_thread; }
};

inline constexpr long long segmented_scan_l2_prefetch_bytes = 2ll << 20;
inline constexpr long long segmented_scan_l2_prefetch_min_input_bytes = 128ll << 20;

// A row of 4- and 8-byte values: one tile per block at threads x 32 (min_blocks: its
// __launch_bounds__ minimum), and from 4 tiles per resident block the pipelined agent at
// pipeline_threads x 16, 4 blocks per SM (scan by key at pipeline_by_key_min_blocks),
// clearing its own descriptors, in the offsets forms with the headless-tile path where
// heads lie 4 pipeline tiles apart or more; both agents ask L2 for their values 2 MiB
// ahead on large inputs; gaps marked as heads in runs of 32 segments a warp (one a lane,
// 512-word window) where segments average 64 items or more.
constexpr segmented_scan_tuning segmented_scan_row(int threads, int min_blocks, int pipeline_threads,
                                                   int pipeline_by_key_min_blocks) {
  segmented_scan_tuning t{};
  t.block_threads = threads;
  t.items_per_thread = 32;
  t.lookback_backoff_ns = 32;
  t.min_blocks_per_sm = min_blocks;
  t.l2_prefetch_bytes = segmented_scan_l2_prefetch_bytes;
  t.l2_prefetch_min_input_bytes = segmented_scan_l2_prefetch_min_input_bytes;
  t.pipelined = true;
  t.pipeline_block_threads = pipeline_threads;
  t.pipeline_items_per_thread = 16;
  t.pipeline_min_blocks_per_sm = 4;
  t.pipeline_clears_workspace = true;
  t.pipeline_by_key_min_blocks_per_sm = pipeline_by_key_min_blocks;
  t.pipeline_headless_min_segment_items = 4ll * t.pipeline_tile_items();
  t.gaps_as_heads_long_segment_items = 64;
  t.gaps_as_heads_long_segments_per_lane = 1;
  t.gaps_as_heads_long_window_words = 512;
  return t;
}

constexpr segmented_scan_tuning segmented_scan_tuning_for_size(std::size_t element_bytes) {
  if (element_bytes <= 4) return segmented_scan_row(256, 3, 256, 3);
  if (element_bytes <= 8) return segmented_scan_row(128, 0, 128, 4);
  segmented_scan_tuning t{};  // unmeasured sizes: one tile per block, 128 x 4
  t.block_threads = 128;
  t.items_per_thread = 4;
  t.lookback_backoff_ns = 32;
  return t;
}

// By size, except that 8-byte floating-point values scan step A in groups in the offsets
// forms (thread_scan_order).
template <class T>
struct default_segmented_scan_tuning {
  static constexpr segmented_scan_tuning value = [] {
    segmented_scan_tuning t = segmented_scan_tuning_for_size(sizeof(T));
    if (std::is_floating_point_v<T> && sizeof(T) == 8) t.pipeline_thread_scan = thread_scan_order::grouped_for_offsets;
    return t;
  }();
};

}  // namespace onepass::tuning
