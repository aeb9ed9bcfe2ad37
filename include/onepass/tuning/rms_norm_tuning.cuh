// onepass/tuning/rms_norm_tuning.cuh — the shapes of the fused RMSNorm, as data.
//
// A row is normalised by one group of threads that holds it in registers, so global
// memory is read once and written once. The dispatcher walks `shapes` in order and
// takes the first whose group can hold the row (width <= row_threads * items_per_thread);
// wider rows take the two-pass kernel, which reads x twice (the second time mostly from
// L2).
//
// Why these shapes (rows of 4-byte or 2-byte values alike, 16 values per thread: four
// 128-bit loads of float or two of bfloat16 in flight per thread; the weight is not held
// in registers, so the 128-bit paths take 32-40 registers with nvcc 13.0 and a full SM of
// 2048 threads (float) or 1536 (bfloat16 at 256 per block) stays resident):
//   * width <= 512: a warp per row, eight rows per block. A warp holds 32 * 16 = 512
//     values at that register budget, and reduces with shuffles alone: no barrier, no
//     shared memory. Handing such a row to a block instead would make every block a few
//     hundred bytes of work behind a __syncthreads, so block scheduling and the barrier,
//     not memory, would set the pace. Above 512 a warp would need more registers per
//     thread or a loop over the row (fewer loads in flight), so the block takes over.
//   * 512 < width <= 16384: a block per row, as few threads as hold the row at 16 values
//     each (128, 256, 512, 1024). Loads are vector-striped across the whole block, so a
//     row narrower than a shape's capacity mostly leaves registers idle, not threads.
//     4096 floats: 256 threads x 16 values, 4096 blocks of 16 KiB each.
//   * wider: two passes over the row within a block (sum of squares, then normalise
//     re-reading x), two_pass_unroll loads in flight per thread in each pass.
// Unmeasured as a table: the rows are where a sweep would start, not its result.
// Knobs that the table leaves off and bench/rms_norm_tuning_sweep.cu tries:
//   * weight_early: each thread loads its share of the weight into registers together
//     with x, before the row reduction, so the weight's latency hides behind the
//     reduction instead of following it (Items more registers per thread for float,
//     Items / 2 for bfloat16);
//   * streaming_stores: y is stored with the evict-first hint (st.global.cs), so the
//     written lines do not push x and the weight out of L2 and L1;
//   * shapes with 8 values per thread (twice the threads per row) and min_blocks_per_sm.
#pragma once

#include <cstddef>

namespace onepass::tuning {

struct rms_norm_shape {
  int block_threads = 0;
  // Threads sharing one row: 32 (a warp per row, block_threads / 32 rows per block) or
  // block_threads (a block per row). Nothing in between: the library's block_reduce
  // spans a whole block.
  int row_threads = 0;
  // Values of the row each thread holds in registers; a multiple of the 128-bit vector
  // width (4 floats, 8 bfloat16), at most four vectors (16 floats, 32 bfloat16).
  int items_per_thread = 0;
  // __launch_bounds__' second argument; 0 leaves the register budget to the compiler.
  int min_blocks_per_sm = 0;

  constexpr int max_width() const { return row_threads * items_per_thread; }
  constexpr int rows_per_block() const { return block_threads / row_threads; }
};

// The kernels' shapes: the register-held rows' shapes by width, the two-pass kernel's.
struct rms_norm_shapes {
  static constexpr int max_shapes = 8;
  rms_norm_shape shapes[max_shapes];  // increasing max_width(); the first shape_count are used
  int shape_count = 0;
  int two_pass_threads = 0;  // block size of the two-pass kernel (widths past the last shape)
  int two_pass_unroll = 0;   // loads each thread has in flight per step of either pass

  constexpr int max_register_width() const { return shapes[shape_count - 1].max_width(); }
};

// How the kernels run: their grid, when the weight is loaded, how y is stored.
struct rms_norm_choice {
  // Most blocks launched; blocks loop over the rows beyond. 0: one block per row group,
  // up to the 2^31 - 1 a grid allows. (Tests set a few, so every block loops.)
  int max_blocks = 0;
  // Register-held rows: load the thread's weight values with x, before the reduction
  // (false: a vector at a time after it, mostly from L1).
  bool weight_early = false;
  // Every kernel: store y with the evict-first hint (__stcs) instead of a plain store.
  bool streaming_stores = false;
};

// A row of the table: the shapes and a choice, each field read by its name.
struct rms_norm_tuning : rms_norm_shapes, rms_norm_choice {};

// The table for compute capability 8.0 and newer; element sizes 2 (bfloat16) and 4 (float).
// Streaming stores for float only: in two sweeps on sm_90 they gained at most widths for
// float and lost slightly at most widths for bfloat16 (docs/perf/reduce.md, "RMSNorm").
// A shape by name: block_threads threads, row_threads of them a row, items_per_thread
// values each in registers.
constexpr rms_norm_shape rms_norm_shape_of(int block_threads, int row_threads, int items_per_thread) {
  rms_norm_shape s{};
  s.block_threads = block_threads;
  s.row_threads = row_threads;
  s.items_per_thread = items_per_thread;
  return s;
}

constexpr rms_norm_tuning rms_norm_tuning_for_size(std::size_t element_bytes) {
  rms_norm_tuning t{};
  // A warp a row up to 512 values, then a block a row of 128 ... 1024 threads.
  t.shapes[0] = rms_norm_shape_of(256, 32, 16);
  t.shapes[1] = rms_norm_shape_of(128, 128, 16);
  t.shapes[2] = rms_norm_shape_of(256, 256, 16);
  t.shapes[3] = rms_norm_shape_of(512, 512, 16);
  t.shapes[4] = rms_norm_shape_of(1024, 1024, 16);
  t.shape_count = 5;
  t.two_pass_threads = 512;
  t.two_pass_unroll = 4;
  t.streaming_stores = element_bytes >= 4;
  return t;
}

// The dispatcher takes the tuning as a type holding `static constexpr rms_norm_tuning
// value`, so experiments can try rows that are not in the table.
template <class T>
struct default_rms_norm_tuning {
  static constexpr rms_norm_tuning value = rms_norm_tuning_for_size(sizeof(T));
};

}  // namespace onepass::tuning
