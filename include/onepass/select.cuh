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
//
// pred is called on the device as pred(item) or, when it takes two arguments, as
//   pred(item, i) with i the item's index in in[0, n) (index_t): "keep every third item"
//   is [] __device__ (const T&, onepass::index_t i) { return i % 3 == 0; }.
// count_out: one index_t (64-bit) in device or managed memory, written by the GPU; the
//   call never synchronises the host. The *_to_host conveniences below wait for the
//   count and return it.
// out must hold as many items as are kept (n is always enough); out_rejected as many as
//   are rejected. Items: any trivially copyable type; 4-, 8- and 16-byte types move with
//   128-bit accesses when the pointers are 16-byte aligned.
// In place: select_if, select_flagged and unique accept out == in (and only exactly
//   equal; a partial overlap is refused). partition's three ranges must not overlap.
// n: 64-bit; n == 0 writes *count_out = 0 and nothing else.
//
// Two call styles, as for scan and reduce:
//   simple:    allocates its scratch with cudaMallocAsync on `stream` and frees it the
//              same way. Asynchronous; never synchronises.
//   workspace: select_workspace_bytes<T>(n) first (the same size for all four calls),
//              then pass a onepass::workspace of at least that many bytes (16-byte
//              aligned). Never allocates or synchronises; safe inside CUDA-graph capture.
// Errors: onepass::invalid_argument (naming the argument) before anything is enqueued;
//         onepass::cuda_error when the runtime reports a failure.
#pragma once

#include "onepass/device/dispatch_select.cuh"

namespace onepass {

template <class T>
std::size_t select_workspace_bytes(index_t n) {
  detail::check_count(n);
  return detail::select_plan<T>::workspace_bytes(n);
}

// --- workspace style ---
template <class T, class Pred>
void select_if(const T* in, index_t n, T* out, index_t* count_out, Pred pred, workspace ws, cudaStream_t stream) {
  detail::select_dispatch(detail::select_if_job<T, Pred>{in, pred}, n, out, nullptr, count_out, &ws, stream);
}

template <class T, class Flag>
void select_flagged(const T* in, const Flag* flags, index_t n, T* out, index_t* count_out, workspace ws,
                    cudaStream_t stream) {
  detail::select_dispatch(detail::select_flagged_job<T, Flag>{in, flags}, n, out, nullptr, count_out, &ws, stream);
}

template <class T, class Eq>
void unique(const T* in, index_t n, T* out, index_t* count_out, Eq eq, workspace ws, cudaStream_t stream) {
  detail::select_dispatch(detail::unique_job<T, Eq>{in, eq}, n, out, nullptr, count_out, &ws, stream);
}

template <class T, class Pred>
void partition(const T* in, index_t n, T* out_selected, T* out_rejected, index_t* count_out, Pred pred,
               workspace ws, cudaStream_t stream) {
  detail::check_partition_rejected(out_rejected, n);
  detail::select_dispatch(detail::select_if_job<T, Pred>{in, pred}, n, out_selected, out_rejected, count_out, &ws,
                          stream);
}

// --- simple style ---
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

// --- conveniences: the count, on the host (synchronises `stream`) ---
// Every argument is checked before anything is allocated; the count and the workspace
// share one stream-ordered allocation, freed before returning.
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
