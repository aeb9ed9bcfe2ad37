// onepass/reduce.cuh — device-wide reduction.
//
//   onepass::reduce(in, n, out, init[, op][, stream])     *out = init op in[0] op ... op in[n-1]
//   onepass::reduce_to_host(in, n, init[, op][, stream])  the same value, returned (synchronises)
//   and the workspace overload reduce(in, n, out, init, op, ws, stream), sized by
//   reduce_workspace_bytes<T>(n).
//
// Contract of every call in this file:
//   Parameters:   op: any associative functor callable on the device; it need not be
//                 commutative (the result is combined in element order). For a
//                 commutative op — onepass::plus, maximum, minimum, or yours with
//                 onepass::is_commutative specialised — a faster order is used. init is
//                 combined once, first; pass op's identity (0 for a sum, the lowest value
//                 for a maximum) to get the plain reduction. n == 0 gives init. T: int32,
//                 uint32, int64, uint64, float, double, or any trivially copyable type
//                 that op understands. n: 64-bit. in: n items, device or managed memory,
//                 aligned to T. out: one T in device or managed memory, aligned to T,
//                 outside the input; written even when n == 0. stream: the stream the
//                 work is ordered on (default: the legacy default stream).
//   Errors:       onepass::invalid_argument names the argument and is thrown before
//                 anything is enqueued (nothing written, nothing allocated): "n"
//                 (negative), "in" (null while n > 0, not aligned to T, or host memory),
//                 "out" (null, not aligned, host memory, or inside the input), "workspace"
//                 (below). onepass::cuda_error when a CUDA runtime call fails (an
//                 allocation, a launch, a sticky error left by earlier work); work enqueued
//                 before the failure is not undone.
//   Determinism:  no atomics and no dependence on timing: the order of combination is
//                 fixed by n, the input's 16-byte alignment and the GPU model (the grid
//                 follows its SM count), so float results are bitwise identical from run
//                 to run on the same GPU (determinism::run_to_run is this path). With
//                 determinism::gpu_to_gpu (the overloads that take a determinism after
//                 op), non-integer items are combined in an order fixed by n and T alone:
//                 a grid from n, never capped by the GPU, and scalar loads at every
//                 alignment, so the same bits on every supported GPU. Integers are exact
//                 on every path.
//   Stream order: reduce enqueues its work on `stream` and returns without waiting for it;
//                 no host synchronisation. *out is ready once the stream has run it; in
//                 must stay unchanged until then. reduce_to_host is the exception: it
//                 waits for `stream` (cudaStreamSynchronize) before returning the value.
//   Call styles:  simple: allocates its scratch (when n needs any) with cudaMallocAsync on
//                 `stream` and frees it the same way. workspace: never allocates; safe
//                 inside CUDA-graph capture. reduce_to_host allocates like the simple style
//                 (one T more for the result).
//   Workspace:    ws = {data, bytes} with bytes >= reduce_workspace_bytes<T>(n), a size that
//                 depends on T and n only, not on the GPU (0 for small n: then any ws, even
//                 {nullptr, 0}, is accepted). Checked: data not null, bytes large enough,
//                 data 16-byte aligned; each failure throws invalid_argument("workspace").
//                 It must be device memory (not checked). Its contents on entry do not
//                 matter (every byte used is written first) and are not preserved. The
//                 enqueued work uses it until it completes: a later call may reuse it once
//                 ordered after this one (the next call on the same stream, for instance),
//                 but two calls that may run at the same time must not share one.
#pragma once

#include "onepass/device/dispatch_reduce.cuh"
#include "onepass/functional.cuh"

namespace onepass {

// reduce_workspace_bytes: the bytes of workspace a reduction of n items of T needs (0 for
// small n). Throws invalid_argument("n") for a negative n. Host only; no CUDA call.
template <class T>
std::size_t reduce_workspace_bytes(index_t n) {
  detail::check_count(n);
  return detail::reduce_plan<T>::workspace_bytes(n);
}

// reduce_workspace_bytes for a call with determinism `d`. Host only; no CUDA call.
template <class T>
std::size_t reduce_workspace_bytes(index_t n, determinism d) {
  detail::check_count(n);
  return detail::reduce_workspace_bytes_for<T>(n, d);
}

// --- workspace style ---
// reduce: *out = init op in[0] op ... op in[n - 1].
//   in, n, out, init, op, stream: see the contract above. ws: this overload's workspace.
//   Throws: invalid_argument naming "n", "in", "out" or "workspace"; cuda_error.
//   Floats: bitwise identical run to run on one GPU model. Stream-ordered, no host
//   synchronisation; workspace contract above.
template <class T, class Op>
void reduce(const T* in, index_t n, T* out, T init, Op op, workspace ws, cudaStream_t stream) {
  detail::reduce_dispatch(in, n, out, init, op, ws, stream);
}

// reduce with a determinism choice (workspace style): as above; ws sized by
// reduce_workspace_bytes<T>(n, d).
template <class T, class Op>
void reduce(const T* in, index_t n, T* out, T init, Op op, determinism d, workspace ws, cudaStream_t stream) {
  detail::reduce_dispatch(in, n, out, init, op, ws, stream, d);
}

// --- simple style ---
// reduce, simple style: as above, with init defaulting to T{}, op to onepass::plus and
// stream to the legacy default stream; scratch (if any) from cudaMallocAsync on `stream`.
// Throws: invalid_argument naming "n", "in" or "out"; cuda_error.
template <class T, class Op = plus>
void reduce(const T* in, index_t n, T* out, T init = T{}, Op op = {}, cudaStream_t stream = nullptr) {
  detail::reduce_allocating(in, n, out, init, op, stream);
}

// reduce with a determinism choice (simple style), e.g.
//   onepass::reduce(d_x, n, d_sum, 0.0f, onepass::plus{}, onepass::determinism::gpu_to_gpu);
template <class T, class Op>
void reduce(const T* in, index_t n, T* out, T init, Op op, determinism d, cudaStream_t stream = nullptr) {
  detail::reduce_allocating(in, n, out, init, op, stream, d);
}

// --- the value on the host ---
// reduce_to_host: returns init op in[0] op ... op in[n - 1] to the host.
//   in, n, init, op, stream: as for reduce (init defaults to T{}, op to onepass::plus).
//   Throws: invalid_argument naming "n" or "in"; cuda_error.
//   Floats: as reduce. Synchronises: waits for `stream`, so everything enqueued on it
//   before the call completes too. Allocates its scratch and the result with
//   cudaMallocAsync on `stream`, freed before it returns.
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
