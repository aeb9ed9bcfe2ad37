// onepass/tuning/histogram_tuning.cuh — the production histogram's shape, as data.
//
// A histogram reads every sample once; what can stop it short of the read bandwidth is
// the shared-memory counting. Shared-memory atomics on Hopper pass through the 32 banks
// once per distinct word of a bank in one warp instruction, so a single histogram per
// block slows on uniform data (32 random bins of 256 land ~3.5 deep in the busiest bank)
// while same-address increments are combined. The `columns` layout gives every lane its
// own bank: counter (bin, lane) at word bin * 32 + lane, so one warp instruction touches
// 32 distinct banks whatever the samples are. It costs 32 counters per bin, so it is used
// up to `column_max_bins`; beyond, one counter per bin per block (`shared`), and past
// what shared memory holds, atomics on the counts in global memory (`global`).
//
// Measured on sm_90: docs/perf/histogram.md.
#pragma once

namespace onepass::tuning {

// The kernel's shape: its block, its loads in flight, its grid.
struct histogram_shape {
  int block_threads = 0;
  int vectors_per_thread = 0;  // 16-byte loads each thread has in flight per round
  int blocks_per_sm = 0;       // the grid, at most (fewer when shared memory or n is small)
};

// Which counter layout a call runs.
struct histogram_choice {
  int column_max_bins = 0;     // up to this many bins: the conflict-free `columns` layout
};

// A row of the table: a shape and a choice, each field read by its name.
struct histogram_tuning : histogram_shape, histogram_choice {

};

constexpr histogram_tuning histogram_sm90_row() {
  histogram_tuning t{};
  t.block_threads = 512;
  t.vectors_per_thread = 4;
  t.blocks_per_sm = 4;
  t.column_max_bins = 256;
  return t;
}
inline constexpr histogram_tuning histogram_sm90 = histogram_sm90_row();

// The dispatcher takes the tuning as a type holding `static constexpr histogram_tuning
// value`, so experiments can try rows that are not in the table.
struct default_histogram_tuning {
  static constexpr histogram_tuning value = histogram_sm90;
};

}  // namespace onepass::tuning
