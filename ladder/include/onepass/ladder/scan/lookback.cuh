// onepass/ladder/scan/lookback.cuh — decoupled lookback (Merrill & Garland): ids
// "lookback_thread", "lookback_warp", "lookback_vec4", "lookback_vec8", "lookback_vec12",
// "lookback_vec16".
//
// The chained kernel (chained.cuh) with one change: a tile first publishes its own total
// (AGGREGATE), so a successor need not wait for the whole chain before it — it walks back
// folding aggregates until it meets a PREFIX. Tiles no longer wait on each other in series.
//   lookback_thread: one thread reads one predecessor per device-memory round trip;
//   lookback_warp:   warp 0 reads 32 predecessors per round trip (ballot + warp reduce);
//   lookback_vec<N>: warp lookback with N items per thread, loaded with 128-bit loads:
//                    fewer, bigger tiles, so fewer lookbacks and more bytes in flight.
#pragma once

#include "onepass/ladder/scan/chained.cuh"
#include "onepass/single_pass/lookback.cuh"

namespace onepass::ladder {

namespace detail {

// A tile > 0 publishes its AGGREGATE before looking back, so that its successors can fold
// it and look further back instead of waiting for its PREFIX. Warp: all 32 lanes of warp 0
// take part (lookback_warp needs a converged warp).
template <bool Warp>
struct decoupled_lookback {
  static constexpr int threads = Warp ? 32 : 1;

  template <class T, class Op>
  static __device__ T prefix_before(const lookback::tile_state<T>& state, index_t tile,
                                    const T& aggregate, Op op) {
    if (threadIdx.x == 0) state.publish(tile, lookback::tile_status::aggregate, aggregate);
    if constexpr (Warp) {
      return lookback::lookback_warp(state, tile, op);
    } else {
      return lookback::lookback_single(state, tile, op);
    }
  }
};

struct lookback_vec_names {
  const char* id;
  const char* summary;
};

constexpr lookback_vec_names lookback_vec_name(int items_per_thread) {
  switch (items_per_thread) {
    case 4: return {"lookback_vec4", "warp lookback, 4 items per thread, 128-bit loads"};
    case 8: return {"lookback_vec8", "warp lookback, 8 items per thread, 128-bit loads"};
    case 12: return {"lookback_vec12", "warp lookback, 12 items per thread, 128-bit loads"};
    case 16: return {"lookback_vec16", "warp lookback, 16 items per thread, 128-bit loads"};
    default: return {nullptr, nullptr};
  }
}

}  // namespace detail

struct lookback_thread : detail::single_pass_variant<1, detail::decoupled_lookback<false>> {
  static constexpr const char* id = "lookback_thread";
  static constexpr const char* summary =
      "decoupled lookback, one thread reads one predecessor at a time";
};

struct lookback_warp : detail::single_pass_variant<1, detail::decoupled_lookback<true>> {
  static constexpr const char* id = "lookback_warp";
  static constexpr const char* summary =
      "decoupled lookback, a warp reads 32 predecessors at a time";
};

// N items per thread. load_blocked uses 128-bit loads when N is a multiple of
// 16 / sizeof(T) — every N here, for 4- and 8-byte types — and scalar loads otherwise.
template <int N>
struct lookback_vec : detail::single_pass_variant<N, detail::decoupled_lookback<true>> {
  static_assert(detail::lookback_vec_name(N).id != nullptr, "lookback_vec: N is 4, 8, 12 or 16");
  static constexpr const char* id = detail::lookback_vec_name(N).id;
  static constexpr const char* summary = detail::lookback_vec_name(N).summary;
};

using lookback_vec4 = lookback_vec<4>;
using lookback_vec8 = lookback_vec<8>;
using lookback_vec12 = lookback_vec<12>;
using lookback_vec16 = lookback_vec<16>;

}  // namespace onepass::ladder
