// onepass/ladder/segmented_scan/production.cuh — the production segmented scan
// (onepass::segmented_inclusive_scan / segmented_exclusive_scan and inclusive_scan_by_key
// / exclusive_scan_by_key, workspace style) as the ladder's top rung, id "onepass", and
// the same calls with onepass::determinism::gpu_to_gpu beside it, id "deterministic":
// what the same bits on every run and GPU cost (integers take the fast path there).
//
// Each form calls the public API, which checks its arguments itself; the offsets and
// begin/end forms first check the registry's own names for their boundaries (offsets,
// begins, ends, num_segments), which the API would call segments.begin, segments.end and
// segments.count.
#pragma once

#include <algorithm>

#include "onepass/ladder/segmented_scan/common.cuh"
#include "onepass/segmented_scan.cuh"

namespace onepass::ladder {

// Both rungs: the public calls with determinism D.
template <determinism D>
struct segmented_scan_public_calls {
  static constexpr bool has_flags = true, has_offsets = true, has_by_key = true, has_begin_end = true;

  // The offsets forms need the most (their head bitmaps), CSR and begin/end alike: the
  // segments do not change the size. One size serves all four forms.
  template <class T, class Key = int, class Op = plus>
  static std::size_t workspace_bytes(index_t n) {
    return std::max(onepass::segmented_scan_workspace_bytes<T>(n, D),
                    onepass::segmented_scan_workspace_bytes<T>(n, segment_offsets<long long>{}, D));
  }

  template <class T, class Flag, class Op>
  static void run_flags(const T* in, const Flag* head_flags, index_t n, T* out, scan_kind kind, T init, Op op,
                        workspace ws, cudaStream_t stream) {
    if (kind == scan_kind::inclusive) {
      onepass::segmented_inclusive_scan(in, head_flags, n, out, op, D, ws, stream);
    } else {
      onepass::segmented_exclusive_scan(in, head_flags, n, out, init, op, D, ws, stream);
    }
  }

  template <class T, class Offset, class Op>
  static void run_offsets(const T* in, index_t n, const Offset* offsets, index_t num_segments, T* out,
                          scan_kind kind, T init, Op op, workspace ws, cudaStream_t stream) {
    detail::check_csr_offsets(offsets, num_segments);
    run_segments(in, n, csr_segments(offsets, num_segments), out, kind, init, op, ws, stream);
  }

  template <class T, class Offset, class Op>
  static void run_begin_end(const T* in, index_t n, const Offset* begins, const Offset* ends, index_t num_segments,
                            T* out, scan_kind kind, T init, Op op, workspace ws, cudaStream_t stream) {
    detail::check_begin_end_offsets(begins, ends, num_segments);
    run_segments(in, n, segment_offsets<Offset>{begins, ends, num_segments}, out, kind, init, op, ws, stream);
  }
  // The same, the items in no segment written with their input value.
  template <class T, class Offset, class Op>
  static void run_begin_end_gaps_copied(const T* in, index_t n, const Offset* begins, const Offset* ends,
                                        index_t num_segments, T* out, scan_kind kind, T init, Op op, workspace ws,
                                        cudaStream_t stream) {
    detail::check_begin_end_offsets(begins, ends, num_segments);
    run_segments(in, n, segment_offsets<Offset>{begins, ends, num_segments, gap_items::copied}, out, kind, init, op,
                 ws, stream);
  }

  template <class Key, class T, class Op, class Eq>
  static void run_by_key(const Key* keys, const T* in, index_t n, T* out, scan_kind kind, T init, Op op, Eq eq,
                         workspace ws, cudaStream_t stream) {
    if (kind == scan_kind::inclusive) {
      onepass::inclusive_scan_by_key(keys, in, n, out, op, eq, D, ws, stream);
    } else {
      onepass::exclusive_scan_by_key(keys, in, n, out, init, op, eq, D, ws, stream);
    }
  }

 private:
  // The two offsets forms, once their registry names are checked.
  template <class T, class Offset, class Op>
  static void run_segments(const T* in, index_t n, const segment_offsets<Offset>& segments, T* out, scan_kind kind,
                           T init, Op op, workspace ws, cudaStream_t stream) {
    if (kind == scan_kind::inclusive) {
      onepass::segmented_inclusive_scan(in, n, segments, out, op, D, ws, stream);
    } else {
      onepass::segmented_exclusive_scan(in, n, segments, out, init, op, D, ws, stream);
    }
  }
};

struct segmented_scan_production : segmented_scan_public_calls<determinism::not_guaranteed> {
  static constexpr const char* id = "onepass";
  static constexpr const char* summary =
      "production: one pass, decoupled lookback on (value, head) pairs (descriptors hold the value, the head's kind "
      "as a tag); a tile holding a head never looks back";
};

struct segmented_scan_deterministic : segmented_scan_public_calls<determinism::gpu_to_gpu> {
  static constexpr const char* id = "deterministic";
  static constexpr const char* summary =
      "production in a fixed order (floats): one-tile kernel, groups of 256 tiles folded as (value, head) pairs in "
      "one tree, the same bits on every run and GPU";
};

}  // namespace onepass::ladder
