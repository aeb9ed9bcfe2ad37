// onepass/ladder/reduce/production.cuh — the production reduce (onepass::reduce, workspace
// style) as the ladder's top rung, id "onepass".
#pragma once

#include "onepass/ladder/reduce/common.cuh"

namespace onepass::ladder {

struct reduce_production {
  static constexpr const char* id = "onepass";
  static constexpr const char* summary =
      "production: warp-contiguous 128-bit streams, in-order combine, programmatic second launch";
  static constexpr bool commutative_only = false;
  static constexpr bool deterministic = true;

  template <class T, class Op = plus>
  static std::size_t workspace_bytes(index_t n) {
    return onepass::detail::reduce_plan<T>::workspace_bytes(n);
  }

  // run_reduce has checked everything: launch without checking again.
  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, T init, Op op, workspace ws, cudaStream_t stream) {
    onepass::detail::reduce_launch(in, n, out, init, op, ws, stream);
  }
};

}  // namespace onepass::ladder
