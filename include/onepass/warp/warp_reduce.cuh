// onepass/warp/warp_reduce.cuh — reduce the values of a warp's lanes with shuffles.
//
// The offsets grow 1, 2, 4, 8, 16 so that after step d lane i holds the in-order
// combination of lanes [i, i + 2d): lane 0 ends with x_0 op ... op x_31 in element order,
// which keeps non-commutative operators correct (the usual 16, 8, 4, 2, 1 butterfly
// would interleave lanes).
#pragma once

#include "onepass/detail/shuffle.cuh"

namespace onepass {

template <class T>
struct warp_reduce {
  // Returns, in every lane, the reduction of all 32 lanes' values.
  template <class Op>
  static __device__ ONEPASS_FORCEINLINE T reduce(T x, Op op) {
    return detail::shfl_idx(reduce_to_lane0(x, op), 0);
  }

  // Lane i receives op over lanes [i, 31] in order; lane 0 holds the full reduction.
  // Other lanes' results are partial suffixes (useful to read one lane's suffix).
  template <class Op>
  static __device__ ONEPASS_FORCEINLINE T reduce_to_lane0(T x, Op op) {
    const int lane = detail::lane_id();
#pragma unroll
    for (int d = 1; d < detail::warp_threads; d <<= 1) {
      const T upper = detail::shfl_down(x, d);
      if (lane + d < detail::warp_threads) x = op(x, upper);
    }
    return x;
  }
};

}  // namespace onepass
