// onepass/warp/warp_scan.cuh — scan across the 32 lanes of a warp with shuffles.
//
// Kogge–Stone: log2(32) = 5 shuffle steps; at step d each lane folds in the partial of
// the lane d below it. Lane order is element order, and every combine is op(lower, upper),
// so non-commutative operators are scanned correctly. No shared memory is needed.
// All 32 lanes must call these functions together (converged).
#pragma once

#include "onepass/detail/shuffle.cuh"

namespace onepass {

template <class T>
struct warp_scan {
  // Inclusive scan: lane i receives x_0 op ... op x_i.
  template <class Op>
  static __device__ ONEPASS_FORCEINLINE T inclusive(T x, Op op) {
    const int lane = detail::lane_id();
#pragma unroll
    for (int d = 1; d < detail::warp_threads; d <<= 1) {
      const T lower = detail::shfl_up(x, d);
      if (lane >= d) x = op(lower, x);
    }
    return x;
  }

  // Inclusive scan that also hands every lane the warp's total (lane 31's result).
  template <class Op>
  static __device__ ONEPASS_FORCEINLINE T inclusive(T x, Op op, T& warp_total) {
    x = inclusive(x, op);
    warp_total = detail::shfl_idx(x, detail::warp_threads - 1);
    return x;
  }

  // Exclusive scan seeded with `init`: lane 0 receives init, lane i > 0 receives
  // init op x_0 op ... op x_{i-1}. No identity element is needed.
  template <class Op>
  static __device__ ONEPASS_FORCEINLINE T exclusive(T x, T init, Op op) {
    T total;
    return exclusive(x, init, op, total);
  }

  // As above; warp_total receives x_0 op ... op x_31 (without init).
  template <class Op>
  static __device__ ONEPASS_FORCEINLINE T exclusive(T x, T init, Op op, T& warp_total) {
    const T incl = inclusive(x, op, warp_total);
    const T shifted = detail::shfl_up(incl, 1);
    return detail::lane_id() == 0 ? init : op(init, shifted);
  }
};

}  // namespace onepass
