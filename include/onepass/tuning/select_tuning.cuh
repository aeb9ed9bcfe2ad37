// onepass/tuning/select_tuning.cuh — tile shapes of the production stream compaction
// (select, unique, partition), as data.
//
// One tile per block. Each thread holds 256 bytes of items (at most 64 items, a
// multiple of the 128-bit vector where there is one): of the shapes measured on an H100
// (2^28 uint32), 128 threads x 64 items was the fastest, and larger tiles beat more
// threads (docs/perf/select.md). 4-byte unique is the exception, 48 items a thread. Large
// aligned inputs of some calls run the same tile in the pipelined agent instead (the
// pipeline_* fields below).
#pragma once

#include <cstddef>

namespace onepass::tuning {

struct select_tuning {
  int block_threads;
  int items_per_thread;
  unsigned lookback_backoff_ns;  // first pause between polls of a not-ready tile; 0 = spin
  // How far ahead of its own tile a block asks L2 to prefetch the input, in bytes (whole
  // tiles; 0 = none), for 16-byte aligned inputs of at least l2_prefetch_min_input_bytes
  // (as the scan's tuning). Measured at 2^28 uint32 (docs/perf/select.md): +5 points of
  // the copy with half kept on an H200 (67% -> 72%), +4 on an H100.
  long long l2_prefetch_bytes = 0;
  long long l2_prefetch_min_input_bytes = 0;
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
  // With a split tile: whether select_if and unique use it too (false: partitions only).
  bool split_selects = true;
  // The one-tile kernel writes its packed items with 16-byte stores (4- and 8-byte items;
  // agent/select.cuh, store_packed) instead of one store an item. Measured at 2^28 on an
  // H200 (docs/perf/select.md): uint32 select +1.8 points of the copy with half kept, +4.2
  // with 99% kept, select_flagged +1.1, level at 1% kept and for unique with runs of 4.
  bool vector_stores = false;
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
  // flags path): since 2026-11-29 no row keeps a call off it (the per-call switches it had
  // are gone, as every row set them).
  int pipeline_threads = 0;
  int pipeline_items = 0;
  double pipeline_min_tiles_per_block = 2.5;
  // Its lookback's window: each lane reads this many consecutive descriptors a round trip.
  int pipeline_lookback_tiles_per_lane = 1;
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
// 4-byte items ask 4 MiB ahead: at 2^28 uint32 on an H100 select 1 / 50 / 99% kept +0.4 /
// +1.0 / +0.5 points of the copy and unique +0.6 against 2 MiB, partition level; level on an
// H200 (within 0.4). 8-byte items keep 2 MiB (4 MiB: -0.3 on the H100, +0.3 on the H200).
inline constexpr long long select_l2_prefetch_bytes_4byte = 4ll << 20;
inline constexpr long long select_l2_prefetch_min_input_bytes = 128ll << 20;

// The split tile: 128 bytes of items per thread in registers (16 rows of 8-byte items,
// 32 of 4-byte ones), the other 16 KiB of the 32 KiB tile in shared memory, at least 8
// blocks per SM (64 registers, no spills). Measured at 2^28 bytes-equal inputs on an
// H100 and an H200 (docs/perf/select.md), % of copy, one-tile kernel -> split tile at 6
// blocks per SM:
//   8-byte select 50% kept: H100 85.7 -> 93.4, H200 74.2 -> 80.1; partition 82.6 -> 90.1,
//     67.2 -> 81.1;
//   4-byte partition: 77.5 -> 77.9, 61.8 -> 68.5; but select 50% 86.5 -> 85.1, 71.7 ->
//     69.7 and unique 82.3 -> 75.8, 68.4 -> 61.0, so 4-byte selects keep the one-tile kernel.
// The minimum is 8, not 6, for unique: at 6 the compiler gave its 8-byte kernel 80
// registers (6 blocks per SM) where select's took 64 (8 blocks); at 8, uint64 unique
// (runs of 4) H200 68.6 -> 76.1% (CUB 71.0%), H100 77.5 -> 89.8% (CUB 82.8%); every other
// table within 0.3 point of 6.
// select_flagged always runs the one-tile kernel (select_flagged_job::split_tile).
// 4-byte unique takes a smaller tile, 128 x 48 (72 registers: 7 blocks per SM by registers,
// against 96 and 5): at 2^28 uint32 with runs of 4, +1.9 points of the copy on an H100 and
// +1.6 on an H200; the same shape loses 0.7-1.8 points for select_if, which keeps 128 x 64.
inline constexpr int select_unique_items_per_thread_4byte = 48;
// The pipelined agent (agent/select_pipeline.cuh): 256 threads x 128 bytes of items (the
// one-tile kernel's 32 KiB tile), 64-tile lookback windows (+0.4 to +1.7 points of the
// copy against 32), from 2.5 tiles per resident block up (its 2 blocks per SM; the scan's
// crossover, not measured for the select). Measured at 2^28 uint32 / 2^27 uint64 on an
// H200, % of the copy, the kernels above -> pipelined (docs/perf/select.md, "The
// pipelined select"; onepass-bench afterwards: int32 select 76.1 -> 81.5% with half kept,
// partition 69.7 -> 85.5%, int64 83.9 -> 87.8%):
//   4-byte select 1 / 50 / 99% kept 63.5 / 76.8 / 83.6 -> 64.8 / 80.8 / 88.2, partition
//     70.0 -> 81.1 (86.1 with its packing as it is now); unique (runs of 4) 72.8 -> 70.1;
//   8-byte partition 83.0 -> 88.0; select 74.8 / 82.9 / 88.0 -> 70.2 / 84.0 / 91.0 and
//     unique 78.7 -> 77.9,
// so 4-byte unique and 8-byte selects and unique kept their kernels from 128 MiB up (below
// it every call took the agent: at 64 MiB it won every table), and from 1 GiB after the
// sizes between were measured (2026-11-29: at 128 MiB the kernels kept off the agent were
// slower than CUB on three tables). Then the agent's warps 1-7 packed their items while
// warp 0 looks back (2026-11-29, `select_tuning_sweep 28 pipeline`, old and new builds in
// one call): every call on the agent 0.7-2.2 points faster, and at 1 GiB the calls kept off
// it, their kernel -> the agent: 4-byte unique runs of 4 / 1 72.9 / 85.8 -> 72.5 / 91.4;
// 8-byte select 1 / 50 / 99% 74.6 / 82.9 / 87.8 -> 72.4 / 86.0 / 92.2; 8-byte unique 78.6
// -> 78.8. So every call but select_flagged takes the agent at every size, on 16-byte
// aligned data with 2.5 tiles per resident block.
inline constexpr double select_pipeline_min_tiles_per_block = 2.5;
constexpr select_tuning select_tuning_for_size(std::size_t element_bytes) {
  const int items = element_bytes >= 256 ? 1 : element_bytes <= 4 ? 64 : static_cast<int>(256 / element_bytes);
  if (element_bytes == 4 || element_bytes == 8) {
    const int rows = static_cast<int>(128 / element_bytes);
    const long long prefetch = element_bytes == 4 ? select_l2_prefetch_bytes_4byte : select_l2_prefetch_bytes;
    return {128,
            items,
            32,
            prefetch,
            select_l2_prefetch_min_input_bytes,
            rows,
            128 * (items - rows),
            8,
            element_bytes == 8,
            true,
            0,
            element_bytes == 4 ? select_unique_items_per_thread_4byte : 0,
            256,
            static_cast<int>(128 / element_bytes),
            select_pipeline_min_tiles_per_block,
            2};
  }
  return {128, items, 32, select_l2_prefetch_bytes, select_l2_prefetch_min_input_bytes};
}

template <class T>
struct default_select_tuning {
  static constexpr select_tuning value = select_tuning_for_size(sizeof(T));
};

}  // namespace onepass::tuning
