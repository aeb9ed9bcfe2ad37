// onepass/scan.cuh — device-wide inclusive and exclusive scan (prefix sum).
//
//   onepass::inclusive_scan(in, n, out[, op][, stream])          out[i] = in[0] op ... op in[i]
//   onepass::exclusive_scan(in, n, out, init[, op][, stream])    out[i] = init op in[0] op ... op in[i-1]
//   and their workspace overloads (..., op, ws, stream), sized by scan_workspace_bytes<T>(n).
//   Each also with a determinism after op: (in, n, out[, init], op, d[, ws], stream), sized
//   by scan_workspace_bytes<T>(n, d).
//
// Contract of every call in this file:
//   Parameters:   op: any associative functor callable on the device (need not be
//                 commutative); onepass::plus by default, onepass::maximum / minimum, or
//                 your own. T: int32, uint32, int64, uint64, float, double, or any
//                 trivially copyable type that op understands. n: 64-bit; 0 is allowed
//                 (nothing is written); more than 2^31 - 1 tiles' worth is refused. in,
//                 out: n items each, device or managed memory, aligned to T; in == out (in
//                 place) is allowed, any other overlap is refused. stream: the stream the
//                 work is ordered on (default: the legacy default stream).
//   Errors:       onepass::invalid_argument names the argument and is thrown before
//                 anything is enqueued (nothing written, nothing allocated): "n"
//                 (negative, or too large), "in" / "out" (null while n > 0, not aligned to
//                 T, or host memory), "out" (partly overlapping in), "workspace" (below).
//                 onepass::cuda_error when a CUDA runtime call fails (an allocation, a
//                 launch, a sticky error left by earlier work); work enqueued before the
//                 failure is not undone.
//   Determinism:  integer results are exact. Without a determinism argument (or with
//                 determinism::not_guaranteed) float results carry no run-to-run promise:
//                 the lookback folds tile aggregates in groupings that depend on timing, so
//                 the bits may differ between runs (and from a sequential fold). With
//                 determinism::run_to_run or gpu_to_gpu, items that are not integers are
//                 combined in one fixed order that depends on n and T alone (never on the
//                 GPU, its SM count, the tuning or the pointers' alignment): the same bits
//                 on every run and every supported GPU. Both choices run the same path.
//                 It needs items of 1, 2, 4, 8 or 16 bytes (else invalid_argument
//                 "determinism"). The bits may still differ from a sequential fold, and
//                 between not_guaranteed and the fixed order.
//   Stream order: the work is enqueued on `stream` and the call returns without waiting
//                 for it; no host synchronisation. out is ready once the stream has run
//                 it; in must stay unchanged until then.
//   Call styles:  simple: allocates its scratch with cudaMallocAsync on `stream` and frees
//                 it the same way. workspace: never allocates; safe inside CUDA-graph
//                 capture.
//   Workspace:    ws = {data, bytes} with bytes >= scan_workspace_bytes<T>(n), a size that
//                 depends on T and n only, not on the GPU (0 for n == 0: then any ws, even
//                 {nullptr, 0}, is accepted). Checked: data not null, bytes large enough,
//                 data 16-byte aligned; each failure throws invalid_argument("workspace").
//                 It must be device memory (not checked). Its contents on entry do not
//                 matter (the call clears what it uses) and are not preserved. The enqueued
//                 work uses it until it completes: a later call may reuse it once ordered
//                 after this one (the next call on the same stream, for instance), but two
//                 calls that may run at the same time must not share one.
#pragma once

#include "onepass/device/dispatch_scan.cuh"
#include "onepass/functional.cuh"

namespace onepass {

// scan_workspace_bytes: the bytes of workspace an inclusive or exclusive scan of n items
// of T needs (0 for n == 0). Throws invalid_argument("n") for a negative n. Host only; no
// CUDA call.
template <class T>
std::size_t scan_workspace_bytes(index_t n) {
  detail::check_count(n);
  return detail::scan_plan<T>::workspace_bytes(n);
}

// scan_workspace_bytes for a call with determinism `d` (the fixed order's tiles may differ
// from the fastest path's). Host only; no CUDA call.
template <class T>
std::size_t scan_workspace_bytes(index_t n, determinism d) {
  detail::check_count(n);
  return detail::scan_workspace_bytes_for<T>(n, d);
}

// --- workspace style ---
// inclusive_scan: out[i] = in[0] op ... op in[i] for every i in [0, n).
//   in, n, out, op, stream: see the contract above. ws: this overload's workspace.
//   Throws: invalid_argument naming "n", "in", "out" or "workspace"; cuda_error.
//   Floats: no run-to-run promise. Stream-ordered, no host synchronisation; workspace
//   contract above.
template <class T, class Op>
void inclusive_scan(const T* in, index_t n, T* out, Op op, workspace ws, cudaStream_t stream) {
  detail::scan_dispatch<false>(in, n, out, T{}, op, ws, stream);
}

// exclusive_scan: out[i] = init op in[0] op ... op in[i - 1] for every i in [0, n)
// (out[0] = init).
//   init: the first operand of every output; in, n, out, op, stream: see the contract above.
//   ws: this overload's workspace.
//   Throws: invalid_argument naming "n", "in", "out" or "workspace"; cuda_error.
//   Floats: no run-to-run promise. Stream-ordered, no host synchronisation; workspace
//   contract above.
template <class T, class Op>
void exclusive_scan(const T* in, index_t n, T* out, T init, Op op, workspace ws,
                    cudaStream_t stream) {
  detail::scan_dispatch<true>(in, n, out, init, op, ws, stream);
}

// inclusive_scan and exclusive_scan with a determinism choice (workspace style): as above;
// ws sized by scan_workspace_bytes<T>(n, d).
template <class T, class Op>
void inclusive_scan(const T* in, index_t n, T* out, Op op, determinism d, workspace ws, cudaStream_t stream) {
  detail::scan_dispatch<false>(in, n, out, T{}, op, ws, stream, detail::no_delay{}, d);
}
template <class T, class Op>
void exclusive_scan(const T* in, index_t n, T* out, T init, Op op, determinism d, workspace ws,
                    cudaStream_t stream) {
  detail::scan_dispatch<true>(in, n, out, init, op, ws, stream, detail::no_delay{}, d);
}

// --- simple style ---
// inclusive_scan, simple style: as above, with op defaulting to onepass::plus and stream
// to the legacy default stream; scratch from cudaMallocAsync on `stream`. Throws:
// invalid_argument naming "n", "in" or "out"; cuda_error.
template <class T, class Op = plus>
void inclusive_scan(const T* in, index_t n, T* out, Op op = {}, cudaStream_t stream = nullptr) {
  detail::scan_allocating<false>(in, n, out, T{}, op, stream);
}

// exclusive_scan, simple style: as above, with op defaulting to onepass::plus and stream
// to the legacy default stream; scratch from cudaMallocAsync on `stream`. Throws:
// invalid_argument naming "n", "in" or "out"; cuda_error.
template <class T, class Op = plus>
void exclusive_scan(const T* in, index_t n, T* out, T init, Op op = {},
                    cudaStream_t stream = nullptr) {
  detail::scan_allocating<true>(in, n, out, init, op, stream);
}

// inclusive_scan and exclusive_scan with a determinism choice (simple style), e.g.
//   onepass::inclusive_scan(in, n, out, onepass::plus{}, onepass::determinism::gpu_to_gpu);
template <class T, class Op>
void inclusive_scan(const T* in, index_t n, T* out, Op op, determinism d, cudaStream_t stream = nullptr) {
  detail::scan_allocating<false>(in, n, out, T{}, op, stream, d);
}
template <class T, class Op>
void exclusive_scan(const T* in, index_t n, T* out, T init, Op op, determinism d, cudaStream_t stream = nullptr) {
  detail::scan_allocating<true>(in, n, out, init, op, stream, d);
}

}  // namespace onepass
