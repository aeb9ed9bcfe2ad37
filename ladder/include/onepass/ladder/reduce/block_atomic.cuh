// onepass/ladder/reduce/block_atomic.cuh — id "block_atomic": each thread folds its items
// in registers, the block combines its threads with warp shuffles and one shared-memory
// step (onepass::block_reduce), and one global atomic per block adds the block's value.
//
// No contention left inside the block; the grid is a few blocks per SM, so the result
// word sees a few hundred atomics in all. Still timing-dependent across blocks: floats
// differ from run to run.
#pragma once

#include "onepass/block/block_reduce.cuh"
#include "onepass/detail/atomic.cuh"
#include "onepass/detail/maybe.cuh"
#include "onepass/ladder/reduce/common.cuh"

namespace onepass::ladder {
namespace detail {
template <class T, class Op, int Threads>
__global__ void __launch_bounds__(Threads) block_atomic_kernel(const T* in, index_t n, T* out, Op op) {
  using onepass::detail::maybe;
  const onepass::detail::maybe_op<Op> mop{op};
  const index_t stride = static_cast<index_t>(gridDim.x) * Threads;
  maybe<T> mine = onepass::detail::nothing<T>();
  for (index_t i = static_cast<index_t>(blockIdx.x) * Threads + threadIdx.x; i < n; i += stride)
    mine = mop(mine, {in[i], true});
  using reduce_t = block_reduce<maybe<T>, Threads>;
  __shared__ typename reduce_t::storage storage;
  const maybe<T> block_value = reduce_t(storage).reduce(mine, mop);
  if (threadIdx.x == 0 && block_value.valid) onepass::detail::atomic_combine(out, block_value.value, op);
}
}  // namespace detail

struct block_atomic : needs_no_workspace {
  static constexpr const char* id = "block_atomic";
  static constexpr const char* summary = "thread folds + block reduction (shuffles), one global atomic per block";
  static constexpr bool commutative_only = true;
  static constexpr bool deterministic = false;
  static constexpr int threads = 256;

  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, T init, Op op, workspace, cudaStream_t stream) {
    // A few blocks per SM: enough loads in flight, few atomics.
    const index_t most = 4 * static_cast<index_t>(onepass::detail::multiprocessor_count());
    detail::launch_combining_into_out<threads>(detail::block_atomic_kernel<T, Op, threads>, in, n, out, init, op, most,
                                               stream);
  }
};

}  // namespace onepass::ladder
