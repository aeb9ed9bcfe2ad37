// onepass/scan.cuh — device-wide inclusive and exclusive scan (prefix sum).
//
//   onepass::inclusive_scan(in, n, out[, op][, stream])          out[i] = in[0] op ... op in[i]
//   onepass::exclusive_scan(in, n, out, init[, op][, stream])    out[i] = init op in[0] op ... op in[i-1]
//
// op: any associative functor callable on the device (need not be commutative);
//     onepass::plus by default, onepass::maximum / minimum, or your own.
// T:  int32, uint32, int64, uint64, float, double, or any trivially copyable type that op
//     understands.
// n:  64-bit; 0 is allowed (nothing happens). in == out (in place) is allowed; any other
//     overlap is an error. Pointers: device or managed memory, aligned to T.
//
// Two call styles:
//   simple:    allocates its scratch with cudaMallocAsync on `stream` and frees it the same
//              way. Asynchronous; never synchronises.
//   workspace: scan_workspace_bytes<T>(n) first, then pass a `onepass::workspace` of at
//              least that many bytes (16-byte aligned). Never allocates or synchronises;
//              safe inside CUDA-graph capture. The workspace may be reused by the next call
//              on the same stream.
// Errors: onepass::invalid_argument (naming the argument) before anything is enqueued;
//         onepass::cuda_error when the runtime reports a failure.
// Float results are not bitwise reproducible between runs (the lookback may fold tile
// aggregates in different groupings); the deterministic scan is a separate option.
#pragma once

#include "onepass/device/dispatch_scan.cuh"
#include "onepass/functional.cuh"

namespace onepass {

// Bytes of workspace an inclusive or exclusive scan of n items of T needs (0 for n == 0).
template <class T>
std::size_t scan_workspace_bytes(index_t n) {
  detail::check_count(n);
  return detail::scan_plan<T>::workspace_bytes(n);
}

// --- workspace style ---
template <class T, class Op>
void inclusive_scan(const T* in, index_t n, T* out, Op op, workspace ws, cudaStream_t stream) {
  detail::scan_dispatch<false>(in, n, out, T{}, op, ws, stream);
}

template <class T, class Op>
void exclusive_scan(const T* in, index_t n, T* out, T init, Op op, workspace ws,
                    cudaStream_t stream) {
  detail::scan_dispatch<true>(in, n, out, init, op, ws, stream);
}

// --- simple style ---
template <class T, class Op = plus>
void inclusive_scan(const T* in, index_t n, T* out, Op op = {}, cudaStream_t stream = nullptr) {
  detail::scan_allocating<false>(in, n, out, T{}, op, stream);
}

template <class T, class Op = plus>
void exclusive_scan(const T* in, index_t n, T* out, T init, Op op = {},
                    cudaStream_t stream = nullptr) {
  detail::scan_allocating<true>(in, n, out, init, op, stream);
}

}  // namespace onepass
