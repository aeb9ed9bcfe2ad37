// onepass/tuning/segmented_scan_tuning.cuh — tile shapes of the production segmented
// scan (head flags, segment offsets, scan by key), as data.
//
// One tile per block. items_per_thread is at most 32 (a thread's head flags travel as
// one 32-bit mask) and a multiple of the 128-bit vector width of the values. Measured
// with bench/segmented_scan_tuning_sweep on an H100 (docs/perf/segmented_scan.md):
// 4-byte values 256 x 32 (one segment 85% of the plain scan's rate against 75-80% at
// 256 x 16; 128 x 32 within run-to-run noise of it). 8-byte values 128 x 32, the same 256
// bytes a thread: 10-16 points of the plain scan's rate faster than the first row tried
// (256 x 8, 4 blocks per SM, which spilled). The 4-byte row asks for 3 blocks per SM:
// the flags and by-key kernels fit that anyway (79-80 registers), the offsets form's
// bitmap kernel took 100 registers and ran 2 blocks per SM without it (24% more time on
// an H200; with it, 80 registers and no spills).
#pragma once

#include <cstddef>

namespace onepass::tuning {

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
  constexpr int tile_items() const { return block_threads * items_per_thread; }
};

inline constexpr long long segmented_scan_l2_prefetch_bytes = 2ll << 20;
inline constexpr long long segmented_scan_l2_prefetch_min_input_bytes = 128ll << 20;

constexpr segmented_scan_tuning segmented_scan_tuning_for_size(std::size_t element_bytes) {
  if (element_bytes <= 4)
    return {256, 32, 32, 3, segmented_scan_l2_prefetch_bytes, segmented_scan_l2_prefetch_min_input_bytes};
  if (element_bytes <= 8)
    return {128, 32, 32, 0, segmented_scan_l2_prefetch_bytes, segmented_scan_l2_prefetch_min_input_bytes};
  return {128, 4, 32, 0};
}

template <class T>
struct default_segmented_scan_tuning {
  static constexpr segmented_scan_tuning value = segmented_scan_tuning_for_size(sizeof(T));
};

}  // namespace onepass::tuning
