// onepass/rms_norm.cuh — fused RMSNorm over the rows of a row-major matrix.
//
//   onepass::rms_norm(x, weight, y, rows, width, eps[, stream])
//       y[r, j] = x[r, j] * rsqrt(mean_j(x[r, :]^2) + eps) * weight[j]
//
// T:      float or __nv_bfloat16 (<cuda_bf16.h>); the sum of squares and the scaling are
//         computed in float whatever T is, and y is rounded to T once, at the end.
// x, y:   rows x width items, row-major and contiguous; weight: width items.
//         y == x (in place) is allowed; any other overlap of y with x or with weight is an
//         error. Pointers: device or managed memory, aligned to T. 16-byte aligned
//         pointers and a width that is a multiple of 16 / sizeof(T) get 128-bit accesses;
//         anything else works, more slowly.
// rows:   64-bit; 0 is allowed (nothing happens). width: >= 1 when rows > 0, any size
//         (up to 16384 a row stays in registers: one read of x, one write of y; wider
//         rows read x twice). eps: finite and >= 0 (with eps == 0 an all-zero row gives
//         NaN, as the formula does).
// Needs no scratch memory, so there is one call style: it never allocates, never
// synchronises, and is safe inside CUDA-graph capture. One kernel launch on `stream`.
// Errors: onepass::invalid_argument (naming the argument) before anything is enqueued;
//         onepass::cuda_error when the runtime reports a failure.
// Accuracy: within a few float ulps of the exact result for float (the rounding of the
// float sum of squares, rsqrtf's 2 ulp and two multiplies); for bfloat16 the final
// rounding to bfloat16 (2^-8 relative) dominates. Run to run, results are bitwise
// identical (the reduction order is fixed).
#pragma once

#include <cuda_bf16.h>

#include "onepass/device/dispatch_rms_norm.cuh"

namespace onepass {

template <class T>
void rms_norm(const T* x, const T* weight, T* y, index_t rows, index_t width, float eps,
              cudaStream_t stream = nullptr) {
  static_assert(detail::is_rms_norm_type<T>, "onepass::rms_norm supports float and __nv_bfloat16");
  detail::rms_norm_dispatch(x, weight, y, rows, width, eps, stream);
}

}  // namespace onepass
