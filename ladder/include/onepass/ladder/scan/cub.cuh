// onepass/ladder/scan/cub.cuh — cub::DeviceScan from the CUDA toolkit, the peer every
// rung is compared with, id "cub".
#pragma once

#include <cub/device/device_scan.cuh>

#include "onepass/ladder/cub_operator.cuh"
#include "onepass/ladder/scan/common.cuh"

namespace onepass::ladder {

struct cub_scan {
  static constexpr const char* id = "cub";
  static constexpr const char* summary = "cub::DeviceScan (CUDA toolkit), the peer";
  static constexpr index_t max_items = no_limit;
  static constexpr double passes = 1.0;

  // CUB's scratch depends on its tuning, which may depend on the operator, so the query
  // takes the operator; both kinds are asked and the larger answer is used. The query
  // needs the CUDA runtime (CUB reads the device's architecture).
  template <class T, class Op = plus>
  static std::size_t workspace_bytes(index_t n) {
    if (n <= 0) return 0;
    const auto op = detail::cub_operator<Op>::from(Op{});
    std::size_t inclusive = 0, exclusive = 0;
    detail::with_cub_count(n, [&](auto count) {
      ONEPASS_CUDA_TRY(cub::DeviceScan::InclusiveScan(nullptr, inclusive, static_cast<const T*>(nullptr),
                                                      static_cast<T*>(nullptr), op, count));
      ONEPASS_CUDA_TRY(cub::DeviceScan::ExclusiveScan(nullptr, exclusive, static_cast<const T*>(nullptr),
                                                      static_cast<T*>(nullptr), op, T{}, count));
    });
    return inclusive > exclusive ? inclusive : exclusive;
  }

  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, scan_kind kind, T init, Op op,
                            workspace ws, cudaStream_t stream) {
    std::size_t bytes = ws.bytes;
    const auto cub_op = detail::cub_operator<Op>::from(op);
    detail::with_cub_count(n, [&](auto count) {
      if (kind == scan_kind::inclusive) {
        ONEPASS_CUDA_TRY(cub::DeviceScan::InclusiveScan(ws.data, bytes, in, out, cub_op, count, stream));
      } else {
        ONEPASS_CUDA_TRY(cub::DeviceScan::ExclusiveScan(ws.data, bytes, in, out, cub_op, init, count, stream));
      }
    });
  }
};

}  // namespace onepass::ladder
