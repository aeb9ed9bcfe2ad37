// onepass/tuning/scan_tuning.cuh — tile shapes of the production scan, as data.
//
// One row per element size. A tile is block_threads * items_per_thread items; with 16
// items of 4 bytes (8 of 8 bytes) each thread moves 64 bytes per tile, in four 128-bit
// loads, so a block keeps 16 KiB of loads in flight while the lookback of the tile before
// it completes. items_per_thread must be a multiple of the 128-bit vector width
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
  constexpr int tile_items() const { return block_threads * items_per_thread; }
};

// The table used for compute capability 8.0 and newer (the tuning was measured on 9.0).
constexpr scan_tuning scan_tuning_for_size(std::size_t element_bytes) {
  if (element_bytes <= 4) return {256, 32, 32};
  if (element_bytes <= 8) return {256, 16, 32};
  return {128, 4, 32};
}

// The dispatcher takes the tuning as a type holding `static constexpr scan_tuning value`,
// so experiments (bench/scan_tuning_sweep.cu) can try rows that are not in the table.
template <class T>
struct default_scan_tuning {
  static constexpr scan_tuning value = scan_tuning_for_size(sizeof(T));
};

}  // namespace onepass::tuning
