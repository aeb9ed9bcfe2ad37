// onepass/segmented_scan.cuh — scans that restart at the start of every segment.
//
// Three ways to say where segments start:
//   head flags:  segmented_inclusive_scan(in, head_flags, n, out[, op][, stream])
//                segmented_exclusive_scan(in, head_flags, n, out, init[, op][, stream])
//       head_flags[i] converting to true starts a segment at item i (item 0 always starts
//       one). Flag: any type that converts to bool (bool, uint8_t, int, ...).
//   offsets:     segmented_inclusive_scan(in, n, segments, out[, op][, stream])
//                segmented_exclusive_scan(in, n, segments, out, init[, op][, stream])
//       segments = segment_offsets<Offset>{begin, end, count} (or csr_segments(offsets,
//       count) for one array of count + 1 boundaries): segment s is [begin[s], end[s]).
//       Segments are in order and do not overlap; they may be empty, and items in no
//       segment are left as they are in out (not written), or, with segments.gaps =
//       gap_items::copied (csr_segments(offsets, count, gap_items::copied)), written with
//       their input value (in place, the same result). Copying writes every 32-byte
//       sector of out whole, never part of one, and an inclusive scan then treats each
//       gap item as a one-item segment (whose inclusive scan is its input), so it runs
//       the code for arrays without gaps: on an H200 (onepass-bench, % of the plain
//       int32 scan) 88-96% with gaps copied against 75-94% with gaps left untouched, and
//       faster on every distribution but uniform 1-1000 lengths, whose long gaps the
//       untouched form does not write (94% there). Exclusive scans copy gap items with
//       the gaps' own code (int32 1.07-1.12x faster than untouched on short segments,
//       8-byte values 0.79x on one long trimmed segment). See docs/perf/segmented_scan.md,
//       "Gap items copied from the input" and "Copied gap items as one-item segments".
//   keys:        inclusive_scan_by_key(keys, in, n, out[, op[, eq]][, stream])
//                exclusive_scan_by_key(keys, in, n, out, init[, op[, eq]][, stream])
//       each run of consecutive equal keys (eq, default onepass::equal_to) is a segment.
//       A NaN key equals nothing, so each NaN is a segment of its own under equal_to.
//
// Within each segment, inclusive: out[i] = in[b] op ... op in[i] (b the segment's first
// item); exclusive: out[i] = init op in[b] op ... op in[i - 1], so out[b] = init.
// op: any associative functor callable on the device (need not be commutative);
//     onepass::plus by default. T: int32, uint32, int64, uint64, float, double, or any
//     trivially copyable type op understands.
// n: 64-bit; 0 does nothing. in == out (in place) is allowed; any other overlap of in and
//    out is an error, and head_flags / keys must not overlap out.
// One pass over the data whatever the segment lengths: a million one-item segments and
// one segment of the whole array run the same single kernel (agent/segmented_scan.cuh).
//
// Two call styles, as for scan:
//   simple:    allocates its scratch with cudaMallocAsync on `stream` and frees it the same
//              way. Asynchronous, except the offsets form: it first checks the offsets on
//              the device and waits for that check, so that bad offsets throw
//              onepass::invalid_argument (naming the segment and the offsets) before
//              anything is written.
//   workspace: segmented_scan_workspace_bytes<T>(n) first (flags and keys), or
//              segmented_scan_workspace_bytes<T>(n, segments) (offsets), then pass a
//              onepass::workspace of at least that many bytes (16-byte aligned). Never
//              allocates or synchronises; safe inside CUDA-graph capture. The offsets are
//              checked on the device: if any is bad, nothing is written to out. Call
//              check_segment_offsets (which waits) where offsets may be bad.
// Errors: onepass::invalid_argument (naming the argument) before anything is enqueued;
//         onepass::cuda_error when the runtime reports a failure.
// Float results are not bitwise reproducible between runs (the lookback may combine tile
// values in different groupings), as for scan.
#pragma once

#include "onepass/device/dispatch_segmented_scan.cuh"
#include "onepass/functional.cuh"

namespace onepass {

// Bytes of workspace a head-flag segmented scan or a scan by key of n items of T needs.
template <class T>
std::size_t segmented_scan_workspace_bytes(index_t n) {
  detail::check_count(n);
  return detail::segmented_scan_plan<T>::workspace_bytes(n);
}

// Bytes of workspace the offsets form needs (the segments do not change it).
template <class T, class Offset>
std::size_t segmented_scan_workspace_bytes(index_t n, const segment_offsets<Offset>& /*segments*/) {
  detail::check_count(n);
  return detail::segmented_scan_plan<T>::offsets_workspace_bytes(n);
}

// Checks the segments against n on the device and waits for the answer: throws
// onepass::invalid_argument naming the first bad segment and what is wrong with it.
template <class Offset>
void check_segment_offsets(const segment_offsets<Offset>& segments, index_t n, cudaStream_t stream = nullptr) {
  detail::check_segment_offsets_sync(segments, n, stream);
}

// --- head flags -------------------------------------------------------------------------
template <class T, class Flag, class Op>
void segmented_inclusive_scan(const T* in, const Flag* head_flags, index_t n, T* out, Op op, workspace ws,
                              cudaStream_t stream) {
  detail::segmented_scan_dispatch<false>(in, n, out, detail::flag_heads<Flag>{head_flags}, T{}, op, ws, stream);
}
template <class T, class Flag, class Op>
void segmented_exclusive_scan(const T* in, const Flag* head_flags, index_t n, T* out, T init, Op op, workspace ws,
                              cudaStream_t stream) {
  detail::segmented_scan_dispatch<true>(in, n, out, detail::flag_heads<Flag>{head_flags}, init, op, ws, stream);
}
template <class T, class Flag, class Op = plus>
void segmented_inclusive_scan(const T* in, const Flag* head_flags, index_t n, T* out, Op op = {},
                              cudaStream_t stream = nullptr) {
  detail::segmented_scan_allocating<false>(in, n, out, detail::flag_heads<Flag>{head_flags}, T{}, op, stream);
}
template <class T, class Flag, class Op = plus>
void segmented_exclusive_scan(const T* in, const Flag* head_flags, index_t n, T* out, T init, Op op = {},
                              cudaStream_t stream = nullptr) {
  detail::segmented_scan_allocating<true>(in, n, out, detail::flag_heads<Flag>{head_flags}, init, op, stream);
}

// --- segment offsets --------------------------------------------------------------------
template <class T, class Offset, class Op>
void segmented_inclusive_scan(const T* in, index_t n, const segment_offsets<Offset>& segments, T* out, Op op,
                              workspace ws, cudaStream_t stream) {
  detail::segmented_scan_offsets_dispatch<false>(in, n, out, segments, T{}, op, ws, stream);
}
template <class T, class Offset, class Op>
void segmented_exclusive_scan(const T* in, index_t n, const segment_offsets<Offset>& segments, T* out, T init, Op op,
                              workspace ws, cudaStream_t stream) {
  detail::segmented_scan_offsets_dispatch<true>(in, n, out, segments, init, op, ws, stream);
}
template <class T, class Offset, class Op = plus>
void segmented_inclusive_scan(const T* in, index_t n, const segment_offsets<Offset>& segments, T* out, Op op = {},
                              cudaStream_t stream = nullptr) {
  detail::segmented_scan_offsets_allocating<false>(in, n, out, segments, T{}, op, stream);
}
template <class T, class Offset, class Op = plus>
void segmented_exclusive_scan(const T* in, index_t n, const segment_offsets<Offset>& segments, T* out, T init,
                              Op op = {}, cudaStream_t stream = nullptr) {
  detail::segmented_scan_offsets_allocating<true>(in, n, out, segments, init, op, stream);
}

// --- scan by key ------------------------------------------------------------------------
template <class Key, class T, class Op, class Eq>
void inclusive_scan_by_key(const Key* keys, const T* in, index_t n, T* out, Op op, Eq eq, workspace ws,
                           cudaStream_t stream) {
  detail::segmented_scan_dispatch<false>(in, n, out, detail::key_heads<Key, Eq>{keys, eq}, T{}, op, ws, stream);
}
template <class Key, class T, class Op, class Eq>
void exclusive_scan_by_key(const Key* keys, const T* in, index_t n, T* out, T init, Op op, Eq eq, workspace ws,
                           cudaStream_t stream) {
  detail::segmented_scan_dispatch<true>(in, n, out, detail::key_heads<Key, Eq>{keys, eq}, init, op, ws, stream);
}
template <class Key, class T, class Op = plus, class Eq = equal_to>
void inclusive_scan_by_key(const Key* keys, const T* in, index_t n, T* out, Op op = {}, Eq eq = {},
                           cudaStream_t stream = nullptr) {
  detail::segmented_scan_allocating<false>(in, n, out, detail::key_heads<Key, Eq>{keys, eq}, T{}, op, stream);
}
template <class Key, class T, class Op = plus, class Eq = equal_to>
void exclusive_scan_by_key(const Key* keys, const T* in, index_t n, T* out, T init, Op op = {}, Eq eq = {},
                           cudaStream_t stream = nullptr) {
  detail::segmented_scan_allocating<true>(in, n, out, detail::key_heads<Key, Eq>{keys, eq}, init, op, stream);
}

}  // namespace onepass
