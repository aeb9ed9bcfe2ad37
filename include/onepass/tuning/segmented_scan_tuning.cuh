// onepass/tuning/segmented_scan_tuning.cuh — tile shapes of the production segmented
// scan (head flags, segment offsets, scan by key), as data.
//
// Two agents: one tile per block (block_threads x items_per_thread), and for large inputs
// with head flags or offsets the pipelined agent (pipeline_block_threads x
// pipeline_items_per_thread), whose persistent blocks keep loads in flight during their
// lookbacks. A thread's items are at most 32 (its head flags travel as one 32-bit mask)
// and a multiple of the 128-bit vector width of the values.
// The pipelined rows, measured with bench/segmented_scan_tuning_sweep on an H100 at 2^28
// int32 / 2^27 int64 (docs/perf/segmented_scan.md), % of the plain scan's rate on one
// segment / uniform 1-1000 / power law / all 1: 4-byte 128 x 16 (tiles of 8 KiB; eight
// blocks per SM) 96.5 / 100.7 / 100.4 / 100.7 against 84.7 / 96.4 / 97.7 / 100.9 for one
// tile per block; 128 x 32 92.1 / 96.5 / 97.0 / 101.1; 256 x 32 91.4 / 94.8 / 95.0 / 98.8;
// 8 items a thread 71-89 everywhere. 8-byte 256 x 16 87.1 / 90.1 / 91.5 / 98.3 against
// 82.1 / 91.0 / 93.0 / 100.7; 128 x 16 84.3 / 92.7 / 94.1 / 100.6; 8 items a thread 57-71.
// On an H200 the same sweep: 4-byte 128 x 16 83.7 / 94.9 / 95.3 / 99.1 against 81.4 /
// 93.1 / 95.4 / 110.9 for one tile per block (kept: the better worst case, though one-item
// segments lose 12 points there); 8-byte 256 x 16 75.6 / 77.8 / 80.3 / 87.0 against 78.9
// / 87.8 / 90.7 / 109.1, slower everywhere: the 8-byte row stayed one tile per block then
// (it is pipelined since 2026-11-26, below).
// The one-tile rows, measured with the same sweep on an H100: 4-byte values 256 x 32
// (one segment 85% of the plain scan's rate against 75-80% at 256 x 16; 128 x 32 within
// run-to-run noise of it). 8-byte values 128 x 32, the same 256 bytes a thread: 10-16
// points of the plain scan's rate faster than the first row tried (256 x 8, 4 blocks per
// SM, which spilled). It asks for 4 blocks per SM (128 registers, a 16-24 byte stack,
// where the compiler took 137-155 and ran 3): on an H200, head flags one segment /
// uniform / power law / all 1 78.6 / 87.7 / 90.6 / 109.1 -> 85.0 / 97.8 / 97.9 / 111.5
// and scan by key 85.2 / 95.7 / 98.2 / 116.3 -> 89.5 / 102.9 / 102.6 / 114.7 (CUB's scan
// by key 101.1); 128 x 24 at 5 blocks, 128 x 16 and 256 x 16 lose 5-15 points on one
// segment. Since warp 0 parks its items during the lookback the 4-block kernels take
// 116-127 registers and do not spill; 5 blocks per SM (96 registers) still lose 6-14
// points on one segment. Since then the compiler's own choice fits 4 blocks as well, and
// the minimum only changed its schedule: with none (2026-11-25, thirteenth session; the
// sweep's "cap" mode, alternated three times, % of the plain int64 scan) one segment runs
// 2-4 points faster on both GPUs (H200 head flags 80.2-80.4 -> 82.2-82.4, CSR offsets
// 78.4-78.6 -> 82.4-82.8; H100 89.3-90.0 -> 91.6 and 88.8-89.0 -> 91.7-91.8), CSR offsets
// on uniform and power-law segments 0.5-1.4 faster, scan by key and the rest equal (H100
// offsets on one-item segments 0.3 slower). So the 8-byte row sets no minimum.
// The 4-byte row asks for 3 blocks per SM:
// the flags and by-key kernels fit that anyway (79-80 registers), the offsets form's
// bitmap kernel took 100 registers and ran 2 blocks per SM without it (24% more time on
// an H200; with it, 80 registers and no spills).
// The 4-byte pipelined row is 256 x 16 at 4 blocks per SM (2026-11-25): the same 64
// registers and warps per SM as 128 x 16 at 8, half the tiles and lookbacks. The sweep, %
// of the plain scan, one segment / uniform / power law / all 1: H200 90.4 / 96.4 / 96.6 /
// 101.5 against 86.6 / 96.7 / 96.0 / 99.4 for 128 x 16; H100 99.9 / 100.7 / 100.6 / 100.4
// against 98.3 / 100.2 / 99.7 / 100.6. 512 x 16 at 2 lost 1-7 on the H200. The minimum
// is set, not left to the shared memory: the flags kernel's spills cost 25-60 points where
// they were measured (128 x 16 at 9 blocks, 56 registers; wider lookback windows at 64).
// The 8-byte pipelined row is 128 x 16 at 4 blocks per SM (2026-11-26, nineteenth session):
// once the head flags were loaded as vectors and the descriptors held the value alone a
// sector apart, the sweep (int64 at 2^27, head flags, % of the plain int64 scan, one
// segment / uniform / power law / all 1) gave on an H200 95.1 / 100.8 / 100.4 / 102.2
// against 88.4 / 97.2 / 97.2 / 103.4 for one tile per block, 256 x 16 (two blocks per SM)
// 94.6 / 96.9 / 102.5 / 103.8; on an H100 99.5 / 99.3 / 98.7 / 99.3 against 96.0 / 98.4 /
// 98.5 / 99.1, 256 x 16 99.7 / 99.6 / 99.2 / 99.1. 128 x 16 has the best worst case on
// both GPUs. Scan by key kept one tile per block until 2026-11-29 (92.2% on one segment on
// the H200); since then it runs the pipelined agent with its keys in registers, 3 blocks a
// SM for 4-byte values (at the flags' 4 it spilled: 60%) and 4 for 8-byte ones (112
// registers). H200, segmented_scan_tuning_sweep 28 all bykey_pipeline, one segment /
// uniform / power law / all 1, % of the plain scan: int32 91.5 / 102.2 / 102.1 / 104.5 ->
// 98.3 / 107.1 / 106.4 / 107.1, int64 92.4 / 100.6 / 100.3 / 104.2 -> 98.0 / 103.8 / 103.7 /
// 104.9 (docs/perf/segmented_scan.md, "Scan by key pipelined, its keys in registers").
#pragma once

#include <cstddef>
#include <type_traits>

namespace onepass::tuning {

// The pipelined agent's step A scans a thread's items in order (N - 1 dependent steps for
// N items), or in groups of four side by side that then carry from group to group (7
// dependent steps for 16 items; about twice the operations): in every form, or in the
// offsets forms only (CSR offsets, begin/end arrays), head flags and scan by key in order.
// Measured on an H200 (docs/perf/segmented_scan.md, "Step A's thread scan in groups"):
// double values 3-6% faster in groups on uniform lengths in the offsets forms, level to
// 0.8% slower with head flags; int64 values up to 1.8% slower in groups.
enum class thread_scan_order { in_order, grouped_for_offsets, grouped };

struct segmented_scan_tuning {
  int block_threads;
  int items_per_thread;
  unsigned lookback_backoff_ns;  // first pause between polls of a not-ready tile; 0 = spin
  int min_blocks_per_sm = 0;     // __launch_bounds__' second argument; 0 = the compiler's choice
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
  int pipeline_block_threads = 128;
  int pipeline_items_per_thread = 32;
  // ... used from this many tiles per resident block up (as the plain scan's tuning;
  // tests set 0 to run it at every size).
  int pipeline_min_tiles_per_block = 4;
  int pipeline_lookback_tiles_per_lane = 1;  // lookback::lookback_warp's window
  // The pipelined kernel's __launch_bounds__ minimum (it caps the registers at 65536 /
  // (threads * this)); 0 = as many blocks as its shared memory allows.
  int pipeline_min_blocks_per_sm = 0;
  // The pipelined kernel launched cooperatively, clearing its own descriptors and tile
  // counter (as the plain scan's): for head flags one launch instead of a memset and the
  // kernel. The offsets form keeps the memset, which clears its bitmaps too.
  bool pipeline_clears_workspace = false;
  // Scan by key through the pipelined agent too, with this __launch_bounds__ minimum in
  // place of pipeline_min_blocks_per_sm (its keys, up to 4 bytes each, wait in registers
  // for a step: agent/segmented_scan.cuh, key_heads); 0 = one tile per block.
  int pipeline_by_key_min_blocks_per_sm = 0;
  // How the pipelined agent's step A scans a thread's items (thread_scan_order).
  thread_scan_order pipeline_thread_scan = thread_scan_order::in_order;
  // The offsets forms run the pipelined kernel with its headless-tile path (a tile in which
  // no item begins a segment or a gap is reduced and scanned as plain values, in code
  // compiled for no heads) when their heads lie at least this many items apart on average:
  // n over the segment count, or over twice the count for begin/end arrays (a gap may
  // follow each segment). 0 = never. Head flags and scan by key never do: the host does
  // not know their segment count, and the path costs tiles that hold heads 0.4-3.5% on an
  // H200 (docs/perf/segmented_scan.md, "Headless tiles", "Branching on a warp vote").
  long long pipeline_headless_min_segment_items = 0;
  // Inclusive scans of begin/end arrays whose gap items are copied (gap_items::copied)
  // mark every gap item as a segment of its own, so that the scan runs its gap-free code
  // on one bitmap (mark_segments_kernel's GapsAsHeads); false: the gaps are marked in the
  // `ends` bitmap and scanned as gaps, as for exclusive scans. On an H200
  // (segmented_scan_tuning_sweep 28 int32 gaps, both in one run) int32 1.02 / 1.08 / 1.02 /
  // 1.03 / 1.07 / 1.08x faster than as gaps (all 1 / all 32 / uniform / power law / one
  // segment / with empty; all 1 and power law before the long gaps' kernel, which costs
  // with empty 0.4 points of the plain scan); docs/perf/segmented_scan.md, "Copied gap
  // items as one-item segments".
  bool copied_gaps_as_heads = true;
  // Gaps marked as heads (copied_gaps_as_heads) on segments that average at least
  // gaps_as_heads_long_segment_items items (n over the count; 0 = never): the marking
  // (mark_segments_kernel) gives a warp runs of 32 * gaps_as_heads_long_segments_per_lane
  // segments, not 256, with a window of gaps_as_heads_long_window_words bitmap words (512,
  // 1024 or 2048: blocks of 256, 128 or 64 threads). 256 long segments span past the
  // window, and a warp then sets its gaps' bits in global memory (atomics on their partly
  // covered words, stores scattered over some 16 KiB); shorter runs fit the window more
  // often, whose words the warp stores whole and coalesced, and give more warps a run. On
  // an H200 (segmented_scan_tuning_sweep 28 int32 marking_runs uniform_1_1000, whole
  // calls, % of the plain scan): runs of 256 88.8, of 32 at 512 words 90.4-90.5, of 32 at
  // 1024 words 89.6, of 64 at 1024 89.8-89.9, of 64 at 2048 88.0-88.1; int64 at 2^27
  // 93.5-93.7 against 94.0 at 32 and 512; one segment 93.7 -> 94.8. The same runs for CSR
  // offsets and begin/end arrays without gaps were level, and for untouched gaps 1.2%
  // slower, so they are for gaps as heads alone (docs/perf/segmented_scan.md, "Gaps as
  // heads on long segments: runs of 32"). Those figures had short gaps' inner words stored
  // by their lanes (docs/perf/experiments/segmented-lane-gap-stores.patch, not in main);
  // segmented_scan_row turns the choice on from 64 items since 2026-12-02, measured
  // without them: sweep 88.6 -> 90.3-90.4, onepass-bench int64 uniform 2.7% faster in
  // alternated processes, nothing slower ("Runs of 32 adopted").
  long long gaps_as_heads_long_segment_items = 0;
  int gaps_as_heads_long_segments_per_lane = 8;
  int gaps_as_heads_long_window_words = 512;
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
  segmented_scan_tuning t{threads,
                          32,
                          32,
                          min_blocks,
                          segmented_scan_l2_prefetch_bytes,
                          segmented_scan_l2_prefetch_min_input_bytes,
                          true,
                          pipeline_threads,
                          16};
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
  return {128, 4, 32, 0};
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
