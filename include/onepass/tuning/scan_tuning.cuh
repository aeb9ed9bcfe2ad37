// onepass/tuning/scan_tuning.cuh — tile shapes of the production scan, as data.
//
// One row per element size. A tile is block_threads * items_per_thread items: 32 KiB
// for 4- and 8-byte types, each thread moving 128 bytes. Large tiles mean fewer
// lookbacks; the pipelined agent keeps the next tiles' loads in flight during a tile's
// lookback. Small inputs (a few tiles per SM) run one tile per block, with 5 / 4 blocks
// per SM. Rows for larger types are unmeasured (no such type is benchmarked yet). items_per_thread must be a multiple of the 128-bit vector width
// (16 / sizeof(T)) where that width exists.
//
// Measured on sm_90 (H100/H200): see docs/perf/scan.md for what was tried.
#pragma once

#include <cstddef>

namespace onepass::tuning {

struct scan_tuning {
  int block_threads;
  int items_per_thread;
  unsigned lookback_backoff_ns;  // first pause between polls of a not-ready tile; 0 = spin
  // The one-tile-per-block kernel: the compiler keeps registers low enough for this
  // many resident blocks per SM (__launch_bounds__' second argument); 0 leaves it to
  // the compiler. Not the same as
  // 1: an explicit 1 let nvcc 13 take 88-93 registers for the 256x32 int32 tile (two
  // blocks per SM) where it chose 61-72 without it.
  int min_blocks_per_sm = 0;
  // Persistent blocks that keep loads in flight during their lookback
  // (agent/scan_pipeline.cuh); needs 16-byte aligned pointers and items that divide 16
  // bytes. Otherwise the dispatcher uses the one-tile-per-block kernel
  // (agent/scan_tile.cuh).
  bool pipelined = false;
  // ... used from this many tiles per resident block up: with fewer, a block gets too
  // few tiles for the pipeline to fill. Measured on an H200 (docs/perf/scan.md): one
  // tile per block wins at 2.3 tiles per resident block (int32 71.2% of the copy against
  // 67.7%; int64 level), the pipelined agent from 2.7 up (int32 +2.7 to +3.8 points,
  // int64 0 to +3.5), hence 2.5. (It was 4 until the one-tile agent's parked tiles and
  // the L2 prefetch; tests set 0 to run the pipelined agent at every size. Since the
  // pipelined agent clears its own workspace, 8-byte rows use 0: see the table below.)
  double pipeline_min_tiles_per_block = 4;
  // How far ahead of its own tile a block asks L2 to prefetch the input (one tile's
  // worth), in bytes, rounded down to whole tiles; 0 = no prefetch. Both agents; only
  // with a 16-byte aligned input of at least l2_prefetch_min_input_bytes. Measured on
  // sm_90 (docs/perf/scan.md): at 2^28 int32 the pipelined agent went from 89% to 99% of
  // the copy on an H100 and from 82% to 88% on an H200 with 1-4 MiB; at 6 MiB and more
  // the prefetched lines start to be evicted before use (H100); at 64 MiB inputs it
  // gains nothing (-1 to -2 points), hence the size floor.
  long long l2_prefetch_bytes = 0;
  long long l2_prefetch_min_input_bytes = 0;
  // When every tile's block fits on the GPU at once, one cooperative launch with a grid
  // barrier in place of the lookback (agent/scan_single_wave.cuh): no workspace clearing,
  // one launch. Tests turn it off to run the lookback agents at small sizes.
  bool single_wave = true;
  // The pipelined agent's lookback window: each lane of the looking-back warp reads this
  // many consecutive descriptors per round trip (lookback::lookback_warp), 32 times that
  // in all. The one-tile agent always reads 32 (64 cost it 3-13 points on an H200).
  int pipeline_lookback_tiles_per_lane = 1;
  // The pipelined agent launched cooperatively, clearing its own descriptors and tile
  // counter behind a grid barrier (agent/scan_pipeline.cuh), in place of a memset before
  // it: one launch a call instead of two.
  bool pipeline_clears_workspace = false;
  // The pipelined agent's window for each block's first tile (0: the same as the
  // others'). A block's first lookback walks back over the tiles that every other block
  // took in its first step, all of them AGGREGATE, to tile 0's PREFIX: with 64-tile
  // windows up to five round trips in a row, one with a window wide enough.
  int pipeline_first_lookback_tiles_per_lane = 0;
  constexpr int tile_items() const { return block_threads * items_per_thread; }
};

inline constexpr long long scan_l2_prefetch_bytes = 2ll << 20;
inline constexpr long long scan_l2_prefetch_min_input_bytes = 128ll << 20;

// The table used for compute capability 8.0 and newer (the tuning was measured on 9.0).
// Pipelined lookback windows: 64 tiles for 4-byte types (+0.2 to +1.2 points of the copy
// at 2^28-2^30 on an H200 in four runs, -0.2 on an H100), 32 for 8-byte types (64 went
// -1.1 to +0.6: no clear gain; their descriptors are two words a tile). 128 and 256 lost
// in every row (docs/perf/scan.md). The pipelined agent clears its own workspace (one
// cooperative launch, no memset): int32 +1.2 to +2.8 points of the copy at 2^23-2^25 on
// an H200, +0.6 at 2^26, level at 2^28; int64 +0.2 to +1.2. With that, 8-byte types take
// the pipelined agent wherever the single-wave agent does not (from 0 tiles per resident
// block): int64 at 2^21.2 (589 tiles, 2.2 a resident block) went from 70.2-70.5% of the copy
// with one tile per block to 78.8-79.0% (CUB 77.5%). 4-byte types keep 2.5, the single-wave
// agent's own limit on sm_90 (5 blocks of it a SM, 2 of the pipelined one), so on those
// GPUs they never run one tile per block when aligned. A block's first lookback reads
// 128-tile windows for 4-byte types: +0.25 to +0.5 points at 2^24-2^28 on an H200; for
// 8-byte types 128- and 256-tile first windows lost 0.3-4 points (docs/perf/scan.md, "The
// first lookback's window").
constexpr scan_tuning scan_tuning_for_size(std::size_t element_bytes) {
  if (element_bytes <= 4)
    return {256, 32, 32, 5, true, 2.5, scan_l2_prefetch_bytes, scan_l2_prefetch_min_input_bytes, true, 2, true, 4};
  if (element_bytes <= 8)
    return {256, 16, 32, 4, true, 0, scan_l2_prefetch_bytes, scan_l2_prefetch_min_input_bytes, true, 1, true};
  return {128, 4, 32, 0, false};
}

// The dispatcher takes the tuning as a type holding `static constexpr scan_tuning value`,
// so experiments (bench/scan_tuning_sweep.cu) can try rows that are not in the table.
template <class T>
struct default_scan_tuning {
  static constexpr scan_tuning value = scan_tuning_for_size(sizeof(T));
};

}  // namespace onepass::tuning
