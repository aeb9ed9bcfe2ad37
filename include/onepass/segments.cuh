// onepass/segments.cuh — how the segmented scan's offsets form names its segments.
//
//   onepass::segment_offsets<Offset>{begin, end, count[, gaps]}   segment s is [begin[s], end[s])
//   onepass::csr_segments(offsets, count[, gaps])                 segment s is [offsets[s], offsets[s + 1])
//   onepass::gap_items                                            what becomes of items in no segment
// The calls that take them, and their full contract: onepass/segmented_scan.cuh.
#pragma once

#include "onepass/types.cuh"

namespace onepass {

// What the offsets form writes to the items of out that lie in no segment (between
// segments, before the first, after the last).
enum class gap_items : unsigned char {
  // Not written: they keep what out held (the default).
  untouched,
  // Written with their input value, out[i] = in[i], in inclusive and exclusive scans
  // alike. In place (in == out) the same result as untouched. Every 32-byte sector of
  // out is then written whole, where a sector the scan writes in part costs the memory
  // system a read of out: faster for 4-byte values with short gaps between most segments,
  // slower where gaps are long (their bytes are written) (docs/perf/segmented_scan.md,
  // "Gap items copied from the input").
  copied,
};

// The segments of the offsets form: segment s is items [begin[s], end[s]). Segments are in
// order and do not overlap (begin[s] <= end[s] <= begin[s + 1]); they may be empty and
// need not cover the array. Offset: any integer type; begin and end in device memory.
// `gaps`: what becomes of out's items in no segment.
template <class Offset>
struct segment_offsets {
  const Offset* begin = nullptr;
  const Offset* end = nullptr;
  index_t count = 0;  // the number of segments
  gap_items gaps = gap_items::untouched;
};

// Segments given as one array of count + 1 boundaries (CSR style): segment s is items
// [offsets[s], offsets[s + 1]). Items before offsets[0] and from offsets[count] on are
// in no segment.
template <class Offset>
segment_offsets<Offset> csr_segments(const Offset* offsets, index_t count, gap_items gaps = gap_items::untouched) {
  return {offsets, offsets == nullptr ? nullptr : offsets + 1, count, gaps};
}

}  // namespace onepass
