// onepass/warp/warp_reduce.cuh — reduce the values of a warp's lanes with shuffles.
//
// The offsets grow 1, 2, 4, 8, 16 so that after step d lane i holds the in-order
// combination of lanes [i, i + 2d): lane 0 ends with x_0 op ... op x_31 in element order,
// which keeps non-commutative operators correct (the usual 16, 8, 4, 2, 1 butterfly
// would interleave lanes).
#pragma once

#include <type_traits>

#include "onepass/detail/shuffle.cuh"
#include "onepass/functional.cuh"

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

  // Lanes [0, valid) take part (1 <= valid <= 32); lane 0 receives op over them in order.
  // The lanes past `valid` may hold anything.
  template <class Op>
  static __device__ ONEPASS_FORCEINLINE T reduce_to_lane0(T x, Op op, int valid) {
    const int lane = detail::lane_id();
#pragma unroll
    for (int d = 1; d < detail::warp_threads; d <<= 1) {
      const T upper = detail::shfl_down(x, d);
      if (lane + d < valid) x = op(x, upper);
    }
    return x;
  }

  // Every lane receives the reduction, for a commutative op only: a butterfly, no lane
  // guards (lanes combine in different orders, which a commutative op does not see —
  // float addition included: a + b and b + a are the same bits). 32-bit integer sums,
  // minima and maxima are one redux.sync instruction.
  template <class Op>
  static __device__ ONEPASS_FORCEINLINE T reduce_commutative(T x, Op op) {
    constexpr bool int32 = std::is_same_v<T, int> || std::is_same_v<T, unsigned>;
    constexpr bool redux = has_redux && int32 &&
                           (std::is_same_v<Op, plus> || std::is_same_v<Op, maximum> || std::is_same_v<Op, minimum>);
    if constexpr (redux) {
      return redux_sync(x, op);
    } else {
#pragma unroll
      for (int d = 1; d < detail::warp_threads; d <<= 1) x = op(x, detail::shfl_xor(x, d));
      return x;
    }
  }

 private:
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  static constexpr bool has_redux = false;
#else
  static constexpr bool has_redux = true;  // sm_80 and newer (and the host pass, never called)
#endif
  template <class Op>
  static __device__ ONEPASS_FORCEINLINE T redux_sync(T x, Op) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    if constexpr (std::is_same_v<Op, plus>) {
      return static_cast<T>(__reduce_add_sync(detail::full_warp_mask, static_cast<unsigned>(x)));
    } else if constexpr (std::is_same_v<Op, maximum>) {
      return __reduce_max_sync(detail::full_warp_mask, x);
    } else {
      return __reduce_min_sync(detail::full_warp_mask, x);
    }
#else
    return x;
#endif
  }
};

}  // namespace onepass
