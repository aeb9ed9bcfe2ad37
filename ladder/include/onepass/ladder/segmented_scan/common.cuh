// onepass/ladder/segmented_scan/common.cuh — what every variant of the segmented-scan
// teaching ladder shares.
//
// A variant is a struct with
//   static constexpr const char* id;       // the registry name, e.g. "warp_head_flags"
//   static constexpr const char* summary;  // one line for --list and the docs
//   static constexpr bool has_flags, has_offsets, has_by_key, has_begin_end;  // its forms
//   template <class T, class Key, class Op>
//   static std::size_t workspace_bytes(index_t n);  // enough for every form it has
// and, for each form it has, a function that checks its arguments and then enqueues:
//   template <class T, class Flag, class Op>          // has_flags
//   static void run_flags(const T* in, const Flag* head_flags, index_t n, T* out,
//                         scan_kind kind, T init, Op op, workspace ws, cudaStream_t stream);
//   template <class T, class Offset, class Op>        // has_offsets
//   static void run_offsets(const T* in, index_t n, const Offset* offsets,
//                           index_t num_segments, T* out, scan_kind kind, T init, Op op,
//                           workspace ws, cudaStream_t stream);
//   template <class Key, class T, class Op, class Eq> // has_by_key
//   static void run_by_key(const Key* keys, const T* in, index_t n, T* out, scan_kind kind,
//                          T init, Op op, Eq eq, workspace ws, cudaStream_t stream);
//   template <class T, class Offset, class Op>        // has_begin_end
//   static void run_begin_end(const T* in, index_t n, const Offset* begins, const Offset* ends,
//                             index_t num_segments, T* out, scan_kind kind, T init, Op op,
//                             workspace ws, cudaStream_t stream);
// and, optionally, the begin/end form writing its gap items too (onepass::gap_items::copied:
// an item in no segment gets its input value), with run_begin_end's parameters:
//   template <class T, class Offset, class Op>
//   static void run_begin_end_gaps_copied(...);
// The offsets are count + 1 CSR boundaries: segment s is [offsets[s], offsets[s + 1]), each
// segment ending where the next begins. The begin/end form takes two arrays of
// num_segments each: segment s is [begins[s], ends[s]), the segments in order and apart
// (begins[s] <= ends[s] <= begins[s + 1]), possibly empty, and free to leave gaps between
// them: an item in no segment is not written, so out keeps what it held there (in place,
// the item's input).
//
// Semantics are those of the production API (onepass/segmented_scan.cuh): a segment
// restarts the scan (with flags and keys item 0 always begins one); inclusive
// out[i] = in[b] op ... op in[i], exclusive out[i] = init op in[b] op ... op in[i - 1]
// (init at b), b the first item of i's segment; op associative, not necessarily
// commutative; in == out allowed.
//
// The checks are the production API's, in its order and with its words: the counts and
// pointers (the variant's item limit with them), the heads' own input, the workspace,
// then the memory (which needs the runtime). The production variant gets them from the
// API it calls; the others call the same checks of the heads' input and of the memory
// (device/dispatch_segmented_scan.cuh) and check_segmented_scan_values below, which adds
// the variant's item limit. So every variant rejects bad input with
// onepass::invalid_argument naming the argument, before anything is enqueued and, for
// the first three steps, without a GPU. Variants are workspace-style:
// they never allocate or synchronise.
#pragma once

#include <string>
#include <type_traits>

#include "onepass/detail/launch.cuh"
#include "onepass/device/dispatch_segmented_scan.cuh"
#include "onepass/functional.cuh"
#include "onepass/ladder/common.cuh"
#include "onepass/ladder/scan/common.cuh"

namespace onepass::ladder::detail {

// The values: n, its limit for the variant `id` (no_limit: none), in and out.
template <class T>
void check_segmented_scan_values(const char* id, index_t max_items, const T* in, index_t n, const T* out) {
  static_assert(std::is_trivially_copyable_v<T>, "scanned values must be trivially copyable");
  onepass::detail::check_count(n);
  if (max_items != no_limit && n > max_items)
    throw invalid_argument("n", "is " + std::to_string(n) + " but the " + id + " variant handles at most " +
                                    std::to_string(max_items) + " items");
  onepass::detail::check_pointer(in, n, "in");
  onepass::detail::check_pointer(out, n, "out");
  onepass::detail::check_no_partial_overlap(in, out, n, "in", "out");
}

// The CSR boundaries of the registry's offsets form. With no segment nothing is read, so
// null offsets are fine then.
template <class Offset>
void check_csr_offsets(const Offset* offsets, index_t num_segments) {
  static_assert(std::is_integral_v<Offset>, "segment offsets must be integers");
  onepass::detail::check_count(num_segments, "num_segments");
  onepass::detail::check_pointer(offsets, num_segments == 0 ? 0 : num_segments + 1, "offsets");
}

// The begin and end arrays of the registry's begin/end form, under the registry's names:
// the public API would call them segments.begin, segments.end and segments.count.
template <class Offset>
void check_begin_end_offsets(const Offset* begins, const Offset* ends, index_t num_segments) {
  static_assert(std::is_integral_v<Offset>, "segment offsets must be integers");
  onepass::detail::check_count(num_segments, "num_segments");
  onepass::detail::check_pointer(begins, num_segments, "begins");
  onepass::detail::check_pointer(ends, num_segments, "ends");
}

}  // namespace onepass::ladder::detail
