// onepass/block/block_reduce.cuh — reduce across a thread block, built from warp reductions.
//
// Each warp reduces its lanes with shuffles, lane 0 writes the warp's result to shared
// memory, one barrier, then every warp reduces the warp results itself, so the result is
// available in every thread after a single __syncthreads. Order-preserving: valid for
// non-commutative operators. Caller-owned storage; a __syncthreads() is needed between two
// uses of the same storage.
#pragma once

#include "onepass/warp/warp_reduce.cuh"

namespace onepass {

template <class T, int BlockThreads>
class block_reduce {
  static_assert(BlockThreads % 32 == 0 && BlockThreads >= 32 && BlockThreads <= 1024,
                "BlockThreads must be a multiple of 32 in [32, 1024]");
  static constexpr int warps = BlockThreads / 32;

 public:
  struct storage {
    T warp_results[warps];
  };

  __device__ explicit block_reduce(storage& s) : storage_(s) {}

  // Reduction of every thread's x, returned in every thread.
  template <class Op>
  __device__ ONEPASS_FORCEINLINE T reduce(T x, Op op) {
    const T warp_result = warp_reduce<T>::reduce_to_lane0(x, op);
    if constexpr (warps == 1) {
      return detail::shfl_idx(warp_result, 0);
    } else {
      const int lane = detail::lane_id();
      if (lane == 0) storage_.warp_results[detail::warp_id()] = warp_result;
      __syncthreads();
      T t = storage_.warp_results[lane < warps ? lane : 0];
      // Lanes >= warps hold a duplicate that the in-order reduction never reaches when
      // reading lane 0's [0, warps) prefix, so reduce only the first `warps` lanes.
#pragma unroll
      for (int d = 1; d < warps; d <<= 1) {
        const T upper = detail::shfl_down(t, d);
        if (lane + d < warps) t = op(t, upper);
      }
      return detail::shfl_idx(t, 0);
    }
  }

  // Reduction of threads [0, valid)'s x in thread order (1 <= valid <= BlockThreads); the
  // other threads' x may hold anything. The result is meaningful in thread 0 only.
  template <class Op>
  __device__ ONEPASS_FORCEINLINE T reduce(T x, Op op, int valid) {
    const int warp = detail::warp_id(), lane = detail::lane_id();
    const int in_warp = valid - warp * 32;
    const T warp_result = warp_reduce<T>::reduce_to_lane0(x, op, in_warp < 32 ? in_warp : 32);
    if constexpr (warps == 1) {
      return warp_result;
    } else {
      if (lane == 0 && in_warp > 0) storage_.warp_results[warp] = warp_result;
      __syncthreads();
      const int valid_warps = (valid + 31) / 32;
      T t = warp_result;
      if (warp == 0) {
        if (lane < valid_warps) t = storage_.warp_results[lane];
        t = warp_reduce<T>::reduce_to_lane0(t, op, valid_warps);
      }
      return t;
    }
  }

  // Reduction of N items per thread (in element order if the items are blocked).
  template <int N, class Op>
  __device__ ONEPASS_FORCEINLINE T reduce(const T (&items)[N], Op op) {
    T x = items[0];
#pragma unroll
    for (int i = 1; i < N; ++i) x = op(x, items[i]);
    return reduce(x, op);
  }

 private:
  storage& storage_;
};

}  // namespace onepass
