// onepass/reduce.cuh — device-wide reduction.
//
//   onepass::reduce(in, n, out, init[, op][, stream])     *out = init op in[0] op ... op in[n-1]
//   onepass::reduce_to_host(in, n, init[, op][, stream])  the same value, returned (synchronises)
//
// op: any associative functor callable on the device; it need not be commutative (the
//     result is combined in element order). For a commutative op — onepass::plus,
//     maximum, minimum, or yours with onepass::is_commutative specialised — a faster
//     order is used. init is combined once, first; pass op's identity (0 for a sum, the
//     lowest value for a maximum) to get the plain reduction. n == 0 gives init.
// T:  int32, uint32, int64, uint64, float, double, or any trivially copyable type that op
//     understands.
// n:  64-bit. Pointers: device or managed memory, aligned to T; `out` is one T outside
//     the input.
// Reproducible: no atomics; the order of combination depends only on n and the GPU model,
//     so float results are bitwise identical from run to run on the same GPU.
//
// Two call styles, as for scan:
//   simple:    allocates its scratch (when n needs any) with cudaMallocAsync on `stream`
//              and frees it the same way. Asynchronous; never synchronises.
//   workspace: reduce_workspace_bytes<T>(n) first (0 for small n), then pass a
//              onepass::workspace of at least that many bytes (16-byte aligned). Never
//              allocates or synchronises; safe inside CUDA-graph capture.
// reduce_to_host is for convenience: it allocates like the simple style and waits for
// the stream to finish before returning the value.
// Errors: onepass::invalid_argument (naming the argument) before anything is enqueued;
//         onepass::cuda_error when the runtime reports a failure.
#pragma once

#include "onepass/device/dispatch_reduce.cuh"
#include "onepass/functional.cuh"

namespace onepass {

// Bytes of workspace a reduction of n items of T needs.
template <class T>
std::size_t reduce_workspace_bytes(index_t n) {
  detail::check_count(n);
  return detail::reduce_plan<T>::workspace_bytes(n);
}

// --- workspace style ---
template <class T, class Op>
void reduce(const T* in, index_t n, T* out, T init, Op op, workspace ws, cudaStream_t stream) {
  detail::reduce_dispatch(in, n, out, init, op, ws, stream);
}

// --- simple style ---
template <class T, class Op = plus>
void reduce(const T* in, index_t n, T* out, T init = T{}, Op op = {}, cudaStream_t stream = nullptr) {
  detail::reduce_allocating(in, n, out, init, op, stream);
}

// --- the value on the host (synchronises `stream`) ---
template <class T, class Op = plus>
T reduce_to_host(const T* in, index_t n, T init = T{}, Op op = {}, cudaStream_t stream = nullptr) {
  detail::check_count(n);
  detail::check_pointer(in, n, "in");
  detail::check_device_accessible(in, n, "in");
  T* result = nullptr;
  ONEPASS_CUDA_TRY(cudaMallocAsync(&result, sizeof(T), stream));
  T value{};
  try {
    detail::reduce_allocating(in, n, result, init, op, stream);
    ONEPASS_CUDA_TRY(cudaMemcpyAsync(&value, result, sizeof(T), cudaMemcpyDeviceToHost, stream));
    ONEPASS_CUDA_TRY(cudaFreeAsync(result, stream));
    result = nullptr;
    ONEPASS_CUDA_TRY(cudaStreamSynchronize(stream));
  } catch (...) {
    if (result) (void)cudaFreeAsync(result, stream);
    throw;
  }
  return value;
}

}  // namespace onepass
