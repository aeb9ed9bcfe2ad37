// onepass/rms_norm.cuh — fused RMSNorm over the rows of a row-major matrix.
//
//   onepass::rms_norm(x, weight, y, rows, width, eps[, stream])
//       y[r, j] = x[r, j] * rsqrt(mean_j(x[r, :]^2) + eps) * weight[j]
//
// Contract of the call in this file:
//   Parameters:   T: float or __nv_bfloat16 (<cuda_bf16.h>; checked at compile time); the
//                 sum of squares and the scaling are computed in float whatever T is, and
//                 y is rounded to T once, at the end. x, y: rows x width items, row-major
//                 and contiguous; weight: width items. y == x (in place) is allowed; any
//                 other overlap of y with x or with weight is an error. Pointers: device or
//                 managed memory, aligned to T. 16-byte aligned pointers and a width that is
//                 a multiple of 16 / sizeof(T) get 128-bit accesses; anything else works,
//                 more slowly. rows: 64-bit; 0 is allowed (nothing happens). width: >= 1
//                 when rows > 0, any size (up to 16384 a row stays in registers: one read
//                 of x, one write of y; wider rows read x twice); rows * width * sizeof(T)
//                 must fit a 64-bit byte count. eps: finite and >= 0 (with eps == 0 an
//                 all-zero row gives NaN, as the formula does). stream: the stream the work
//                 is ordered on (default: the legacy default stream).
//   Errors:       onepass::invalid_argument names the argument and is thrown before
//                 anything is enqueued (nothing written): "rows" (negative, or rows x width
//                 too large), "width" (negative, or 0 while rows > 0), "eps", "x" /
//                 "weight" / "y" (null, not aligned to T, or host memory), "y" (an overlap
//                 with x other than y == x, or with weight). onepass::cuda_error when a CUDA
//                 runtime call fails (the launch, a sticky error left by earlier work).
//   Determinism:  run to run, results are bitwise identical: each row's reduction order
//                 is fixed by the width and the pointers' alignment, with no atomics.
//   Accuracy:     within a few float ulps of the exact result for float (the rounding of
//                 the float sum of squares, rsqrtf's 2 ulp and two multiplies); for
//                 bfloat16 the final rounding to bfloat16 (2^-8 relative) dominates.
//   Stream order: one kernel launch on `stream`; the call returns without waiting for it
//                 (no host synchronisation). y is ready once the stream has run it; x and
//                 weight must stay unchanged until then.
//   Call styles:  one: it needs no scratch memory, so it never allocates and is safe
//                 inside CUDA-graph capture.
//   Workspace:    none.
#pragma once

#include <cuda_bf16.h>

#include "onepass/device/dispatch_rms_norm.cuh"

namespace onepass {

// rms_norm: y[r, j] = x[r, j] * rsqrt(mean_j(x[r, :]^2) + eps) * weight[j] for every row r
// of rows and column j of width.
//   x, weight, y, rows, width, eps, stream: see the contract above.
//   Throws: invalid_argument naming "rows", "width", "eps", "x", "weight" or "y";
//   cuda_error.
//   Bitwise identical run to run. Stream-ordered, no host synchronisation; no workspace.
template <class T>
void rms_norm(const T* x, const T* weight, T* y, index_t rows, index_t width, float eps,
              cudaStream_t stream = nullptr) {
  static_assert(detail::is_rms_norm_type<T>, "onepass::rms_norm supports float and __nv_bfloat16");
  detail::rms_norm_dispatch(x, weight, y, rows, width, eps, stream);
}

}  // namespace onepass
