// onepass/ladder/reduce/cub.cuh — cub::DeviceReduce from the CUDA toolkit, the peer, id "cub".
#pragma once

#include <cub/device/device_reduce.cuh>

#include "onepass/ladder/cub_operator.cuh"
#include "onepass/ladder/reduce/common.cuh"

namespace onepass::ladder {

struct cub_reduce {
  static constexpr const char* id = "cub";
  static constexpr const char* summary = "cub::DeviceReduce::Reduce (CUDA toolkit), the peer";
  // CUB's documentation: DeviceReduce does not support non-commutative operators.
  static constexpr bool commutative_only = true;
  static constexpr bool deterministic = true;

  template <class T, class Op = plus>
  static std::size_t workspace_bytes(index_t n) {
    std::size_t bytes = 0;
    detail::with_cub_count(n, [&](auto count) {
      ONEPASS_CUDA_TRY(cub::DeviceReduce::Reduce(nullptr, bytes, static_cast<const T*>(nullptr),
                                                 static_cast<T*>(nullptr), count,
                                                 detail::cub_operator<Op>::from(Op{}), T{}));
    });
    return bytes;
  }

  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, T init, Op op, workspace ws, cudaStream_t stream) {
    std::size_t bytes = ws.bytes;
    detail::with_cub_count(n, [&](auto count) {
      ONEPASS_CUDA_TRY(cub::DeviceReduce::Reduce(ws.data, bytes, in, out, count,
                                                 detail::cub_operator<Op>::from(op), init, stream));
    });
  }
};

}  // namespace onepass::ladder
