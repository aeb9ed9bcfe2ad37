// onepass/select.cuh — stream compaction: select, unique, partition, in one pass.
//
//   onepass::select_if(in, n, out, count_out, pred[, ws], stream)
//       out[0, k) = the items of in[0, n) for which pred holds, in order; *count_out = k
//   onepass::select_flagged(in, flags, n, out, count_out[, ws], stream)
//       the same, keeping in[i] where flags[i] converts to true
//   onepass::unique(in, n, out, count_out[, eq[, ws]][, stream])
//       drops every item equal (eq, default onepass::equal_to) to the one before it:
//       the first of each run of consecutive equal items is kept
//   onepass::partition(in, n, out_selected, out_rejected, count_out, pred[, ws], stream)
//       out_selected[0, k) = the items where pred holds, out_rejected[0, n - k) the others,
//       both in input order (stable); *count_out = k
//   and the *_to_host conveniences, which return k (and synchronise). The workspace
//   overloads are sized by select_workspace_bytes<T>(n), the same for all four calls.
//
// Contract of every call in this file:
//   Parameters:   in: n items of T, device or managed memory, aligned to T; T any trivially
//                 copyable type (4-, 8- and 16-byte types move with 128-bit accesses when
//                 the pointers are 16-byte aligned). n: 64-bit; n == 0 writes
//                 *count_out = 0 and nothing else; more than 2^31 - 1 tiles' worth is
//                 refused. out (out_selected, out_rejected): device or managed memory,
//                 aligned to T, room for every item that may land there (n is always
//                 enough). In place: select_if, select_flagged and unique accept out == in
//                 (and only exactly equal; a partial overlap is refused); partition's
//                 three ranges must not overlap. count_out: one index_t (64-bit) in device
//                 or managed memory, written by the GPU. pred is called on the device as
//                 pred(item) or, when it takes two arguments, as pred(item, i) with i the
//                 item's index in in[0, n) (index_t): "keep every third item" is
//                 [] __device__ (const T&, onepass::index_t i) { return i % 3 == 0; }.
//                 stream: the stream the work is ordered on (the simple style defaults to
//                 the legacy default stream).
//   Errors:       onepass::invalid_argument names the argument and is thrown before
//                 anything is enqueued (nothing written, nothing allocated): "n"
//                 (negative, or too large), "in" / "out" / "out_selected" /
//                 "out_rejected" / "flags" (null while n > 0, not aligned, host memory, or
//                 an overlap the call refuses), "count_out" (null, not aligned, host
//                 memory), "workspace" (below). onepass::cuda_error when a CUDA runtime
//                 call fails (an allocation, a launch, a sticky error left by earlier
//                 work); work enqueued before the failure is not undone.
//   Determinism:  items are moved, never combined: the outputs and the count are the same
//                 every run.
//   Stream order: the work is enqueued on `stream` and the call returns without waiting
//                 for it; no host synchronisation, and *count_out is written by the GPU:
//                 read it after the stream has run the call. in (and flags) must stay
//                 unchanged until then. The *_to_host conveniences are the exception: they
//                 wait for `stream` and return the count.
//   Call styles:  simple: allocates its scratch with cudaMallocAsync on `stream` and frees
//                 it the same way. workspace: never allocates; safe inside CUDA-graph
//                 capture. The *_to_host calls allocate like the simple style (16 bytes
//                 more for the count).
//   Workspace:    ws = {data, bytes} with bytes >= select_workspace_bytes<T>(n), a size
//                 that depends on T and n only, not on the call or the GPU (0 for n == 0:
//                 then any ws, even {nullptr, 0}, is accepted). Checked: data not null,
//                 bytes large enough, data 16-byte aligned; each failure throws
//                 invalid_argument("workspace"). It must be device memory (not checked).
//                 Its contents on entry do not matter (the call clears what it uses) and
//                 are not preserved. The enqueued work uses it until it completes: a later
//                 call may reuse it once ordered after this one (the next call on the same
//                 stream, for instance), but two calls that may run at the same time must
//                 not share one.
#pragma once

#include "onepass/device/dispatch_select.cuh"

namespace onepass {

// select_workspace_bytes: the bytes of workspace select_if, select_flagged, unique or
// partition of n items of T needs (one size serves all four; 0 for n == 0). Throws
// invalid_argument("n") for a negative n. Host only; no CUDA call.
template <class T>
std::size_t select_workspace_bytes(index_t n) {
  detail::check_count(n);
  return detail::select_plan<T>::workspace_bytes(n);
}

// --- workspace style ---
// select_if: out[0, k) = the items of in[0, n) for which pred holds, in input order;
// *count_out = k.
//   pred: pred(item) or pred(item, i), callable on the device. in, n, out, count_out,
//   stream: see the contract above (out == in allowed). ws: this overload's workspace.
//   Throws: invalid_argument naming "n", "in", "out", "count_out" or "workspace";
//   cuda_error.
//   Stream-ordered, no host synchronisation; the same result every run; workspace
//   contract above.
template <class T, class Pred>
void select_if(const T* in, index_t n, T* out, index_t* count_out, Pred pred, workspace ws, cudaStream_t stream) {
  detail::select_dispatch(detail::select_if_job<T, Pred>{in, pred}, n, out, nullptr, count_out, &ws, stream);
}

// select_flagged: out[0, k) = the items in[i] whose flags[i] converts to true, in input
// order; *count_out = k.
//   flags: n Flags in device or managed memory, aligned to Flag. in, n, out, count_out,
//   stream: see the contract above (out == in allowed). ws: this overload's workspace.
//   Throws: invalid_argument naming "n", "in", "out", "flags", "count_out" or
//   "workspace"; cuda_error.
//   Stream-ordered, no host synchronisation; the same result every run; workspace
//   contract above.
template <class T, class Flag>
void select_flagged(const T* in, const Flag* flags, index_t n, T* out, index_t* count_out, workspace ws,
                    cudaStream_t stream) {
  detail::select_dispatch(detail::select_flagged_job<T, Flag>{in, flags}, n, out, nullptr, count_out, &ws, stream);
}

// unique: out[0, k) = the first item of each run of consecutive items equal under eq, in
// input order; *count_out = k.
//   eq: eq(a, b) callable on the device (onepass::equal_to where not given). in, n, out,
//   count_out, stream: see the contract above (out == in allowed). ws: this overload's
//   workspace.
//   Throws: invalid_argument naming "n", "in", "out", "count_out" or "workspace";
//   cuda_error.
//   Stream-ordered, no host synchronisation; the same result every run; workspace
//   contract above.
template <class T, class Eq>
void unique(const T* in, index_t n, T* out, index_t* count_out, Eq eq, workspace ws, cudaStream_t stream) {
  detail::select_dispatch(detail::unique_job<T, Eq>{in, eq}, n, out, nullptr, count_out, &ws, stream);
}

// partition: out_selected[0, k) = the items for which pred holds, out_rejected[0, n - k)
// the others, both in input order (stable); *count_out = k.
//   pred: as for select_if. out_selected, out_rejected: n items of room each, neither
//   overlapping in nor each other. in, n, count_out, stream: see the contract above.
//   ws: this overload's workspace.
//   Throws: invalid_argument naming "n", "in", "out_selected", "out_rejected",
//   "count_out" or "workspace"; cuda_error.
//   Stream-ordered, no host synchronisation; the same result every run; workspace
//   contract above.
template <class T, class Pred>
void partition(const T* in, index_t n, T* out_selected, T* out_rejected, index_t* count_out, Pred pred,
               workspace ws, cudaStream_t stream) {
  detail::check_partition_rejected(out_rejected, n);
  detail::select_dispatch(detail::select_if_job<T, Pred>{in, pred}, n, out_selected, out_rejected, count_out, &ws,
                          stream);
}

// --- simple style ---
// The simple style of each call: as above, without ws; scratch from cudaMallocAsync on
// `stream`, freed the same way; stream defaults to the legacy default stream. Throws as
// above, without "workspace".
template <class T, class Pred>
void select_if(const T* in, index_t n, T* out, index_t* count_out, Pred pred, cudaStream_t stream = nullptr) {
  detail::select_dispatch(detail::select_if_job<T, Pred>{in, pred}, n, out, nullptr, count_out, nullptr, stream);
}

template <class T, class Flag>
void select_flagged(const T* in, const Flag* flags, index_t n, T* out, index_t* count_out,
                    cudaStream_t stream = nullptr) {
  detail::select_dispatch(detail::select_flagged_job<T, Flag>{in, flags}, n, out, nullptr, count_out, nullptr,
                          stream);
}

// (Without an eq: unique(in, n, out, count_out, stream) compares with equal_to.)
template <class T>
void unique(const T* in, index_t n, T* out, index_t* count_out, cudaStream_t stream = nullptr) {
  detail::select_dispatch(detail::unique_job<T, equal_to>{in, equal_to{}}, n, out, nullptr, count_out, nullptr, stream);
}

template <class T, class Eq>
void unique(const T* in, index_t n, T* out, index_t* count_out, Eq eq, cudaStream_t stream = nullptr) {
  detail::select_dispatch(detail::unique_job<T, Eq>{in, eq}, n, out, nullptr, count_out, nullptr, stream);
}

template <class T, class Pred>
void partition(const T* in, index_t n, T* out_selected, T* out_rejected, index_t* count_out, Pred pred,
               cudaStream_t stream = nullptr) {
  detail::check_partition_rejected(out_rejected, n);
  detail::select_dispatch(detail::select_if_job<T, Pred>{in, pred}, n, out_selected, out_rejected, count_out,
                          nullptr, stream);
}

// --- conveniences: the count, on the host ---
// select_if_to_host, select_flagged_to_host, unique_to_host, partition_to_host: the call
// of the same name, returning k instead of writing *count_out.
//   Parameters as the call of the same name, without count_out and ws (unique_to_host's
//   eq defaults to onepass::equal_to); stream defaults to the legacy default stream.
//   Throws: invalid_argument naming the same arguments (no "count_out", no
//   "workspace"), every one checked before anything is allocated; cuda_error.
//   Synchronises: waits for `stream` (so everything enqueued on it before completes
//   too). The count and the workspace share one cudaMallocAsync allocation on `stream`,
//   freed before the call returns. The same result every run.
template <class T, class Pred>
index_t select_if_to_host(const T* in, index_t n, T* out, Pred pred, cudaStream_t stream = nullptr) {
  return detail::select_to_host(detail::select_if_job<T, Pred>{in, pred}, n, out, static_cast<T*>(nullptr), stream);
}

template <class T, class Flag>
index_t select_flagged_to_host(const T* in, const Flag* flags, index_t n, T* out, cudaStream_t stream = nullptr) {
  return detail::select_to_host(detail::select_flagged_job<T, Flag>{in, flags}, n, out, static_cast<T*>(nullptr),
                                stream);
}

template <class T, class Eq = equal_to>
index_t unique_to_host(const T* in, index_t n, T* out, Eq eq = {}, cudaStream_t stream = nullptr) {
  return detail::select_to_host(detail::unique_job<T, Eq>{in, eq}, n, out, static_cast<T*>(nullptr), stream);
}

template <class T, class Pred>
index_t partition_to_host(const T* in, index_t n, T* out_selected, T* out_rejected, Pred pred,
                          cudaStream_t stream = nullptr) {
  detail::check_partition_rejected(out_rejected, n);
  return detail::select_to_host(detail::select_if_job<T, Pred>{in, pred}, n, out_selected, out_rejected, stream);
}

}  // namespace onepass
