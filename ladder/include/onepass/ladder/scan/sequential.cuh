// onepass/ladder/scan/sequential.cuh — the bottom rung, id "sequential": one thread of
// one block walks the whole array.
//
// The textbook loop, on the GPU: O(n) work, no parallelism at all. Every item costs a
// dependent global-memory round trip that nothing hides, so it runs at a tiny fraction of
// the bandwidth. It is the correctness baseline the other rungs are compared with.
#pragma once

#include "onepass/functional.cuh"
#include "onepass/ladder/scan/common.cuh"

namespace onepass::ladder {

namespace detail {

template <class T, class Op>
__global__ void __launch_bounds__(1)
    sequential_kernel(const T* in, index_t n, T* out, bool exclusive, T init, Op op) {
  // Each item is read before its slot is written, so in == out works.
  if (exclusive) {
    T running = init;
    for (index_t i = 0; i < n; ++i) {
      const T x = in[i];
      out[i] = running;
      running = op(running, x);
    }
  } else {
    T running = in[0];
    out[0] = running;
    for (index_t i = 1; i < n; ++i) {
      running = op(running, in[i]);
      out[i] = running;
    }
  }
}

}  // namespace detail

struct sequential : needs_no_workspace {
  static constexpr const char* id = "sequential";
  static constexpr const char* summary = "one thread of one block walks the array";
  static constexpr index_t max_items = no_limit;
  static constexpr double passes = 1.0;


  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, scan_kind kind, T init, Op op,
                            workspace /*ws*/, cudaStream_t stream) {
    onepass::detail::launch(detail::sequential_kernel<T, Op>, 1, 1, 0, stream, in, n, out,
                            kind == scan_kind::exclusive, init, op);
  }
};

}  // namespace onepass::ladder
