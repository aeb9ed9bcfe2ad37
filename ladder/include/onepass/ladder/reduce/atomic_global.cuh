// onepass/ladder/reduce/atomic_global.cuh — id "atomic_global": one global atomic per item.
//
// The first idea: every thread adds its items straight into the result. Correct for a
// commutative op, and as slow as the memory system's atomic unit on one address allows:
// every update of the same word is serialised at L2, whatever the number of SMs.
// The order of the updates depends on timing: floats differ from run to run.
#pragma once

#include "onepass/detail/atomic.cuh"
#include "onepass/ladder/reduce/common.cuh"

namespace onepass::ladder {
namespace detail {
template <class T, class Op>
__global__ void atomic_global_kernel(const T* in, index_t n, T* out, Op op) {
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    onepass::detail::atomic_combine(out, in[i], op);
}
}  // namespace detail

struct atomic_global : needs_no_workspace {
  static constexpr const char* id = "atomic_global";
  static constexpr const char* summary = "one global atomic per item into the result";
  static constexpr bool commutative_only = true;
  static constexpr bool deterministic = false;
  static constexpr int threads = 256;

  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, T init, Op op, workspace, cudaStream_t stream) {
    detail::launch_combining_into_out<threads>(detail::atomic_global_kernel<T, Op>, in, n, out, init, op, 65536,
                                               stream);
  }
};

}  // namespace onepass::ladder
