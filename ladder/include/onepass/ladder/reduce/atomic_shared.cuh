// onepass/ladder/reduce/atomic_shared.cuh — id "atomic_shared": shared-memory atomics per
// block, then one global atomic per block.
//
// Privatisation: each block accumulates into one word of its own shared memory, so the
// contended updates happen in the SM instead of at L2, and only one update per block
// reaches the global result. Every item is still one atomic on one shared word, which
// serialises the block's threads. The block's word starts as its first item, so no
// identity element is needed. Timing-dependent order: floats differ from run to run.
#pragma once

#include "onepass/detail/atomic.cuh"
#include "onepass/ladder/reduce/common.cuh"

namespace onepass::ladder {
namespace detail {
template <class T, class Op, int Threads>
__global__ void __launch_bounds__(Threads) atomic_shared_kernel(const T* in, index_t n, T* out, Op op) {
  __shared__ T block_value;
  const index_t first = static_cast<index_t>(blockIdx.x) * Threads;  // < n: grid <= ceil(n / Threads)
  const index_t stride = static_cast<index_t>(gridDim.x) * Threads;
  if (threadIdx.x == 0) block_value = in[first];
  __syncthreads();
  for (index_t i = first + threadIdx.x; i < n; i += stride)
    if (i != first) onepass::detail::atomic_combine(&block_value, in[i], op);
  __syncthreads();
  if (threadIdx.x == 0) onepass::detail::atomic_combine(out, block_value, op);
}
}  // namespace detail

struct atomic_shared : needs_no_workspace {
  static constexpr const char* id = "atomic_shared";
  static constexpr const char* summary = "shared-memory atomics per block, one global atomic per block";
  static constexpr bool commutative_only = true;
  static constexpr bool deterministic = false;
  static constexpr int threads = 256;

  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, T init, Op op, workspace, cudaStream_t stream) {
    detail::launch_combining_into_out<threads>(detail::atomic_shared_kernel<T, Op, threads>, in, n, out, init, op,
                                               4096, stream);
  }
};

}  // namespace onepass::ladder
