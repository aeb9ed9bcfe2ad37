// onepass/tuning/scan_tuning.cuh — tile shapes of the production scan, as data.
//
// One row per element size. A tile is block_threads * items_per_thread items: 32 KiB
// for 4- and 8-byte types, each thread moving 128 bytes. Large tiles mean fewer
// lookbacks; the pipelined agent keeps the next tiles' loads in flight during a tile's
// lookback. Small inputs (a few tiles per SM) run one tile per block, with 5 / 4 blocks
// per SM. Rows for larger types are unmeasured (no such type is benchmarked yet).
// items_per_thread must be a multiple of the 128-bit vector width (16 / sizeof(T)) where
// that width exists.
//
// Measured on sm_90: see docs/perf/scan.md for what was tried.
#pragma once

#include <cstddef>

namespace onepass::tuning {

// The kernels' shapes: tiles, occupancy and lookback windows.
struct scan_shape {
  int block_threads = 0;
  int items_per_thread = 0;
  unsigned lookback_backoff_ns = 0;  // first pause between polls of a not-ready tile; 0 = spin
  // The one-tile-per-block kernel: the compiler keeps registers low enough for this
  // many resident blocks per SM (__launch_bounds__' second argument); 0 leaves it to
  // the compiler. Not the same as
  // 1: an explicit 1 lets nvcc take more registers for the 256x32 int32 tile, leaving
  // room for only two blocks per SM (docs/perf/scan.md, "Attempts").
  int min_blocks_per_sm = 0;
  // The pipelined agent's lookback window: each lane of the looking-back warp reads this
  // many consecutive descriptors per round trip (lookback::lookback_warp), 32 times that
  // in all. The one-tile agent always reads 32: a 64-tile window made it slower
  // (docs/perf/scan.md, "where the last points go").
  int pipeline_lookback_tiles_per_lane = 1;
  // The pipelined agent's window for each block's first tile (0: the same as the
  // others'). A block's first lookback walks back over the tiles that every other block
  // took in its first step, all of them AGGREGATE, to tile 0's PREFIX: with 64-tile
  // windows up to five round trips in a row, one with a window wide enough.
  int pipeline_first_lookback_tiles_per_lane = 0;
  constexpr int tile_items() const { return block_threads * items_per_thread; }
};

// Which kernel a call runs, and what it asks of the memory system.
struct scan_choice {
  // Persistent blocks that keep loads in flight during their lookback
  // (agent/scan_pipeline.cuh); needs 16-byte aligned pointers and items that divide 16
  // bytes. Otherwise the dispatcher uses the one-tile-per-block kernel
  // (agent/scan_tile.cuh).
  bool pipelined = false;
  // ... used from this many tiles per resident block up: with fewer, a block gets too
  // few tiles for the pipeline to fill. The measured crossover lies between 2.3 tiles per
  // resident block (one tile per block wins) and 2.7 (the pipelined agent wins), hence
  // 2.5 (docs/perf/scan.md, "The crossover between the agents, again"). Tests set 0 to
  // run the pipelined agent at every size. Since the pipelined agent clears its own
  // workspace, 8-byte rows use 0: see the table below.
  double pipeline_min_tiles_per_block = 4;
  // The pipelined agent launched cooperatively, clearing its own descriptors and tile
  // counter behind a grid barrier (agent/scan_pipeline.cuh), in place of a memset before
  // it: one launch a call instead of two.
  bool pipeline_clears_workspace = false;
  // When every tile's block fits on the GPU at once, one cooperative launch with a grid
  // barrier in place of the lookback (agent/scan_single_wave.cuh): no workspace clearing,
  // one launch. Tests turn it off to run the lookback agents at small sizes.
  bool single_wave = true;
  // How far ahead of its own tile a block asks L2 to prefetch the input (one tile's
  // worth), in bytes, rounded down to whole tiles; 0 = no prefetch. Both agents; only
  // with a 16-byte aligned input of at least l2_prefetch_min_input_bytes. The prefetch
  // keeps DRAM busy ahead of the claims at no register or shared-memory cost; a distance
  // of 1-4 MiB paid on sm_90, farther ahead the prefetched lines are evicted before their
  // tile is claimed, and inputs about the size of L2 gain nothing (the prefetch costs
  // there), hence the size floor (docs/perf/scan.md, "the L2 prefetch").
  long long l2_prefetch_bytes = 0;
  long long l2_prefetch_min_input_bytes = 0;
};

// A row of the table: a shape and a choice, each field read by its name
// (Tuning::value.block_threads).
struct scan_tuning : scan_shape, scan_choice {};

inline constexpr long long scan_l2_prefetch_bytes = 2ll << 20;
inline constexpr long long scan_l2_prefetch_min_input_bytes = 128ll << 20;

// The table used for compute capability 8.0 and newer (the tuning was measured on 9.0).
// Pipelined lookback windows: 64 tiles for 4-byte types (a small gain), 32 for 8-byte
// types (64 gave no clear gain; their descriptors are two words a tile); 128 and 256
// lost in every row, as a wider window costs more loads and folding per poll
// (docs/perf/scan.md, "where the last points go"). The pipelined agent clears its own
// workspace (one cooperative launch, no memset): the launch saved pays most for short
// calls and nothing at the largest sizes (docs/perf/scan.md, "The pipelined agent clears
// its own workspace"). With that, 8-byte types take the pipelined agent wherever the
// single-wave agent does not (from 0 tiles per resident block): between the two agents'
// limits the cleared pipelined agent beat one tile per block. 4-byte types keep 2.5, the
// single-wave agent's own limit on sm_90 (5 blocks of it a SM, 2 of the pipelined one),
// so on those GPUs they never run one tile per block when aligned. A block's first
// lookback reads 128-tile windows for 4-byte types (a small gain: that first walk crosses
// every block's first tile); for 8-byte types wider first windows lost, 16-byte
// descriptors making each poll twice the bytes (docs/perf/scan.md, "The first
// lookback's window").
constexpr scan_tuning scan_tuning_for_size(std::size_t element_bytes) {
  scan_tuning t{};
  t.lookback_backoff_ns = 32;
  if (element_bytes > 8) {  // unmeasured: one tile per block, 128 x 4
    t.block_threads = 128;
    t.items_per_thread = 4;
    return t;
  }
  const bool four = element_bytes <= 4;
  t.block_threads = 256;
  t.items_per_thread = four ? 32 : 16;
  t.min_blocks_per_sm = four ? 5 : 4;
  t.pipelined = true;
  t.pipeline_min_tiles_per_block = four ? 2.5 : 0;
  t.l2_prefetch_bytes = scan_l2_prefetch_bytes;
  t.l2_prefetch_min_input_bytes = scan_l2_prefetch_min_input_bytes;
  t.single_wave = true;
  t.pipeline_lookback_tiles_per_lane = four ? 2 : 1;
  t.pipeline_clears_workspace = true;
  t.pipeline_first_lookback_tiles_per_lane = four ? 4 : 0;
  return t;
}

// The dispatcher takes the tuning as a type holding `static constexpr scan_tuning value`,
// so experiments (bench/scan_tuning_sweep.cu) can try rows that are not in the table.
template <class T>
struct default_scan_tuning {
  static constexpr scan_tuning value = scan_tuning_for_size(sizeof(T));
};

}  // namespace onepass::tuning
