// onepass/ladder/reduce/cooperative.cuh — id "cooperative": two phases in one kernel,
// separated by a grid-wide barrier (cooperative groups).
//
// The grid is exactly as large as the GPU can hold at once (occupancy x SMs) — a grid
// barrier needs every block resident — and launched with cudaLaunchCooperativeKernel.
// Each block reduces a contiguous chunk to the workspace, the grid synchronises, and
// block 0 combines the partials. One launch instead of two; the barrier itself costs
// about as much as the launch it saves. Reproducible on one GPU (the grid depends on it).
#pragma once

#include <cooperative_groups.h>

#include "onepass/ladder/reduce/common.cuh"

namespace onepass::ladder {
namespace detail {
constexpr int cooperative_threads = 256;

template <class T, class Op>
__global__ void __launch_bounds__(cooperative_threads)
    cooperative_reduce_kernel(const T* in, index_t n, T* partials, T init, T* out, Op op) {
  const index_t blocks = gridDim.x, b = blockIdx.x;
  const auto v = block_reduce_range<cooperative_threads>(in, n * b / blocks, n * (b + 1) / blocks, op);
  if (threadIdx.x == 0) partials[b] = v.value;  // blocks <= n: no chunk is empty
  // The barrier also orders the partials' writes before block 0's reads (it includes a
  // grid-scope fence).
  cooperative_groups::this_grid().sync();
  if (b != 0) return;
  const auto total = block_reduce_range<cooperative_threads>(static_cast<const T*>(partials), 0, blocks, op);
  if (threadIdx.x == 0) *out = op(init, total.value);
}
}  // namespace detail

struct cooperative {
  static constexpr const char* id = "cooperative";
  static constexpr const char* summary = "block partials, grid barrier (cooperative groups), block 0 combines";
  static constexpr bool commutative_only = true;
  static constexpr bool deterministic = true;

  // Depends on the device (its occupancy): asks the runtime.
  template <class T, class Op = plus>
  static std::size_t workspace_bytes(index_t n) {
    if (n == 0) return 0;
    return static_cast<std::size_t>(blocks_for<T, Op>(n)) * sizeof(T);
  }

  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, T init, Op op, workspace ws, cudaStream_t stream) {
    if (n == 0) {
      onepass::detail::launch(detail::store_one<T>, 1, 1, 0, stream, out, init);
      return;
    }
    const index_t blocks = blocks_for<T, Op>(n);
    T* partials = static_cast<T*>(ws.data);
    void* args[] = {&in, &n, &partials, &init, &out, &op};
    ONEPASS_CUDA_TRY(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(detail::cooperative_reduce_kernel<T, Op>),
                                                 dim3(static_cast<unsigned>(blocks)), dim3(detail::cooperative_threads),
                                                 args, 0, stream));
  }

 private:
  template <class T, class Op>
  static index_t blocks_for(index_t n) {
    const index_t most = onepass::detail::resident_blocks<detail::cooperative_reduce_kernel<T, Op>>(
        detail::cooperative_threads, 0);
    const index_t by_size = (n + detail::cooperative_threads - 1) / detail::cooperative_threads;
    return by_size < most ? by_size : most;
  }
};

}  // namespace onepass::ladder
