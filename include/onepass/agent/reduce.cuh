// onepass/agent/reduce.cuh — the production reduce's kernels.
//
// reduce_kernel: the input is cut into segments of 32 * Items items. Every warp of the
// grid owns an even share of the full segments, contiguous and in order (warp g of W
// takes the g-th share), and the last warp also takes the partial segment at the end, so
// reading the warps' results in grid order is reading the input in order. Per segment,
// each lane issues Items / V 128-bit loads before it combines anything.
//   Commutative op: each lane folds its own items across all its segments in registers;
//     the warp combines its lanes once at the end.
//   Any other op: each segment is transposed to blocked order through shared memory (a
//     per-warp exchange), lanes fold their consecutive items, the warp reduces in lane
//     order, and lane 0 appends the segment's value to the warp's running value.
// The block combines its warps in order; the block's value goes to `partials` (or, with
// one block, init op value goes straight to `out`). A grid is only used when every warp
// owns a full segment, so partials are plain values; one block over a small input may
// have warps that own nothing, which maybe<T> carries.
//
// reduce_partials_kernel: one block combines the partials in order and writes
// init op (partials) to `out`. It is launched programmatically (launch_programmatic), so
// it is already resident when the first kernel finishes.
//
// No atomics, no dependence on timing: with the grid fixed by n and the device, every run
// combines the same values in the same order, so float results are bitwise reproducible.
#pragma once

#include <type_traits>

#include "onepass/block/block_exchange.cuh"
#include "onepass/block/block_load_store.cuh"
#include "onepass/block/block_reduce.cuh"
#include "onepass/detail/launch.cuh"
#include "onepass/detail/maybe.cuh"
#include "onepass/warp/warp_reduce.cuh"

namespace onepass::detail {

// The even share of S full segments over W warps: each warp gets q = S / W, the first
// r = S % W one more. Computed on the host: a 64-bit division is ~70 instructions on the
// GPU, as many as the rest of a small reduction's warp.
struct segment_split {
  index_t q, r;
};
inline segment_split split_segments(index_t segments, index_t warps) {
  return {segments / warps, segments % warps};
}

// Warp g owns full segments [begin, begin + count).
struct segment_share {
  index_t begin, count;
};
ONEPASS_HD ONEPASS_FORCEINLINE segment_share warp_share(segment_split split, index_t g) {
  return {g * split.q + (g < split.r ? g : split.r), split.q + (g < split.r ? 1 : 0)};
}

struct no_exchange {};

template <class T, int Threads, int Items, int V, bool Commutative>
struct reduce_shared {
  // Only the ordered path transposes segments.
  using exchange_storage =
      std::conditional_t<Commutative, no_exchange, typename warp_exchange<T, Items, V>::storage>;
  exchange_storage exchange[Threads / 32];
  maybe<T> warp_values[Threads / 32];  // one block: a warp may own nothing
  T full_warp_values[Threads / 32];    // a grid: every warp owns a segment
};

// The warp's value over its share; meaningful in lane 0.
template <bool Commutative, int Items, int V, class T, class Op, class Storage>
__device__ ONEPASS_FORCEINLINE maybe<T> reduce_warp_share(const T* in, index_t n, segment_split split, Op op,
                                                          Storage& exchange_storage) {
  constexpr index_t segment = 32 * Items;
  const maybe_op<Op> mop{op};
  const int lane = lane_id();
  const index_t warps = static_cast<index_t>(gridDim.x) * (blockDim.x / 32);
  const index_t g = static_cast<index_t>(blockIdx.x) * (blockDim.x / 32) + warp_id();
  const index_t full = n / segment;
  const segment_share share = warp_share(split, g);
  const bool has_tail = g == warps - 1 && n % segment != 0;
  const T* tail = in + full * segment;
  const long long tail_items = n - full * segment;
  T items[Items];

  if constexpr (Commutative) {
    // Each lane's own fold; the order of combination changes, the result does not.
    maybe<T> lane_value = nothing<T>();
    if (share.count > 0) {
      const T* p = in + share.begin * segment;
      load_vector_striped<32, V>(p, items, lane, segment);
      T acc = items[0];
#pragma unroll
      for (int k = 1; k < Items; ++k) acc = op(acc, items[k]);
      for (index_t s = 1; s < share.count; ++s) {
        load_vector_striped<32, V>(p + s * segment, items, lane, segment);
#pragma unroll
        for (int k = 0; k < Items; ++k) acc = op(acc, items[k]);
      }
      // Every lane holds a value: no "nothing" to carry, and a commutative op needs no
      // lane order (one redux.sync for 32-bit integers).
      if (!has_tail) return {warp_reduce<T>::reduce_commutative(acc, op), true};
      lane_value = {acc, true};
    }
    if (has_tail) {
      load_vector_striped<32, V>(tail, items, lane, tail_items);
#pragma unroll
      for (int k = 0; k < Items; ++k)
        if ((lane + (k / V) * 32) * V + k % V < tail_items) lane_value = mop(lane_value, {items[k], true});
    }
    return warp_reduce<maybe<T>>::reduce_to_lane0(lane_value, mop);
  } else {
    // Element order throughout: blocked items, lanes in order, segments in order.
    warp_exchange<T, Items, V> exchange(exchange_storage, lane);
    maybe<T> warp_value = nothing<T>();
    for (index_t s = 0; s < share.count; ++s) {
      load_vector_striped<32, V>(in + (share.begin + s) * segment, items, lane, segment);
      exchange.striped_to_blocked(items, items);
      __syncwarp();  // every lane has read the slots before the next segment overwrites them
      T acc = items[0];
#pragma unroll
      for (int k = 1; k < Items; ++k) acc = op(acc, items[k]);
      const T segment_value = warp_reduce<T>::reduce_to_lane0(acc, op);
      warp_value = mop(warp_value, {segment_value, true});
    }
    if (has_tail) {
      load_vector_striped<32, V>(tail, items, lane, tail_items);
      exchange.striped_to_blocked(items, items);
      maybe<T> lane_value = nothing<T>();
#pragma unroll
      for (int k = 0; k < Items; ++k)
        if (lane * Items + k < tail_items) lane_value = mop(lane_value, {items[k], true});
      warp_value = mop(warp_value, warp_reduce<maybe<T>>::reduce_to_lane0(lane_value, mop));
    }
    return warp_value;
  }
}

// The block's warps' values, combined in warp order; meaningful in thread 0. Every warp
// holds a value.
template <int Threads, class T, class Op>
__device__ ONEPASS_FORCEINLINE T combine_full_warps(T warp_value, T* slots, Op op) {
  constexpr int warps = Threads / 32;
  const int lane = lane_id();
  if (lane == 0) slots[warp_id()] = warp_value;
  __syncthreads();
  T v = warp_value;
  if (warp_id() == 0) {
    if (lane < warps) v = slots[lane];
    v = warp_reduce<T>::reduce_to_lane0(v, op, warps);
  }
  return v;
}

// The same when a warp may hold nothing (a one-block grid over a small input).
template <int Threads, class T, class Op>
__device__ ONEPASS_FORCEINLINE maybe<T> combine_warps(maybe<T> warp_value, maybe<T>* slots, Op op) {
  constexpr int warps = Threads / 32;
  const int lane = lane_id();
  if (lane == 0) slots[warp_id()] = warp_value;
  __syncthreads();
  maybe<T> v = nothing<T>();
  if (warp_id() == 0) {
    if (lane < warps) v = slots[lane];
    v = warp_reduce<maybe<T>>::reduce_to_lane0(v, maybe_op<Op>{op});
  }
  return v;
}

// MinBlocksPerSM: the tuning's blocks per SM, so the compiler keeps registers low enough
// for all of them to be resident. Programmatic: launched programmatically, so the grid
// before may still be writing the input (a wait that costs time when there is nothing to
// wait for: only compiled in when needed). EarlyDependents: the partials kernel is
// launched programmatically and may be scheduled now; it waits for this grid to finish.
template <class T, class Op, int Threads, int Items, int V, bool Commutative, int MinBlocksPerSM,
          bool Programmatic, bool EarlyDependents>
__global__ void __launch_bounds__(Threads, MinBlocksPerSM)
    reduce_kernel(const T* in, index_t n, segment_split split, T init, Op op, T* partials, T* out) {
  if constexpr (Programmatic) wait_for_prior_grids();
  if constexpr (EarlyDependents) allow_dependent_grids();
  __shared__ reduce_shared<T, Threads, Items, V, Commutative> shared;
  const maybe<T> warp_value =
      reduce_warp_share<Commutative, Items, V>(in, n, split, op, shared.exchange[warp_id()]);
  if (gridDim.x > 1) {
    // The dispatcher gives a grid only to inputs with a full segment for every warp.
    const T block_value = combine_full_warps<Threads>(warp_value.value, shared.full_warp_values, op);
    if (threadIdx.x == 0) partials[blockIdx.x] = block_value;
    return;
  }
  const maybe<T> block_value = combine_warps<Threads>(warp_value, shared.warp_values, op);
  if (threadIdx.x == 0) *out = block_value.valid ? op(init, block_value.value) : init;
}

// Programmatic: launched programmatically, so it must wait for the grid that writes the
// partials; otherwise stream order has done that already.
template <class T, class Op, int Threads, bool Programmatic>
__global__ void __launch_bounds__(Threads)
    reduce_partials_kernel(const T* partials, int count, T init, Op op, T* out) {
  if constexpr (Programmatic) wait_for_prior_grids();
  // Thread t combines its consecutive run of partials (count >= 2), then the block in
  // thread order; the threads that got a run are a prefix.
  const int per_thread = (count + Threads - 1) / Threads;
  const int begin = static_cast<int>(threadIdx.x) * per_thread;
  const int end = begin + per_thread < count ? begin + per_thread : count;
  T v{};
  if (begin < end) {
    v = partials[begin];
    for (int i = begin + 1; i < end; ++i) v = op(v, partials[i]);
  }
  using reduce_t = block_reduce<T, Threads>;
  __shared__ typename reduce_t::storage storage;
  v = reduce_t(storage).reduce(v, op, (count + per_thread - 1) / per_thread);
  if (threadIdx.x == 0) *out = op(init, v);
}

}  // namespace onepass::detail
