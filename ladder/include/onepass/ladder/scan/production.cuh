// onepass/ladder/scan/production.cuh — the production scan (onepass::inclusive_scan /
// exclusive_scan, workspace style) as the ladder's top rung, id "onepass".
#pragma once

#include "onepass/ladder/scan/common.cuh"

namespace onepass::ladder {

struct production {
  static constexpr const char* id = "onepass";
  static constexpr const char* summary =
      "production: decoupled lookback, warp-parallel, 128-bit vector-striped tiles";
  static constexpr index_t max_items = no_limit;
  static constexpr double passes = 1.0;

  template <class T, class Op = plus>
  static std::size_t workspace_bytes(index_t n) {
    return onepass::detail::scan_plan<T>::workspace_bytes(n);
  }

  // run_scan has checked everything: launch without checking again.
  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, scan_kind kind, T init, Op op,
                            workspace ws, cudaStream_t stream) {
    if (kind == scan_kind::inclusive) {
      onepass::detail::scan_launch<false>(in, n, out, T{}, op, ws, stream);
    } else {
      onepass::detail::scan_launch<true>(in, n, out, init, op, ws, stream);
    }
  }
};

}  // namespace onepass::ladder
