// onepass/tuning/reduce_tuning.cuh — the production reduce's shape, as data.
//
// A reduction reads every item once and writes nothing, so it is limited by how many
// bytes are in flight per SM. Each warp streams a contiguous range in segments of
// 32 * items_per_thread items; every thread has items_per_thread / vector width 128-bit
// loads in flight per segment (4 for 4- and 8-byte types: 64 bytes), and
// blocks_per_sm * block_threads threads per SM issue them. 8 x 256 (the SM's 2048
// threads, like the read-only ceiling kernel of bench/baselines.cu) caps registers at 32
// and the kernel spilled; 6 x 256 leaves 40, no spills, and measured faster
// (docs/perf/reduce.md, "Attempts").
//
// Measured on sm_90: docs/perf/reduce.md.
#pragma once

#include <cstddef>

namespace onepass::tuning {

// The kernel's shape: its block, its loads in flight, its grid.
struct reduce_shape {
  int block_threads = 0;
  int items_per_thread = 0;  // per segment; a multiple of the 128-bit vector width
  int blocks_per_sm = 0;     // the grid, at most: this many blocks per SM (fewer when n is small)
};

// How the two kernels are launched.
struct reduce_choice {
  // Programmatic dependent launch (Hopper): the second kernel is launched so that it is
  // resident, waiting, when the first finishes, which saves a launch latency on small
  // inputs. Launching the first one so too lets it overlap the kernel before it,
  // but its wait costs as much as that saves here: off (docs/perf/reduce.md).
  bool programmatic_first = false;
  bool programmatic_second = true;
};

// A row of the table: a shape and a choice, each field read by its name.
struct reduce_tuning : reduce_shape, reduce_choice {
  constexpr int segment_items() const { return 32 * items_per_thread; }
};

constexpr reduce_tuning reduce_tuning_for_size(std::size_t element_bytes) {
  reduce_tuning t{};
  t.block_threads = 256;
  t.items_per_thread = element_bytes <= 4 ? 16 : element_bytes <= 8 ? 8 : 2;
  t.blocks_per_sm = 6;
  return t;
}

// The dispatcher takes the tuning as a type holding `static constexpr reduce_tuning
// value`, so experiments can try rows that are not in the table.
template <class T>
struct default_reduce_tuning {
  static constexpr reduce_tuning value = reduce_tuning_for_size(sizeof(T));
};

}  // namespace onepass::tuning
