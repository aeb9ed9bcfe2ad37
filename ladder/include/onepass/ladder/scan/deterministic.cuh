// onepass/ladder/scan/deterministic.cuh — the production scan in its fixed order
// (onepass::determinism::gpu_to_gpu) beside the top rung, id "deterministic": what the
// same bits on every run and every GPU cost.
#pragma once

#include "onepass/ladder/scan/common.cuh"

namespace onepass::ladder {

struct deterministic {
  static constexpr const char* id = "deterministic";
  static constexpr const char* summary =
      "production in a fixed order: groups of 256 tiles, each tile's prefix from the previous group's "
      "and its group's aggregates, the same bits on every run and GPU";
  static constexpr index_t max_items = no_limit;
  static constexpr double passes = 1.0;

  template <class T, class Op = plus>
  static std::size_t workspace_bytes(index_t n) {
    return onepass::detail::deterministic_scan_plan<T>::workspace_bytes(n);
  }

  // run_scan has checked everything: launch without checking again. Integers too (the
  // public calls give them the fastest path, where every order is exact).
  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, scan_kind kind, T init, Op op, workspace ws,
                            cudaStream_t stream) {
    static_assert(onepass::detail::deterministic_scan_plan<T>::supported,
                  "the fixed order takes items of 1, 2, 4, 8 or 16 bytes");
    if (kind == scan_kind::inclusive) {
      onepass::detail::scan_launch_fixed_order<false>(in, n, out, T{}, op, ws, stream);
    } else {
      onepass::detail::scan_launch_fixed_order<true>(in, n, out, init, op, ws, stream);
    }
  }
};

}  // namespace onepass::ladder
