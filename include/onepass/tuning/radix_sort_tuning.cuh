// onepass/tuning/radix_sort_tuning.cuh — shapes of the production radix sort, as data.
//
// The onesweep kernel runs one thread per digit (256 threads, 8-bit digits); a tile is
// 256 * items_per_thread keys. Larger tiles mean fewer descriptors to clear and fewer
// lookbacks per key, but more registers per thread (keys, values and positions stay in
// registers from the load to the scatter). First shapes, not yet swept on a GPU
// (docs/perf/radix_sort.md).
#pragma once

#include <cstddef>
#include <type_traits>

namespace onepass::tuning {

struct radix_sort_tuning {
  int onesweep_items_per_thread;
  int histogram_block_threads;
  // Histogram blocks per SM and portion: enough to keep every SM's loads in flight.
  int histogram_blocks_per_sm;
  // Keys per onesweep launch: descriptor counts are 32-bit, and the descriptors of one
  // portion's tiles are cleared before each launch.
  long long portion_items;
  constexpr int onesweep_tile_items() const { return 256 * onesweep_items_per_thread; }
};

constexpr radix_sort_tuning radix_sort_tuning_for(std::size_t key_bytes, std::size_t value_bytes) {
  (void)key_bytes;
  (void)value_bytes;
  return {16, 256, 4, 1ll << 28};
}

template <class Key, class Value>
struct default_radix_sort_tuning {
  static constexpr radix_sort_tuning value =
      radix_sort_tuning_for(sizeof(Key), std::is_empty_v<Value> ? 0 : sizeof(Value));
};

}  // namespace onepass::tuning
