// onepass/tuning/select_tuning.cuh — tile shapes of the production stream compaction
// (select, unique, partition), as data.
//
// One tile per block. Each thread holds 256 bytes of items (at most 64 items, a
// multiple of the 128-bit vector where there is one): of the shapes measured on an H100
// (2^28 uint32), 128 threads x 64 items was the fastest, and larger tiles beat more
// threads (docs/perf/select.md).
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
  constexpr int tile_items() const { return block_threads * items_per_thread; }
};

inline constexpr long long select_l2_prefetch_bytes = 2ll << 20;
inline constexpr long long select_l2_prefetch_min_input_bytes = 128ll << 20;

constexpr select_tuning select_tuning_for_size(std::size_t element_bytes) {
  const int items = element_bytes >= 256 ? 1 : element_bytes <= 4 ? 64 : static_cast<int>(256 / element_bytes);
  return {128, items, 32, select_l2_prefetch_bytes, select_l2_prefetch_min_input_bytes};
}

template <class T>
struct default_select_tuning {
  static constexpr select_tuning value = select_tuning_for_size(sizeof(T));
};

}  // namespace onepass::tuning
