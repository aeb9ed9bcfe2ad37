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
//       the code for arrays without gaps; exclusive scans copy gap items with the gaps'
//       own code. Which is faster depends on the gaps (docs/perf/segmented_scan.md, "Gap
//       items copied from the input" and "Copied gap items as one-item segments").
//   keys:        inclusive_scan_by_key(keys, in, n, out[, op[, eq]][, stream])
//                exclusive_scan_by_key(keys, in, n, out, init[, op[, eq]][, stream])
//       each run of consecutive equal keys (eq, default onepass::equal_to) is a segment.
//       A NaN key equals nothing, so each NaN is a segment of its own under equal_to.
//   Each also has a workspace overload (..., op[, eq], ws, stream), sized by
//   segmented_scan_workspace_bytes.
//
// Within each segment, inclusive: out[i] = in[b] op ... op in[i] (b the segment's first
// item); exclusive: out[i] = init op in[b] op ... op in[i - 1], so out[b] = init.
// One pass over the data whatever the segment lengths: a million one-item segments and
// one segment of the whole array run the same single kernel (agent/segmented_scan.cuh).
//
// Contract of every call in this file:
//   Parameters:   op: any associative functor callable on the device (need not be
//                 commutative); onepass::plus by default. T: int32, uint32, int64, uint64,
//                 float, double, or any trivially copyable type op understands. n: 64-bit;
//                 0 does nothing; more than 2^31 - 1 tiles' worth is refused. in, out: n
//                 items each, device or managed memory, aligned to T; in == out (in place)
//                 is allowed, any other overlap of in and out is an error, and head_flags /
//                 keys must not overlap out. head_flags, keys, segments.begin / end: device
//                 or managed memory, aligned to their types. stream: the stream the work is
//                 ordered on (the simple style defaults to the legacy default stream).
//   Errors:       onepass::invalid_argument names the argument and is thrown before
//                 anything is enqueued (nothing written, nothing allocated): "n" (negative,
//                 or too large), "in" / "out" / "head_flags" / "keys" (null while n > 0,
//                 not aligned, host memory, or an overlap the call refuses),
//                 "segments.count" (negative), "segments.begin" / "segments.end" (null
//                 while count > 0, not aligned, host memory), "segments.gaps" (not a
//                 gap_items value), "workspace" (below). Bad offsets' values (outside
//                 [0, n], end before begin, out of order) are found on the device: the
//                 simple style and check_segment_offsets then throw invalid_argument
//                 naming "segments.begin" or "segments.end" and the segment, after
//                 waiting for that check; the workspace style writes nothing to out and
//                 reports nothing. onepass::cuda_error when a CUDA runtime call fails (an
//                 allocation, a launch, a sticky error left by earlier work); work
//                 enqueued before the failure is not undone.
//   Determinism:  integer results are exact. Without a determinism argument (or with
//                 determinism::not_guaranteed) float results carry no run-to-run promise:
//                 the lookback combines tile values in groupings that depend on timing,
//                 as for scan. With determinism::run_to_run or gpu_to_gpu (every form,
//                 both kinds, both styles: the overloads at the end of this file), items
//                 that are not integers are combined in an order fixed by n, the item type
//                 and the segments alone: the same bits on every run and every supported
//                 GPU, whatever the pointers' alignment (docs/perf/determinism.md).
//                 Integers take the fast path, exact either way.
//   Stream order: the work is enqueued on `stream` and the call returns without waiting
//                 for it; out is ready once the stream has run it, and the inputs must
//                 stay unchanged until then. No host synchronisation, except in the
//                 offsets form's simple style with segments.count > 0 (it waits for the
//                 device's check of the offsets, between marking and scanning, so that
//                 bad offsets throw before anything is written to out) and in
//                 check_segment_offsets.
//   Call styles:  simple: allocates its scratch with cudaMallocAsync on `stream` and frees
//                 it the same way. workspace: never allocates or synchronises; safe
//                 inside CUDA-graph capture.
//   Workspace:    ws = {data, bytes} with bytes >= segmented_scan_workspace_bytes<T>(n)
//                 (head flags, keys) or segmented_scan_workspace_bytes<T>(n, segments)
//                 (offsets), sizes that depend on T and n only, not on the segments or
//                 the GPU (0 for n == 0: then any ws, even {nullptr, 0}, is accepted).
//                 Checked: data not null, bytes large enough, data 16-byte aligned; each
//                 failure throws invalid_argument("workspace"). It must be device memory
//                 (not checked). Its contents on entry do not matter (the call clears what
//                 it uses) and are not preserved. The enqueued work uses it until it
//                 completes: a later call may reuse it once ordered after this one (the
//                 next call on the same stream, for instance), but two calls that may run
//                 at the same time must not share one.
#pragma once

#include "onepass/device/dispatch_segmented_scan.cuh"
#include "onepass/functional.cuh"

namespace onepass {

// segmented_scan_workspace_bytes<T>(n): the bytes of workspace a head-flag segmented scan
// or a scan by key of n items of T needs (0 for n == 0). Throws invalid_argument("n") for
// a negative n. Host only; no CUDA call.
template <class T>
std::size_t segmented_scan_workspace_bytes(index_t n) {
  detail::check_count(n);
  return detail::segmented_scan_plan<T>::workspace_bytes(n);
}

// segmented_scan_workspace_bytes<T>(n, segments): the bytes of workspace the offsets form
// needs (0 for n == 0; the segments do not change it). Throws invalid_argument("n") for a
// negative n. Host only; no CUDA call.
template <class T, class Offset>
std::size_t segmented_scan_workspace_bytes(index_t n, const segment_offsets<Offset>& /*segments*/) {
  detail::check_count(n);
  return detail::segmented_scan_plan<T>::offsets_workspace_bytes(n);
}

// segmented_scan_workspace_bytes<T>(n, d) and (n, segments, d): the same for a call with
// determinism `d` (the fixed order's tiles may differ from the fastest path's).
template <class T>
std::size_t segmented_scan_workspace_bytes(index_t n, determinism d) {
  detail::check_count(n);
  return detail::segmented_scan_in_fixed_order<T>(d)
             ? detail::segmented_scan_plan<T, detail::deterministic_segmented_scan_tuning<T>>::workspace_bytes(n)
             : detail::segmented_scan_plan<T>::workspace_bytes(n);
}
template <class T, class Offset>
std::size_t segmented_scan_workspace_bytes(index_t n, const segment_offsets<Offset>& /*segments*/, determinism d) {
  detail::check_count(n);
  return detail::segmented_scan_in_fixed_order<T>(d)
             ? detail::segmented_scan_plan<T, detail::deterministic_segmented_scan_tuning<T>>::offsets_workspace_bytes(n)
             : detail::segmented_scan_plan<T>::offsets_workspace_bytes(n);
}

// check_segment_offsets: checks the segments against n on the device and waits for the
// answer (it synchronises `stream`).
//   segments: as for the offsets form. n: the item count the segments index. stream: where
//   the check runs (default: the legacy default stream); scratch from cudaMallocAsync on
//   it, freed the same way.
//   Throws: invalid_argument naming "n", "segments.count", "segments.begin",
//   "segments.end" or "segments.gaps" for bad arguments, and "segments.begin" or
//   "segments.end" with the first bad segment and what is wrong with it; cuda_error.
template <class Offset>
void check_segment_offsets(const segment_offsets<Offset>& segments, index_t n, cudaStream_t stream = nullptr) {
  detail::check_segment_offsets_sync(segments, n, stream);
}

// --- head flags -------------------------------------------------------------------------
// segmented_inclusive_scan (head flags): out[i] = in[b] op ... op in[i], b the start of
// item i's segment; head_flags[i] converting to true starts a segment at i.
//   head_flags: n Flags. in, n, out, op, stream: see the contract above. ws: this
//   overload's workspace (segmented_scan_workspace_bytes<T>(n)).
//   Throws: invalid_argument naming "n", "in", "out", "head_flags" or "workspace";
//   cuda_error.
//   Floats: no run-to-run promise. Stream-ordered, no host synchronisation; workspace
//   contract above.
template <class T, class Flag, class Op>
void segmented_inclusive_scan(const T* in, const Flag* head_flags, index_t n, T* out, Op op, workspace ws,
                              cudaStream_t stream) {
  detail::segmented_scan_dispatch<false>(in, n, out, detail::flag_heads<Flag>{head_flags}, T{}, op, ws, stream);
}
// segmented_exclusive_scan (head flags): out[i] = init op in[b] op ... op in[i - 1], so
// out[b] = init at each segment's start b.
//   init: the first operand of every output. head_flags, in, n, out, op, stream, ws: as
//   for segmented_inclusive_scan above.
//   Throws: invalid_argument naming "n", "in", "out", "head_flags" or "workspace";
//   cuda_error.
//   Floats: no run-to-run promise. Stream-ordered, no host synchronisation; workspace
//   contract above.
template <class T, class Flag, class Op>
void segmented_exclusive_scan(const T* in, const Flag* head_flags, index_t n, T* out, T init, Op op, workspace ws,
                              cudaStream_t stream) {
  detail::segmented_scan_dispatch<true>(in, n, out, detail::flag_heads<Flag>{head_flags}, init, op, ws, stream);
}
// The simple style of both head-flag scans: as above, without ws; op defaults to
// onepass::plus, stream to the legacy default stream; scratch from cudaMallocAsync on
// `stream`, freed the same way. Throws as above, without "workspace".
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
// segmented_inclusive_scan (offsets): within each segment [segments.begin[s],
// segments.end[s]), out[i] = in[begin] op ... op in[i]; items in no segment are left
// alone or copied, as segments.gaps says.
//   segments: see segment_offsets (onepass/device/dispatch_segmented_scan.cuh); its
//   offsets are checked on the device, and if any is bad nothing is written to out and
//   nothing is reported: call check_segment_offsets (which waits) where they may be bad.
//   in, n, out, op, stream: see the contract above. ws: this overload's workspace
//   (segmented_scan_workspace_bytes<T>(n, segments)).
//   Throws: invalid_argument naming "n", "in", "out", "segments.count",
//   "segments.begin", "segments.end", "segments.gaps" or "workspace"; cuda_error.
//   Floats: no run-to-run promise. Stream-ordered, no host synchronisation; workspace
//   contract above.
template <class T, class Offset, class Op>
void segmented_inclusive_scan(const T* in, index_t n, const segment_offsets<Offset>& segments, T* out, Op op,
                              workspace ws, cudaStream_t stream) {
  detail::segmented_scan_offsets_dispatch<false>(in, n, out, segments, T{}, op, ws, stream);
}
// segmented_exclusive_scan (offsets): within each segment, out[i] = init op in[begin] op
// ... op in[i - 1] (out[begin] = init); items in no segment as segments.gaps says.
//   init: the first operand of every output. segments, in, n, out, op, stream, ws: as for
//   segmented_inclusive_scan (offsets) above.
//   Throws: as segmented_inclusive_scan (offsets) above.
//   Floats: no run-to-run promise. Stream-ordered, no host synchronisation; workspace
//   contract above.
template <class T, class Offset, class Op>
void segmented_exclusive_scan(const T* in, index_t n, const segment_offsets<Offset>& segments, T* out, T init, Op op,
                              workspace ws, cudaStream_t stream) {
  detail::segmented_scan_offsets_dispatch<true>(in, n, out, segments, init, op, ws, stream);
}
// The simple style of both offset scans: as above, without ws; op defaults to
// onepass::plus, stream to the legacy default stream; scratch from cudaMallocAsync on
// `stream`, freed the same way. With segments.count > 0 it synchronises: it waits for the
// device's check of the offsets before scanning, and throws invalid_argument naming
// "segments.begin" or "segments.end" and the first bad segment, with nothing written to
// out. Otherwise throws as above, without "workspace".
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
// inclusive_scan_by_key: each run of consecutive keys equal under eq is a segment; within
// it, out[i] = in[b] op ... op in[i].
//   keys: n Keys, device or managed memory, not overlapping out. eq: eq(a, b) callable on
//   the device (onepass::equal_to by default in the simple style; a NaN key equals
//   nothing under it). in, n, out, op, stream: see the contract above. ws: this
//   overload's workspace (segmented_scan_workspace_bytes<T>(n)).
//   Throws: invalid_argument naming "n", "in", "out", "keys" or "workspace"; cuda_error.
//   Floats: no run-to-run promise. Stream-ordered, no host synchronisation; workspace
//   contract above.
template <class Key, class T, class Op, class Eq>
void inclusive_scan_by_key(const Key* keys, const T* in, index_t n, T* out, Op op, Eq eq, workspace ws,
                           cudaStream_t stream) {
  detail::segmented_scan_dispatch<false>(in, n, out, detail::key_heads<Key, Eq>{keys, eq}, T{}, op, ws, stream);
}
// exclusive_scan_by_key: as inclusive_scan_by_key, with out[i] = init op in[b] op ... op
// in[i - 1] (out[b] = init at each segment's start).
//   init: the first operand of every output. keys, eq, in, n, out, op, stream, ws: as for
//   inclusive_scan_by_key above.
//   Throws: invalid_argument naming "n", "in", "out", "keys" or "workspace"; cuda_error.
//   Floats: no run-to-run promise. Stream-ordered, no host synchronisation; workspace
//   contract above.
template <class Key, class T, class Op, class Eq>
void exclusive_scan_by_key(const Key* keys, const T* in, index_t n, T* out, T init, Op op, Eq eq, workspace ws,
                           cudaStream_t stream) {
  detail::segmented_scan_dispatch<true>(in, n, out, detail::key_heads<Key, Eq>{keys, eq}, init, op, ws, stream);
}
// The simple style of both scans by key: as above, without ws; op defaults to
// onepass::plus, eq to onepass::equal_to, stream to the legacy default stream; scratch
// from cudaMallocAsync on `stream`, freed the same way. Throws as above, without
// "workspace".
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

// --- with a determinism choice ----------------------------------------------------------
// Every form above, both kinds, both styles, with `determinism d` after op (after eq for
// scan by key): run_to_run and gpu_to_gpu fix the order of combination for items that
// are not integers (the contract's Determinism); not_guaranteed is the calls above. The
// workspace style's ws is sized by segmented_scan_workspace_bytes<T>(n, d) (head flags,
// keys) or (n, segments, d) (offsets). Arguments, errors, stream order and workspace as
// for the same call without d. E.g.
//   onepass::segmented_inclusive_scan(in, n, onepass::csr_segments(offsets, count), out,
//                                     onepass::plus{}, onepass::determinism::gpu_to_gpu);
template <class T, class Flag, class Op>
void segmented_inclusive_scan(const T* in, const Flag* head_flags, index_t n, T* out, Op op, determinism d,
                              workspace ws, cudaStream_t stream) {
  detail::segmented_scan_dispatch<false>(in, n, out, detail::flag_heads<Flag>{head_flags}, T{}, op, ws, stream,
                                         detail::no_delay{}, d);
}
template <class T, class Flag, class Op>
void segmented_exclusive_scan(const T* in, const Flag* head_flags, index_t n, T* out, T init, Op op, determinism d,
                              workspace ws, cudaStream_t stream) {
  detail::segmented_scan_dispatch<true>(in, n, out, detail::flag_heads<Flag>{head_flags}, init, op, ws, stream,
                                        detail::no_delay{}, d);
}
template <class T, class Flag, class Op>
void segmented_inclusive_scan(const T* in, const Flag* head_flags, index_t n, T* out, Op op, determinism d,
                              cudaStream_t stream = nullptr) {
  detail::segmented_scan_allocating<false>(in, n, out, detail::flag_heads<Flag>{head_flags}, T{}, op, stream, d);
}
template <class T, class Flag, class Op>
void segmented_exclusive_scan(const T* in, const Flag* head_flags, index_t n, T* out, T init, Op op, determinism d,
                              cudaStream_t stream = nullptr) {
  detail::segmented_scan_allocating<true>(in, n, out, detail::flag_heads<Flag>{head_flags}, init, op, stream, d);
}
template <class T, class Offset, class Op>
void segmented_inclusive_scan(const T* in, index_t n, const segment_offsets<Offset>& segments, T* out, Op op,
                              determinism d, workspace ws, cudaStream_t stream) {
  detail::segmented_scan_offsets_dispatch<false>(in, n, out, segments, T{}, op, ws, stream, detail::no_delay{}, d);
}
template <class T, class Offset, class Op>
void segmented_exclusive_scan(const T* in, index_t n, const segment_offsets<Offset>& segments, T* out, T init, Op op,
                              determinism d, workspace ws, cudaStream_t stream) {
  detail::segmented_scan_offsets_dispatch<true>(in, n, out, segments, init, op, ws, stream, detail::no_delay{}, d);
}
template <class T, class Offset, class Op>
void segmented_inclusive_scan(const T* in, index_t n, const segment_offsets<Offset>& segments, T* out, Op op,
                              determinism d, cudaStream_t stream = nullptr) {
  detail::segmented_scan_offsets_allocating<false>(in, n, out, segments, T{}, op, stream, d);
}
template <class T, class Offset, class Op>
void segmented_exclusive_scan(const T* in, index_t n, const segment_offsets<Offset>& segments, T* out, T init, Op op,
                              determinism d, cudaStream_t stream = nullptr) {
  detail::segmented_scan_offsets_allocating<true>(in, n, out, segments, init, op, stream, d);
}
template <class Key, class T, class Op, class Eq>
void inclusive_scan_by_key(const Key* keys, const T* in, index_t n, T* out, Op op, Eq eq, determinism d,
                           workspace ws, cudaStream_t stream) {
  detail::segmented_scan_dispatch<false>(in, n, out, detail::key_heads<Key, Eq>{keys, eq}, T{}, op, ws, stream,
                                         detail::no_delay{}, d);
}
template <class Key, class T, class Op, class Eq>
void exclusive_scan_by_key(const Key* keys, const T* in, index_t n, T* out, T init, Op op, Eq eq, determinism d,
                           workspace ws, cudaStream_t stream) {
  detail::segmented_scan_dispatch<true>(in, n, out, detail::key_heads<Key, Eq>{keys, eq}, init, op, ws, stream,
                                        detail::no_delay{}, d);
}
template <class Key, class T, class Op, class Eq>
void inclusive_scan_by_key(const Key* keys, const T* in, index_t n, T* out, Op op, Eq eq, determinism d,
                           cudaStream_t stream = nullptr) {
  detail::segmented_scan_allocating<false>(in, n, out, detail::key_heads<Key, Eq>{keys, eq}, T{}, op, stream, d);
}
template <class Key, class T, class Op, class Eq>
void exclusive_scan_by_key(const Key* keys, const T* in, index_t n, T* out, T init, Op op, Eq eq, determinism d,
                           cudaStream_t stream = nullptr) {
  detail::segmented_scan_allocating<true>(in, n, out, detail::key_heads<Key, Eq>{keys, eq}, init, op, stream, d);
}

}  // namespace onepass
