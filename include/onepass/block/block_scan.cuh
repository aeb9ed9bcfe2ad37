// onepass/block/block_scan.cuh — scan across a thread block, built from warp scans.
//
// Each warp scans its lanes with shuffles, lane 31 of each warp writes the warp's total
// to shared memory, one barrier, and then every warp scans the (at most 32) warp totals
// itself with one more warp scan: one __syncthreads per block scan instead of two.
//
// Storage is owned by the caller (usually `__shared__ typename block_scan<..>::storage`).
// Calling a block_scan twice on the same storage needs a __syncthreads() in between.
// Blocks are one-dimensional; BlockThreads is a multiple of 32, at most 1024.
#pragma once

#include "onepass/warp/warp_scan.cuh"

namespace onepass {

template <class T, int BlockThreads>
class block_scan {
  static_assert(BlockThreads % 32 == 0 && BlockThreads >= 32 && BlockThreads <= 1024,
                "BlockThreads must be a multiple of 32 in [32, 1024]");
  static constexpr int warps = BlockThreads / 32;

 public:
  struct storage {
    T warp_totals[warps];
  };

  __device__ explicit block_scan(storage& s) : storage_(s) {}

  // The combination of the values of all lower-ranked threads, in `prefix`; returns
  // false (prefix untouched) in thread 0, which has none. block_total receives the
  // combination of all threads' values, in every thread.
  template <class Op>
  __device__ ONEPASS_FORCEINLINE bool exclusive_prefix(T x, Op op, T& prefix, T& block_total) {
    const int lane = detail::lane_id();
    const int warp = detail::warp_id();
    T warp_total;
    const T incl = warp_scan<T>::inclusive(x, op, warp_total);
    const T lane_prefix = detail::shfl_up(incl, 1);
    if constexpr (warps == 1) {
      block_total = warp_total;
      if (lane == 0) return false;
      prefix = lane_prefix;
      return true;
    } else {
      if (lane == detail::warp_threads - 1) storage_.warp_totals[warp] = warp_total;
      __syncthreads();
      // Every warp scans the warp totals redundantly: cheaper than a second barrier.
      T t = storage_.warp_totals[lane < warps ? lane : warps - 1];
      t = warp_scan<T>::inclusive(t, op);
      block_total = detail::shfl_idx(t, warps - 1);
      const T warp_prefix = detail::shfl_idx(t, warp > 0 ? warp - 1 : 0);
      if (warp == 0) {
        if (lane == 0) return false;
        prefix = lane_prefix;
      } else {
        prefix = lane == 0 ? warp_prefix : op(warp_prefix, lane_prefix);
      }
      return true;
    }
  }

  // Inclusive scan of one value per thread.
  template <class Op>
  __device__ ONEPASS_FORCEINLINE T inclusive(T x, Op op, T& block_total) {
    T prefix;
    return exclusive_prefix(x, op, prefix, block_total) ? op(prefix, x) : x;
  }
  template <class Op>
  __device__ ONEPASS_FORCEINLINE T inclusive(T x, Op op) {
    T total;
    return inclusive(x, op, total);
  }

  // Exclusive scan of one value per thread, seeded with init (thread 0 receives init).
  // block_total does not include init.
  template <class Op>
  __device__ ONEPASS_FORCEINLINE T exclusive(T x, T init, Op op, T& block_total) {
    T prefix;
    return exclusive_prefix(x, op, prefix, block_total) ? op(init, prefix) : init;
  }
  template <class Op>
  __device__ ONEPASS_FORCEINLINE T exclusive(T x, T init, Op op) {
    T total;
    return exclusive(x, init, op, total);
  }

  // Inclusive scan of N items per thread in blocked arrangement (thread t holds items
  // [t*N, t*N + N) of the block's sequence), in place.
  template <int N, class Op>
  __device__ ONEPASS_FORCEINLINE void inclusive(T (&items)[N], Op op, T& block_total) {
    scan_thread_items(items, op);
    T prefix;
    if (exclusive_prefix(items[N - 1], op, prefix, block_total)) {
#pragma unroll
      for (int i = 0; i < N; ++i) items[i] = op(prefix, items[i]);
    }
  }

  // Exclusive scan of N blocked items per thread, seeded with init, in place.
  template <int N, class Op>
  __device__ ONEPASS_FORCEINLINE void exclusive(T (&items)[N], T init, Op op, T& block_total) {
    scan_thread_items(items, op);
    T prefix;
    const T seed = exclusive_prefix(items[N - 1], op, prefix, block_total) ? op(init, prefix) : init;
    shift_exclusive(items, seed, op);
  }

  // Sequential inclusive scan of a thread's own items.
  template <int N, class Op>
  static __device__ ONEPASS_FORCEINLINE void scan_thread_items(T (&items)[N], Op op) {
#pragma unroll
    for (int i = 1; i < N; ++i) items[i] = op(items[i - 1], items[i]);
  }

  // Finishes a tile scan in which each thread has scanned its own items (inclusive):
  // folds in the prefix of everything before the thread — the tile's prefix (when the
  // tile has one), then the thread's prefix within the block (absent in thread 0) — and,
  // for an exclusive scan, shifts by one so the items become exclusive.
  template <bool Exclusive, int N, class Op>
  static __device__ ONEPASS_FORCEINLINE void apply_prefixes(T (&items)[N], bool has_tile_prefix,
                                                            const T& tile_prefix, bool has_thread_prefix,
                                                            const T& thread_prefix, Op op) {
    T seed = thread_prefix;
    bool has_seed = has_thread_prefix;
    if (has_tile_prefix) {
      seed = has_seed ? op(tile_prefix, thread_prefix) : tile_prefix;
      has_seed = true;
    }
    if constexpr (Exclusive) {
      shift_exclusive(items, seed, op);  // exclusive tiles always have a prefix (init at least)
    } else if (has_seed) {
#pragma unroll
      for (int i = 0; i < N; ++i) items[i] = op(seed, items[i]);
    }
  }

  // Turns a thread's inclusive items into exclusive ones seeded with `seed`:
  // items[0] = seed, items[i] = seed op (old) items[i-1].
  template <int N, class Op>
  static __device__ ONEPASS_FORCEINLINE void shift_exclusive(T (&items)[N], T seed, Op op) {
#pragma unroll
    for (int i = N - 1; i > 0; --i) items[i] = op(seed, items[i - 1]);
    items[0] = seed;
  }

 private:
  storage& storage_;
};

}  // namespace onepass
