// onepass/ladder/segmented_scan/warp_head_flags.cuh — id "warp_head_flags": the textbook
// head-flag segmented scan with warp shuffles, made device-wide in three steps.
//
// Scan (value, flag) pairs instead of values. In each Kogge–Stone step a lane takes the
// pair of the lane d below it; it folds that value into its own only if it has not seen a
// head yet, and the flags OR together:
//     lower = shfl_up(x, d);  if (lane >= d) { if (!x.head) x.value = lower.value op x.value;
//                                              x.head |= lower.head; }
// That step is op(lower, x) for the pair operator
//     (a, fa) . (b, fb) = (fb ? b : a op b, fa | fb),
// which is associative whenever op is (and not commutative): a segmented scan of values
// IS an ordinary scan of pairs. So the warp step is onepass::warp_scan's and the block
// step is onepass::block_scan's (warp totals and their flags through shared memory), on
// pairs. Over the device, in chunks of 1024 items, one per thread of a block:
//   1. every block scans its chunk and writes each item as far as the chunk knows it,
//      the chunk's total pair (the value since its last head, whether it has a head) and
//      how many of its items come before its first head;
//   2. the chunk totals are scanned as pairs: an ordinary inclusive scan, by the scan
//      ladder's warp_shuffle (one block walking them);
//   3. every chunk folds its carry (the scanned total of the chunk before it) into the
//      items before its first head, the only ones that depend on earlier chunks.
// Items cross device memory up to twice (step 3 rewrites the items before each chunk's
// first head: all of them when segments are long) and the carries are scanned by one
// block: correct for any n and segment lengths, not fast.
//
// Exclusive: step 1 writes init at a head and init op (the chunk's items since the last
// head) after one; an item before the chunk's first head gets the chunk's items before it
// alone (nothing for the chunk's first item), which step 3 seeds with init op carry.
#pragma once

#include <climits>
#include <cstdint>

#include "onepass/block/block_scan.cuh"
#include "onepass/ladder/scan/warp_shuffle.cuh"
#include "onepass/ladder/segmented_scan/common.cuh"

namespace onepass::ladder {
namespace detail {

constexpr int warp_head_flags_threads = 1024;  // one item per thread: a chunk is a block

template <class T>
struct flagged {
  T value;
  bool head;  // a head at or before this item, within the span the pair covers
};

template <class Op>
struct flagged_op {
  Op op;
  template <class T>
  ONEPASS_HD ONEPASS_FORCEINLINE flagged<T> operator()(const flagged<T>& a, const flagged<T>& b) const {
    return {b.head ? b.value : op(a.value, b.value), a.head || b.head};
  }
};

inline index_t warp_head_flags_chunks(index_t n) {
  return (n + warp_head_flags_threads - 1) / warp_head_flags_threads;
}

template <class T, class Flag, class Op>
__global__ void __launch_bounds__(warp_head_flags_threads)
    warp_head_flags_scan_chunks(const T* in, const Flag* head_flags, index_t n, T* out, bool exclusive, T init, Op op,
                                flagged<T>* totals, int* before_first_head) {
  using scan_t = block_scan<flagged<T>, warp_head_flags_threads>;
  __shared__ typename scan_t::storage storage;
  const flagged_op<Op> pair_op{op};
  const int t = static_cast<int>(threadIdx.x);
  const index_t i = static_cast<index_t>(blockIdx.x) * warp_head_flags_threads + t;
  // Threads past the end repeat the last item without a head: only the last chunk's
  // total, which no later chunk reads, and its count of items before the head see them.
  const flagged<T> x = i < n ? flagged<T>{in[i], i == 0 || static_cast<bool>(head_flags[i])}
                             : flagged<T>{in[n - 1], false};
  flagged<T> prefix{}, total;  // prefix: the pair of the chunk's items before i (none for t == 0)
  const bool has_prefix = scan_t(storage).exclusive_prefix(x, pair_op, prefix, total);
  const flagged<T> inclusive = has_prefix ? pair_op(prefix, x) : x;
  // Whether a head is at or before an item only turns on along the chunk: the items
  // without one are the first ones, and counting them finds the first head.
  const int before_head = __syncthreads_count(!inclusive.head);
  if (t == 0) {
    totals[blockIdx.x] = total;
    before_first_head[blockIdx.x] = before_head;
  }
  // Each thread rewrites only the item it read (and all reads precede the scan's
  // barrier): in == out works.
  if (i >= n) return;
  if (!exclusive) {
    out[i] = inclusive.value;
  } else if (x.head) {
    out[i] = init;
  } else if (has_prefix) {
    out[i] = prefix.head ? op(init, prefix.value) : prefix.value;  // the latter finished in step 3
  }
}

// scanned_totals: inclusive scan of the chunk totals; chunk c's carry is entry c - 1.
// One block per chunk after the first (chunk 0 starts with item 0, a head).
template <class T, class Op>
__global__ void __launch_bounds__(warp_head_flags_threads)
    warp_head_flags_add_carry(T* out, index_t n, const flagged<T>* scanned_totals, const int* before_first_head,
                              bool exclusive, T init, Op op) {
  const int t = static_cast<int>(threadIdx.x);
  const index_t chunk = static_cast<index_t>(blockIdx.x) + 1;
  const index_t i = chunk * warp_head_flags_threads + t;
  if (i >= n || t >= before_first_head[chunk]) return;
  const T carry = scanned_totals[chunk - 1].value;
  if (!exclusive) {
    out[i] = op(carry, out[i]);
  } else {
    const T seed = op(init, carry);
    out[i] = t > 0 ? op(seed, out[i]) : seed;
  }
}

}  // namespace detail

struct warp_head_flags {
  static constexpr const char* id = "warp_head_flags";
  static constexpr const char* summary =
      "warp-shuffle scan of (value, flag) pairs per 1024-item chunk, chunk carries scanned as pairs, carries added";
  static constexpr bool has_flags = true, has_offsets = false, has_by_key = false, has_begin_end = false;
  // Largest n whose chunk count fits a one-dimensional grid.
  static constexpr index_t max_items = static_cast<index_t>(INT_MAX) * detail::warp_head_flags_threads;
  // Passes over the values for these head flags (host memory), 1 = every item read once
  // and written once: step 3 reads and rewrites the items before each chunk's first head,
  // in every chunk but the first (whose item 0 is a head). One segment: about 2.
  static double flags_passes(const std::uint8_t* head_flags, index_t n) {
    if (n <= 0) return 1.0;
    constexpr index_t chunk = detail::warp_head_flags_threads;
    index_t twice = 0;  // items step 3 moves again
    for (index_t first = chunk; first < n; first += chunk) {
      const index_t end = first + chunk < n ? first + chunk : n;
      index_t i = first;
      while (i < end && head_flags[i] == 0) ++i;
      twice += i - first;
    }
    return 1.0 + static_cast<double>(twice) / static_cast<double>(n);
  }

  // Workspace: [chunk totals][items before each chunk's first head], 16-byte aligned.
  template <class T>
  static std::size_t totals_bytes(index_t n) {
    return detail::round_up_16(static_cast<std::size_t>(detail::warp_head_flags_chunks(n)) *
                               sizeof(detail::flagged<T>));
  }
  template <class T, class Key = int, class Op = plus>
  static std::size_t workspace_bytes(index_t n) {
    if (n <= 0) return 0;
    return totals_bytes<T>(n) + detail::round_up_16(static_cast<std::size_t>(detail::warp_head_flags_chunks(n)) *
                                                    sizeof(int));
  }

  template <class T, class Flag, class Op>
  static void run_flags(const T* in, const Flag* head_flags, index_t n, T* out, scan_kind kind, T init, Op op,
                        workspace ws, cudaStream_t stream) {
    detail::check_segmented_scan_values(id, max_items, in, n, out);
    const onepass::detail::flag_heads<Flag> heads{head_flags};
    onepass::detail::check_heads(heads, n, out);
    onepass::detail::check_workspace(ws, workspace_bytes<T>(n));
    onepass::detail::check_segmented_scan_memory(in, n, out);
    onepass::detail::check_heads_memory(heads, n);
    if (n == 0) return;

    const bool exclusive = kind == scan_kind::exclusive;
    const index_t chunks = detail::warp_head_flags_chunks(n);
    auto* totals = static_cast<detail::flagged<T>*>(ws.data);
    auto* before_first_head = reinterpret_cast<int*>(static_cast<unsigned char*>(ws.data) + totals_bytes<T>(n));
    constexpr int threads = detail::warp_head_flags_threads;
    onepass::detail::launch(detail::warp_head_flags_scan_chunks<T, Flag, Op>, static_cast<unsigned>(chunks),
                            threads, 0, stream, in, head_flags, n, out, exclusive, init, op, totals,
                            before_first_head);
    if (chunks == 1) return;
    // An ordinary scan of the totals as pairs, in place.
    const detail::flagged_op<Op> pair_op{op};
    warp_shuffle::run_unchecked(static_cast<const detail::flagged<T>*>(totals), chunks, totals,
                                scan_kind::inclusive, detail::flagged<T>{}, pair_op, workspace{}, stream);
    onepass::detail::launch(detail::warp_head_flags_add_carry<T, Op>, static_cast<unsigned>(chunks - 1), threads, 0,
                            stream, out, n, static_cast<const detail::flagged<T>*>(totals),
                            static_cast<const int*>(before_first_head), exclusive, init, op);
  }
};

}  // namespace onepass::ladder
