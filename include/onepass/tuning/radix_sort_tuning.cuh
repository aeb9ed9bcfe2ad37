// onepass/tuning/radix_sort_tuning.cuh — shapes of the production radix sort, as data.
//
// The onesweep kernel runs one thread per digit (256 threads, 8-bit digits); a tile is
// 256 * items_per_thread keys. Larger tiles mean fewer descriptors to clear and fewer
// lookbacks per key, but more registers per thread (keys, values and positions stay in
// registers from the load to the scatter). Chosen with bench/radix_sort_tuning_sweep
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
  // Keys per onesweep launch: descriptor counts are 30-bit, and the descriptors of one
  // portion's tiles are cleared before each launch.
  long long portion_items;
  // Descriptors each onesweep lookback step reads at once (lookback_window); 1 walks back
  // one tile per memory latency.
  int lookback_window = 4;
  // The lookback's first pause after finding a predecessor not yet published (ns).
  unsigned lookback_first_pause_ns = 32;
  // Ranking: items whose warp matches (ballots) are computed together before their
  // offset updates; divides the items per thread.
  int rank_group = 4;
  constexpr int onesweep_tile_items() const { return 256 * onesweep_items_per_thread; }
};

// Measured on an H100 at 2^24 (docs/perf/radix_sort.md): keys alone run best with 20
// items a thread (fewer tiles, fewer lookbacks per key); with values, 16 items keep the
// registers in check and a 2-descriptor lookback window beats 4.
constexpr radix_sort_tuning radix_sort_tuning_for(std::size_t key_bytes, std::size_t value_bytes) {
  (void)key_bytes;
  if (value_bytes == 0) return {20, 256, 4, 1ll << 28, 4, 32, 4};
  return {16, 256, 4, 1ll << 28, 2, 32, 4};
}

template <class Key, class Value>
struct default_radix_sort_tuning {
  static constexpr radix_sort_tuning value =
      radix_sort_tuning_for(sizeof(Key), std::is_empty_v<Value> ? 0 : sizeof(Value));
};

}  // namespace onepass::tuning
