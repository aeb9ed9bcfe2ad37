// onepass/tuning/select_tuning.cuh — tile shapes of the production stream compaction
// (select, unique, partition), as data.
//
// One tile per block. Each thread holds 256 bytes of items (at most 64 items, a
// multiple of the 128-bit vector where there is one): of the shapes measured on sm_90
// (2^28 uint32), 128 threads x 64 items was the fastest, and larger tiles beat more
// threads (docs/perf/select.md, "Tile shape, one tile per block"). 4-byte unique is the
// exception, 48 items a thread. Large
// aligned inputs of some calls run the same tile in the pipelined agent instead (the
// pipeline_* fields below).
#pragma once

#include <cstddef>

namespace onepass::tuning {

// The kernels' shapes: tiles, occupancy, lookback windows.
struct select_shape {
  int block_threads = 0;
  int items_per_thread = 0;
  unsigned lookback_backoff_ns = 0;  // first pause between polls of a not-ready tile; 0 = spin
  // The split tile (agent/select_split.cuh), for 4- and 8-byte items on a 16-byte
  // aligned input: register_rows rows of 32 items per warp in registers, shared_items
  // more in shared memory; 0 = the one-tile kernel always. Its tile must hold as many
  // items as the one-tile kernel's (block_threads * register_rows + shared_items ==
  // tile_items()), which stays the fallback, so both share one workspace layout.
  int register_rows = 0;
  int shared_items = 0;
  // The split-tile kernel's __launch_bounds__ minimum of resident blocks per SM (0: none,
  // the compiler's choice).
  int split_min_blocks_per_sm = 0;
  // The one-tile kernel's __launch_bounds__ minimum of resident blocks per SM (0: none, the
  // compiler's choice).
  int min_blocks_per_sm = 0;
  // unique's items per thread in the one-tile kernel where they differ from the other
  // calls' (0: items_per_thread). Only in rows whose selects keep the one-tile kernel
  // (split_selects false), so that unique never runs the split tile.
  int unique_items_per_thread = 0;
  // The pipelined agent (agent/select_pipeline.cuh): persistent blocks of
  // pipeline_threads x pipeline_items tiles (the same tile as tile_items()) that keep loads
  // in flight during their lookback, for 4- and 8-byte items where the input and outputs
  // are 16-byte aligned and there are at least pipeline_min_tiles_per_block tiles per
  // resident block; 0 threads = never. Every call uses it but select_flagged (it has no
  // flags path): no row keeps a call off it (the per-call switches it had are gone, as
  // every row set them).
  int pipeline_threads = 0;
  int pipeline_items = 0;
  // Its lookback's window: each lane reads this many consecutive descriptors a round trip.
  int pipeline_lookback_tiles_per_lane = 1;
};

// Which kernel a call runs, how it stores, and what it asks of the memory system.
struct select_choice {
  // How far ahead of its own tile a block asks L2 to prefetch the input, in bytes (whole
  // tiles; 0 = none), for 16-byte aligned inputs of at least l2_prefetch_min_input_bytes
  // (as the scan's tuning): it keeps DRAM busy while tiles wait on their lookbacks, a
  // clear gain at 2^28 on both sm_90 parts measured (docs/perf/select.md).
  long long l2_prefetch_bytes = 0;
  long long l2_prefetch_min_input_bytes = 0;
  // With a split tile: whether select_if and unique use it too (false: partitions only).
  bool split_selects = true;
  // The one-tile kernel writes its packed items with 16-byte stores (4- and 8-byte items;
  // agent/select.cuh, store_packed) instead of one store an item: fewer store
  // instructions, a gain that grows with the share kept and nothing lost where little is
  // kept (docs/perf/select.md, "16-byte stores in the one-tile kernel").
  bool vector_stores = false;
  double pipeline_min_tiles_per_block = 2.5;
};

// A row of the table: a shape and a choice, each field read by its name.
struct select_tuning : select_shape, select_choice {
  constexpr int tile_items() const { return block_threads * items_per_thread; }
  constexpr bool pipeline_fits() const {
    return pipeline_threads == 0 || pipeline_threads * pipeline_items == tile_items();
  }
  // The row unique runs: the one-tile kernel with unique_items_per_thread, where set.
  constexpr select_tuning for_unique() const {
    select_tuning t = *this;
    if (unique_items_per_thread > 0) {
      t.items_per_thread = unique_items_per_thread;
      t.register_rows = 0;
      t.shared_items = 0;
    }
    return t;
  }
  constexpr bool split_tile_fits() const {
    return register_rows == 0 || block_threads * register_rows + shared_items == tile_items();
  }
};

inline constexpr long long select_l2_prefetch_bytes = 2ll << 20;
// 4-byte items ask 4 MiB ahead: a small gain over 2 MiB on one sm_90 part, level on the
// other; 8-byte items keep 2 MiB, where 4 MiB was mixed (docs/perf/select.md, "The
// prefetch distance, on both GPUs").
inline constexpr long long select_l2_prefetch_bytes_4byte = 4ll << 20;
inline constexpr long long select_l2_prefetch_min_input_bytes = 128ll << 20;

// The split tile: 128 bytes of items per thread in registers (16 rows of 8-byte items,
// 32 of 4-byte ones), the other 16 KiB of the 32 KiB tile in shared memory, at least 8
// blocks per SM (64 registers, no spills): more blocks in flight at the same bytes a
// tile. Measured at 2^28 bytes-equal inputs on sm_90 (docs/perf/select.md, "The split tile
// in production"): a clear gain for 8-byte selects and partitions and for 4-byte
// partitions; 4-byte select and unique lost, so 4-byte selects keep the one-tile kernel.
// The minimum is 8, not 6, for unique: at 6 the compiler gave its 8-byte kernel 80
// registers (6 blocks per SM) where select's took 64 (8 blocks); at 8 uint64 unique gained
// clearly and every other table stayed level ("Registers, not tiles: 8 blocks per SM").
// select_flagged always runs the one-tile kernel (select_flagged_job::split_tile).
// 4-byte unique takes a smaller tile, 128 x 48 (72 registers: 7 blocks per SM by registers,
// against 96 and 5; unique spends more registers an item): faster for unique on both parts
// measured, while the same shape loses for select_if, which keeps 128 x 64
// (docs/perf/select.md, "The 4-byte shapes again").
inline constexpr int select_unique_items_per_thread_4byte = 48;
// The pipelined agent (agent/select_pipeline.cuh): 256 threads x 128 bytes of items (the
// one-tile kernel's 32 KiB tile), 64-tile lookback windows (faster than 32), from 2.5 tiles
// per resident block up (its 2 blocks per SM; the scan's crossover, not measured for the
// select). The agent first won for partitions and 4-byte selects only, while 4-byte unique
// and 8-byte selects and unique kept their kernels on large inputs (docs/perf/select.md,
// "The pipelined select", "Every call on the agent below 1 GiB"). Once the agent's warps
// 1-7 packed their items while warp 0 looks back, every call on it got faster, and the
// calls kept off it gained more on the agent than their two small losses cost ("Packing
// during the lookback in the pipelined agent"). So every call but select_flagged takes
// the agent at every size,
// on 16-byte aligned data with 2.5 tiles per resident block.
inline constexpr double select_pipeline_min_tiles_per_block = 2.5;
constexpr select_tuning select_tuning_for_size(std::size_t element_bytes) {
  select_tuning t{};
  t.block_threads = 128;
  t.items_per_thread = element_bytes >= 256 ? 1 : element_bytes <= 4 ? 64 : static_cast<int>(256 / element_bytes);
  t.lookback_backoff_ns = 32;
  t.l2_prefetch_bytes = select_l2_prefetch_bytes;
  t.l2_prefetch_min_input_bytes = select_l2_prefetch_min_input_bytes;
  if (element_bytes != 4 && element_bytes != 8) return t;  // unmeasured sizes: the one-tile kernel alone
  const int rows = static_cast<int>(128 / element_bytes);
  if (element_bytes == 4) t.l2_prefetch_bytes = select_l2_prefetch_bytes_4byte;
  t.register_rows = rows;
  t.shared_items = 128 * (t.items_per_thread - rows);
  t.split_min_blocks_per_sm = 8;
  t.split_selects = element_bytes == 8;
  t.vector_stores = true;
  t.min_blocks_per_sm = 0;
  t.unique_items_per_thread = element_bytes == 4 ? select_unique_items_per_thread_4byte : 0;
  t.pipeline_threads = 256;
  t.pipeline_items = static_cast<int>(128 / element_bytes);
  t.pipeline_min_tiles_per_block = select_pipeline_min_tiles_per_block;
  t.pipeline_lookback_tiles_per_lane = 2;
  return t;
}

template <class T>
struct default_select_tuning {
  static constexpr select_tuning value = select_tuning_for_size(sizeof(T));
};

}  // namespace onepass::tuning
