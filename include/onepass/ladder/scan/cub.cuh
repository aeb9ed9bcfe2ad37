// onepass/ladder/scan/cub.cuh — cub::DeviceScan from the CUDA toolkit, the peer every
// rung is compared with, id "cub".
#pragma once

#include <cub/device/device_scan.cuh>
#include <cuda/functional>
#include <cuda/std/functional>
#include <limits>

#include "onepass/ladder/scan/common.cuh"

namespace onepass::ladder {
namespace detail {
// CUB chooses its tuned policies (tile shape, lookback delay) only when the operator is
// one of CCCL's own functors; with any other functor, onepass::plus included, it falls
// back to a generic policy (docs/perf/scan.md has the measured difference). The peer
// must run as fast as a CUB user's InclusiveSum does, so onepass's operators are handed
// to CUB as their CCCL twins, which compute the same thing.
template <class Op>
struct cub_operator {
  static Op from(Op op) { return op; }
};
template <>
struct cub_operator<plus> {
  static ::cuda::std::plus<> from(plus) { return {}; }
};
template <>
struct cub_operator<maximum> {
  static ::cuda::maximum<> from(maximum) { return {}; }
};
template <>
struct cub_operator<minimum> {
  static ::cuda::minimum<> from(minimum) { return {}; }
};
}  // namespace detail

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
    with_count(n, [&](auto count) {
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
    with_count(n, [&](auto count) {
      if (kind == scan_kind::inclusive) {
        ONEPASS_CUDA_TRY(cub::DeviceScan::InclusiveScan(ws.data, bytes, in, out, cub_op, count, stream));
      } else {
        ONEPASS_CUDA_TRY(cub::DeviceScan::ExclusiveScan(ws.data, bytes, in, out, cub_op, init, count, stream));
      }
    });
  }

 private:
  // A CUB user passes an int count when it fits, and CUB then scans with 32-bit offsets;
  // the peer does the same, and takes the 64-bit path only past 2^31 - 1 items.
  template <class F>
  static void with_count(index_t n, F&& f) {
    if (n <= std::numeric_limits<int>::max()) {
      f(static_cast<int>(n));
    } else {
      f(n);
    }
  }
};

}  // namespace onepass::ladder
