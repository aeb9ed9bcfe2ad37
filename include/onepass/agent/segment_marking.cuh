// onepass/agent/segment_marking.cuh — the offsets form's preparation: check the
// segments' offsets on the device and mark where segments (and gaps) begin in bitmaps,
// which the scan then reads as its head source (bitmap_heads, csr_bitmap_heads).
#pragma once

#include "onepass/agent/segment_heads.cuh"

namespace onepass::detail {

#if defined(__CUDACC__)
// What is wrong with a segment's offsets (the first check that fails).
enum class segment_problem : unsigned { none = 0, begin_out_of_range, end_out_of_range, end_before_begin, out_of_order };

// The first bad segment (lowest index) and its problem, packed so that atomicMax keeps it:
// ~(segment << 8 | problem). Zero means no problem was found.
ONEPASS_HD constexpr unsigned long long encode_segment_error(index_t segment, segment_problem p) {
  return ~(static_cast<unsigned long long>(segment) << 8 | static_cast<unsigned>(p));
}

// Sets bits of one bitmap for a run of increasing items, one atomicOr per word: the bits
// of consecutive items that fall into the same word are gathered first. Item: long long
// for items of a global bitmap; unsigned for items counted from the first word of a
// block's shared copy of part of one (32-bit arithmetic).
// Toggle: each mark flips its bit instead (XOR, atomicXor), so that two marks of one item,
// by one lane or two, cancel.
template <class Item, bool Toggle = false>
struct bitmap_marker {
  static constexpr Item no_word = ~Item{0};
  std::uint32_t* bitmap;
  Item word = no_word;
  unsigned bits = 0;
  __device__ ONEPASS_FORCEINLINE void mark(Item item) {
    const Item w = item / 32;
    if (w != word) {
      flush();
      word = w;
    }
    if constexpr (Toggle)
      bits ^= 1u << (item % 32);
    else
      bits |= 1u << (item % 32);
  }
  __device__ ONEPASS_FORCEINLINE void flush() {
    if (word != no_word) {
      if constexpr (Toggle)
        atomicXor(&bitmap[word], bits);
      else
        atomicOr(&bitmap[word], bits);
    }
    word = no_word;
    bits = 0;
  }
};

// Gaps whose inner bitmap words (those wholly inside the gap) number more than this are
// listed, not stored by the marking warp, in pieces of at most this many words: a list of
// word ranges [first, last] (ranges[0]: how many; piece r at ranges[2 + 2r] and
// ranges[3 + 2r]) that set_listed_words_kernel sets, a warp a piece. One warp storing a
// long gap's words alone kept the scan waiting: one trimmed segment with long gaps on
// either side ran several times slower than with them listed (docs/perf/
// segmented_scan.md, "Copied gap items as one-item segments"). Pieces, not whole gaps,
// so that no thread of the listed words' kernel walks the list ("Long gaps in pieces").
inline constexpr long long listed_range_words = 1024;

// The most pieces the marking lists for n items. A listed gap of L > listed_range_words
// inner words is ceil(L / listed_range_words) <= 2 L / listed_range_words pieces, and no
// two gaps share an inner word. The list fits in the `ends` bitmap's n / 8 bytes
// wherever a gap can be listed (n > 32 * listed_range_words).
constexpr long long max_listed_pieces(long long n) { return 2 * ((n + 31) / 32) / listed_range_words; }
// The pieces a listed gap of `words` inner words is cut into.
ONEPASS_HD constexpr long long listed_pieces(long long words) {
  return (words + listed_range_words - 1) / listed_range_words;
}

// Sets bits [first, last) of a global bitmap for each lane's range (empty where first >=
// last), the warp together: a lane ORs its range's partly covered first and last words,
// and the warp stores the words wholly inside each range, lane by lane, 32 consecutive
// words a store; where there are more than listed_range_words of them and `ranges` is not
// null, the warp lists them there in pieces instead (the lanes writing a range's pieces
// together). Only this call (or the listed words' kernel) sets bits in those inner words
// (they hold no other item), so plain stores do. All 32 lanes must call it.
__device__ ONEPASS_FORCEINLINE void set_bit_ranges(std::uint32_t* bitmap, long long first, long long last,
                                                   unsigned long long* ranges) {
  long long inner_first = 0, inner_last = -1;  // words wholly inside the range
  unsigned long long first_piece = 0;  // listed: where its pieces begin in the list
  if (first < last) {
    const long long fw = first / 32, lw = (last - 1) / 32;
    const unsigned head = ~0u << (first % 32), tail = ~0u >> (31 - (last - 1) % 32);
    if (fw == lw) {
      atomicOr(&bitmap[fw], head & tail);
    } else {
      atomicOr(&bitmap[fw], head);
      atomicOr(&bitmap[lw], tail);
      inner_first = fw + 1;
      inner_last = lw - 1;
      const long long words = inner_last - inner_first + 1;
      if (ranges != nullptr && words > listed_range_words)
        first_piece = atomicAdd(&ranges[0], static_cast<unsigned long long>(listed_pieces(words)));
    }
  }
  const int lane = lane_id();
  for (unsigned pending = __ballot_sync(~0u, inner_first <= inner_last); pending != 0; pending &= pending - 1) {
    const int owner = __ffs(pending) - 1;
    const long long a = __shfl_sync(~0u, inner_first, owner), z = __shfl_sync(~0u, inner_last, owner);
    // Listed or not follows from the range itself, the same on every lane.
    if (ranges != nullptr && z - a + 1 > listed_range_words) {
      const unsigned long long at = __shfl_sync(~0u, first_piece, owner);
      const long long pieces = listed_pieces(z - a + 1);
      for (long long p = lane; p < pieces; p += 32) {
        const long long piece_first = a + p * listed_range_words;
        const long long piece_last = piece_first + listed_range_words - 1;
        const unsigned long long r = at + static_cast<unsigned long long>(p);
        ranges[2 + 2 * r] = static_cast<unsigned long long>(piece_first);
        ranges[3 + 2 * r] = static_cast<unsigned long long>(piece_last < z ? piece_last : z);
      }
    } else {
      for (long long w = a + lane; w <= z; w += 32) bitmap[w] = ~0u;
    }
  }
}

// A lane's run of Count consecutive offsets starting at `index`: those at or past `count`
// read as `tail`. Aligned: `p` is 16-byte aligned, so for 4- and 8-byte offsets whole runs
// load as 16-byte vectors (each lane's run starts at a multiple of Count); other offset
// types, runs that reach `count`, and unaligned arrays load offset by offset.
template <int Count, class Offset>
__device__ ONEPASS_FORCEINLINE void load_offset_run(const Offset* p, index_t index, index_t count, long long tail,
                                                    bool aligned, long long (&out)[Count]) {
  constexpr bool vectors = (sizeof(Offset) == 4 || sizeof(Offset) == 8) && Count * sizeof(Offset) % 16 == 0;
  if constexpr (vectors) {
    if (aligned && index + Count <= count) {
      constexpr int per_vector = 16 / static_cast<int>(sizeof(Offset));
      using vector = std::conditional_t<sizeof(Offset) == 8, longlong2, int4>;
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
      for (int v = 0; v < Count / per_vector; ++v) {
        const vector x = *reinterpret_cast<const vector*>(p + index + v * per_vector);
        if constexpr (sizeof(Offset) == 8) {
          out[v * 2] = static_cast<long long>(static_cast<Offset>(x.x));
          out[v * 2 + 1] = static_cast<long long>(static_cast<Offset>(x.y));
        } else {
          out[v * 4] = static_cast<long long>(static_cast<Offset>(x.x));
          out[v * 4 + 1] = static_cast<long long>(static_cast<Offset>(x.y));
          out[v * 4 + 2] = static_cast<long long>(static_cast<Offset>(x.z));
          out[v * 4 + 3] = static_cast<long long>(static_cast<Offset>(x.w));
        }
      }
      return;
    }
  }
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
  for (int u = 0; u < Count; ++u) out[u] = index + u < count ? static_cast<long long>(p[index + u]) : tail;
}

// Moves one word of a warp's bitmap window to the bitmap (clearing it for the next run):
// a plain store for a word only this run marks, atomicOr for one it may share.
__device__ ONEPASS_FORCEINLINE void write_window_word(std::uint32_t& window_word, std::uint32_t* bitmap_word,
                                                      bool shared_word) {
  const std::uint32_t bits = window_word;
  window_word = 0;
  if (bits == 0) return;
  if (shared_word)
    atomicOr(bitmap_word, bits);
  else
    *bitmap_word = bits;
}

// Checks every segment against n and its successor, and marks the first item of each
// non-empty segment in `begins` and (unless Csr) in `ends` the item after each segment,
// when inside the array and where the next segment does not begin: the gaps' first items
// (bitmap_heads). Begin/end arrays without gaps mark no `ends` bit, so their marking writes
// what CSR offsets' does (marking every non-empty segment's end cost a second atomicOr or
// window word a segment: docs/perf/segmented_scan.md, "Ends marked only where a gap
// begins"), and `gaps_found` (unless null) is set where
// any `ends` bit is. With null bitmaps it only checks. Segments must be in order and must
// not overlap: begin[s] <= end[s] <= begin[s + 1]. Csr: end == begin + 1 (one array of
// boundaries), read once; the scan then needs no `ends` (csr_bitmap_heads).
//
// Warp by warp, with no block-wide barrier (docs/perf/segmented_scan.md, "The marking,
// warp by warp"). Each warp takes runs of 32 * SegmentsPerLane consecutive segments:
//   1. lane l loads segments l * SegmentsPerLane ... of the run into registers (16-byte
//      vectors where the arrays are aligned) and the next lane's first begin by shuffle;
//   2. it checks its segments with one chain of comparisons (begin <= end <= next begin,
//      first >= 0, last <= n); only a run where some lane's chain fails is checked segment
//      by segment, to name the first bad one, and such a run marks nothing;
//   3. if the run's items span at most WindowWords bitmap words, each lane ORs the bits of
//      its segments that share a word in a register and adds them to the warp's own
//      window of the bitmaps in shared memory (a shared atomic per lane and word); the warp
//      then writes the window out coalesced: plain stores inside the span, which no other
//      run marks (segments are in order), and atomicOr on its first and last words. Sparser
//      runs (long segments: few marks per word) OR each lane's words into global memory.
// The block-wide version before (a chunk of 2048 segments staged in shared memory, four
// block barriers a chunk, 2 blocks per SM for begin/end arrays) executed far more
// instructions a segment on one-item begin/end segments and read them well below this
// one's rate.
//
// GapsAsHeads (begin/end arrays, for inclusive scans whose gap items are copied): every
// item in no segment is marked in `begins` as well, as a segment of its own, and nothing
// in `ends`: an inclusive scan of a one-item segment is its input, which is what a copied
// gap item gets, so the scan runs the gap-free code on one bitmap. A run marks its
// segments' gaps up to the next run's first begin (the first run from item 0, the last to
// n). In the window, a lane toggles the bits where its gaps begin and end (twice at one
// item cancels: an empty segment between two gaps), and the warp turns the toggles into
// the gaps' items with a prefix XOR, bit by bit within each word and by ballot across
// words. Sparser runs set each gap's bits in global memory, the warp storing the words
// wholly inside a gap together (set_bit_ranges), except that a gap of more than
// listed_range_words such words is listed, in pieces, in `ends` (unused otherwise; its
// first 16 bytes, which hold the list's count, cleared; max_listed_pieces says why the
// list fits) for set_listed_words_kernel, launched next.
template <int BlockThreads, int SegmentsPerLane, int WindowWords, int MinBlocksPerSm, bool Csr, bool GapsAsHeads,
          class Offset>
__global__ __launch_bounds__(BlockThreads, MinBlocksPerSm) void mark_segments_kernel(
    const Offset* begin, const Offset* end, index_t num_segments, index_t n, std::uint32_t* begins,
    std::uint32_t* ends, unsigned long long* error, unsigned* gaps_found) {
  static_assert(!(Csr && GapsAsHeads), "CSR offsets leave no gap between segments");
  constexpr int U = SegmentsPerLane;
  constexpr int run = 32 * U;
  constexpr int warps = BlockThreads / 32;
  constexpr int bitmaps = Csr ? 1 : 2;  // GapsAsHeads: the second holds the toggles
  static_assert(BlockThreads % 32 == 0 && WindowWords % 32 == 0, "whole warps, whole window rows");
  __shared__ std::uint32_t window_storage[warps][bitmaps][WindowWords];
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  std::uint32_t(&window)[bitmaps][WindowWords] = window_storage[warp];
  for (int i = lane; i < WindowWords; i += 32)
    for (int k = 0; k < bitmaps; ++k) window[k][i] = 0;
  __syncwarp();
  // The value past the last segment: CSR's last boundary, else n (the largest end allowed).
  const long long tail = Csr ? static_cast<long long>(begin[num_segments]) : n;
  const bool aligned = reinterpret_cast<std::uintptr_t>(begin) % 16 == 0 &&
                       (Csr || reinterpret_cast<std::uintptr_t>(end) % 16 == 0);
  const index_t stride = static_cast<index_t>(gridDim.x) * warps * run;
  bool marked_end = false;  // some gap begins in this lane's segments
  for (index_t s0 = (static_cast<index_t>(blockIdx.x) * warps + warp) * run; s0 < num_segments; s0 += stride) {
    const index_t first = s0 + static_cast<index_t>(lane) * U;
    long long b[U], e[U];
    load_offset_run<U>(begin, first, num_segments, tail, aligned, b);
    if constexpr (!Csr) load_offset_run<U>(end, first, num_segments, tail, aligned, e);
    // The next lane's first begin; the last lane's is the next run's (CSR: the boundary
    // after the run, which exists while s0 + run <= num_segments).
    long long next = __shfl_down_sync(~0u, b[0], 1);
    if (lane == 31) next = s0 + run < num_segments ? static_cast<long long>(begin[s0 + run]) : tail;
    // Each segment's next begin (registers renamed, nothing copied): CSR's end of it, and
    // where an end that differs from it leaves a gap.
    long long nb[U];
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
    for (int u = 0; u < U; ++u) nb[u] = u + 1 < U ? b[u + 1] : next;
    if constexpr (Csr) {
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
      for (int u = 0; u < U; ++u) e[u] = nb[u];
    }
    bool in_order = b[0] >= 0 && next <= n;
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
    for (int u = 0; u < U; ++u) in_order &= b[u] <= e[u] && e[u] <= nb[u];
    if (__any_sync(~0u, !in_order)) {
      bool bad = false;
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
      for (int u = 0; u < U; ++u) {
        const index_t s = first + u;
        if (s >= num_segments) break;
        segment_problem p = segment_problem::none;
        if (b[u] < 0 || b[u] > n)
          p = segment_problem::begin_out_of_range;
        else if (e[u] < 0 || e[u] > n)
          p = segment_problem::end_out_of_range;
        else if (e[u] < b[u])
          p = segment_problem::end_before_begin;
        else if (s + 1 < num_segments && nb[u] < e[u])
          p = segment_problem::out_of_order;
        if (p != segment_problem::none) {
          atomicMax(error, encode_segment_error(s, p));
          bad = true;
        }
      }
      if (__any_sync(~0u, bad)) continue;
    }
    if (begins == nullptr) continue;
    // The run's marks lie in items [lo, hi]: its first begin, and its last end (n - 1 at
    // most). GapsAsHeads: from item 0 in the first run, to the next run's first begin.
    long long lo = __shfl_sync(~0u, b[0], 0);
    long long hi;
    if constexpr (GapsAsHeads) {
      if (s0 == 0) lo = 0;
      const long long run_next = __shfl_sync(~0u, next, 31);
      hi = (run_next < n ? run_next : n) - 1;
    } else {
      const long long last_end = __shfl_sync(~0u, e[U - 1], 31);
      hi = last_end < n ? last_end : n - 1;
    }
    const long long lo_word = lo / 32;
    const long long words = hi / 32 - lo_word + 1;
    if (words <= 0) continue;  // every segment empty at n
    if constexpr (GapsAsHeads) {
      if (words > WindowWords) {
        bitmap_marker<long long> head_marks{begins};
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
        for (int u = 0; u < U; ++u)
          if (b[u] < e[u]) head_marks.mark(b[u]);
        head_marks.flush();
        const auto ranges = reinterpret_cast<unsigned long long*>(ends);
        // before segment 0:
        set_bit_ranges(begins, s0 == 0 && lane == 0 ? 0 : 1, s0 == 0 && lane == 0 ? b[0] : 0, ranges);
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
        for (int u = 0; u < U; ++u) set_bit_ranges(begins, e[u], nb[u] < n ? nb[u] : n, ranges);
        continue;
      }
      const auto base = static_cast<unsigned>(lo_word * 32);
      const auto last = static_cast<unsigned>(hi) - base;
      {
        bitmap_marker<unsigned> head_marks{window[0]};
        bitmap_marker<unsigned, true> toggles{window[1]};
        if (s0 == 0 && lane == 0 && b[0] > 0) {  // the items before segment 0: a gap from item 0
          toggles.mark(0u);
          if (static_cast<unsigned>(b[0]) - base <= last) toggles.mark(static_cast<unsigned>(b[0]) - base);
        }
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
        for (int u = 0; u < U; ++u) {
          const unsigned rb = static_cast<unsigned>(b[u]) - base, re = static_cast<unsigned>(e[u]) - base;
          if (rb < re) head_marks.mark(rb);
          if (e[u] < nb[u] && re <= last) {  // a gap [e, next begin): toggled where it starts and ends
            toggles.mark(re);
            const unsigned rn = static_cast<unsigned>(nb[u]) - base;
            if (rn <= last) toggles.mark(rn);
          }
        }
        head_marks.flush();
        toggles.flush();
      }
      __syncwarp();
      // Word i's gap items: the XOR of every toggle at or before each bit, from the run's
      // first word on (the bits within the word by five shifts, the words before it by the
      // parity of their toggles).
      const int span = static_cast<int>(words);
      const unsigned lanes_below = (1u << lane) - 1u;
      unsigned carry = 0;  // the parity of the toggles in the words before this round's
      for (int i0 = 0; i0 < span; i0 += 32) {
        const int i = i0 + lane;
        const unsigned t = i < span ? window[1][i] : 0u;
        unsigned in_gap = t;
        in_gap ^= in_gap << 1;
        in_gap ^= in_gap << 2;
        in_gap ^= in_gap << 4;
        in_gap ^= in_gap << 8;
        in_gap ^= in_gap << 16;
        const unsigned odd = __ballot_sync(~0u, (__popc(t) & 1) != 0);
        if ((carry + __popc(odd & lanes_below)) & 1) in_gap = ~in_gap;
        carry = (carry + __popc(odd)) & 1;
        if (i < span) {
          // Not past hi: the last gap's end is not toggled where it is the next run's first
          // begin (or n), and the items after it belong to that run (or to no item).
          const long long word_first = static_cast<long long>(base) + 32ll * i;
          if (word_first + 32 > hi + 1) in_gap &= (1u << (hi + 1 - word_first)) - 1u;
          window[1][i] = 0;
          window[0][i] |= in_gap;
          write_window_word(window[0][i], begins + lo_word + i, i == 0 || i == span - 1);
        }
      }
      __syncwarp();
      continue;
    }
    if (words > WindowWords) {
      bitmap_marker<long long> head_marks{begins}, end_marks{ends};
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
      for (int u = 0; u < U; ++u) {
        if (b[u] < e[u]) head_marks.mark(b[u]);
        if (!Csr && e[u] < n && e[u] != nb[u]) {
          end_marks.mark(e[u]);
          marked_end = true;
        }
      }
      head_marks.flush();
      end_marks.flush();
      continue;
    }
    // Items relative to the window's first word: 32-bit arithmetic from here.
    const auto base = static_cast<unsigned>(lo_word * 32);
    const auto last = static_cast<unsigned>(hi) - base;
    {
      bitmap_marker<unsigned> head_marks{window[0]}, end_marks{window[bitmaps - 1]};
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
      for (int u = 0; u < U; ++u) {
        const unsigned rb = static_cast<unsigned>(b[u]) - base, re = static_cast<unsigned>(e[u]) - base;
        if (rb < re) head_marks.mark(rb);
        if (!Csr && re <= last && e[u] != nb[u]) {
          end_marks.mark(re);
          marked_end = true;
        }
      }
      head_marks.flush();
      end_marks.flush();
    }
    __syncwarp();
    const int span = static_cast<int>(words);
    for (int i = lane; i < span; i += 32) {
      const bool shared_word = i == 0 || i == span - 1;  // other runs may mark it too
      write_window_word(window[0][i], begins + lo_word + i, shared_word);
      if constexpr (!Csr) write_window_word(window[1][i], ends + lo_word + i, shared_word);
    }
    __syncwarp();
  }
  // One word says whether any `ends` bit is set: without, the scan reads no `ends` word.
  if constexpr (!Csr)
    if (gaps_found != nullptr && __any_sync(~0u, marked_end) && lane == 0) atomicOr(gaps_found, 1u);
}

// Sets every word of the pieces the marking listed (set_bit_ranges) to all ones, a warp a
// piece (at most listed_range_words words: a few 16-byte stores a lane), grid-stride over
// the list; nothing where none is listed.
template <int BlockThreads>
__global__ __launch_bounds__(BlockThreads) void set_listed_words_kernel(std::uint32_t* bitmap,
                                                                        const unsigned long long* ranges) {
  constexpr int warps = BlockThreads / 32;
  const unsigned long long count = ranges[0];
  const auto lane = static_cast<index_t>(threadIdx.x % 32);
  const auto stride = static_cast<unsigned long long>(gridDim.x) * warps;
  for (auto r = static_cast<unsigned long long>(blockIdx.x) * warps + threadIdx.x / 32; r < count; r += stride) {
    const auto first = static_cast<index_t>(ranges[2 + 2 * r]), last = static_cast<index_t>(ranges[3 + 2 * r]);
    // Words [first, vector_first) and [vector_end, last] one by one, whole 16-byte vectors between.
    const auto misalignment = static_cast<index_t>(reinterpret_cast<std::uintptr_t>(bitmap + first) % 16 / 4);
    const index_t vector_first = first + (4 - misalignment) % 4;
    const index_t vectors = (last + 1 - vector_first) / 4;
    const index_t vector_end = vector_first + 4 * vectors;
    if (first + lane < vector_first && first + lane <= last) bitmap[first + lane] = ~0u;
    if (vector_end + lane <= last) bitmap[vector_end + lane] = ~0u;
    auto* const v = reinterpret_cast<uint4*>(bitmap + vector_first);
    for (index_t i = lane; i < vectors; i += 32) v[i] = make_uint4(~0u, ~0u, ~0u, ~0u);
  }
}
#endif  // defined(__CUDACC__)

}  // namespace onepass::detail
