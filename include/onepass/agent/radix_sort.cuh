// onepass/agent/radix_sort.cuh — the production LSD radix sort's two kernels.
//
// A sort of bits [begin, end) is ceil((end - begin) / 8) stable counting passes over
// 8-bit digits, least significant first. Before the passes, one kernel reads the keys once
// and counts the digits of every pass (radix_histogram_kernel): that fixes where each
// digit's keys start in every pass's output. Each pass is then one kernel
// (radix_onesweep_kernel) that reads every key once and writes it once — the "onesweep"
// scheme (Adinets & Merrill, 2022): a tile must know, per digit, how many keys of that
// digit the tiles before it hold, and it learns that through the decoupled lookback with
// one interleaved tile state per digit (lookback/tile_state.cuh) instead of a separate
// counting pass.
//
// Per tile (one per block, claimed in execution order):
//   1. load the tile's keys (and values), warp-striped: item i of lane l of warp w is
//      key tile_begin + (w * ItemsPerThread + i) * 32 + l, so (w, i, l) is input order;
//   2. rank: per warp, item by item, lanes with the same digit find each other with
//      __match_any_sync; the lowest such lane bumps the warp's count of that digit in
//      shared memory — a key's rank among its warp's keys of its digit, in input order;
//   3. thread d (one per digit) turns the 8 warps' counts into offsets and the tile's
//      count; a block scan over digits gives where each digit starts inside the tile;
//   4. thread d publishes the tile's count of digit d, looks back for the count in all
//      earlier tiles, and publishes the inclusive count;
//   5. the keys are placed in shared memory in tile-sorted order (stable), then written
//      out by consecutive threads to consecutive positions of each digit's run; values
//      follow through the same shared memory.
// Inputs longer than a "portion" (2^28 keys) are sorted a portion per launch within each
// pass, so descriptor counts stay 32-bit. Where a digit's keys of portion q start cannot
// come from the up-front histogram (it counts the original array's portions, but pass
// p > 0 reads a permutation of it): the block holding a portion's last tile writes each
// digit's start for the next portion (its own start plus the portion's count), and the
// next launch, ordered after it on the stream, reads that.
#pragma once

#include "onepass/block/block_scan.cuh"
#include "onepass/detail/radix_key.cuh"
#include "onepass/functional.cuh"
#include "onepass/lookback/lookback.cuh"

namespace onepass::detail {

inline constexpr int radix_digit_bits = 8;
inline constexpr int radix_digits = 1 << radix_digit_bits;

// The digit of `key` in a pass over ordered bits [shift, shift + bits).
template <class Key>
__device__ ONEPASS_FORCEINLINE unsigned key_digit(Key key, int shift, int bits, bool descending) {
  return radix_digit(ordered_bits(key, descending), shift, bits);
}

// Counts, for every pass, how many keys have each digit: hist[pass * 256 + digit] +=
// count (hist zeroed beforehand). Grid: (blocks per portion, portions) to spread the
// work; each block strides over its portion, each
// thread with Unroll loads in flight (one 4-byte load per thread would leave DRAM idle).
// A warp whose 32 keys share a digit (sorted runs, few distinct keys) counts it with one
// shared-memory atomic instead of 32 to the same address, which would serialise.
template <class Key, int BlockThreads, int MaxPasses, int Unroll = 4>
__global__ void __launch_bounds__(BlockThreads)
    radix_histogram_kernel(const Key* keys, index_t n, index_t portion_items, int begin_bit, int end_bit,
                           bool descending, unsigned long long* hist) {
  __shared__ unsigned counts[MaxPasses][radix_digits];
  for (int i = threadIdx.x; i < MaxPasses * radix_digits; i += BlockThreads) (&counts[0][0])[i] = 0;
  __syncthreads();

  using bits_t = typename radix_key<Key>::bits_type;
  const int passes = (end_bit - begin_bit + radix_digit_bits - 1) / radix_digit_bits;
  const int lane = lane_id();
  const auto count = [&](bits_t bits, bool valid) {
    for (int p = 0; p < passes; ++p) {
      const int shift = begin_bit + p * radix_digit_bits;
      const int width = end_bit - shift < radix_digit_bits ? end_bit - shift : radix_digit_bits;
      const unsigned d = valid ? radix_digit(bits, shift, width) : radix_digits;  // past the end: no digit
      int all_same = 0;
      (void)__match_all_sync(full_warp_mask, d, &all_same);
      if (all_same) {
        if (lane == 0 && d < radix_digits) atomicAdd(&counts[p][d], 32u);
      } else if (d < radix_digits) {
        atomicAdd(&counts[p][d], 1u);
      }
    }
  };

  // Warp-uniform trip counts: every lane runs every iteration (the match needs all 32).
  const index_t portion_begin = static_cast<index_t>(blockIdx.y) * portion_items;
  const index_t portion_end = portion_begin + portion_items < n ? portion_begin + portion_items : n;
  const index_t stride = static_cast<index_t>(gridDim.x) * BlockThreads;
  const index_t warp_first = portion_begin + static_cast<index_t>(blockIdx.x) * BlockThreads + warp_id() * 32;
  for (index_t base = warp_first; base < portion_end; base += Unroll * stride) {
    bits_t bits[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      const index_t i = base + u * stride + lane;
      bits[u] = i < portion_end ? ordered_bits(keys[i], descending) : bits_t{0};
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) count(bits[u], base + u * stride + lane < portion_end);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < passes * radix_digits; i += BlockThreads) {
    const int p = i / radix_digits, d = i % radix_digits;
    if (const unsigned c = counts[p][d])
      atomicAdd(&hist[p * radix_digits + d], c);
  }
}

// One pass's digit: ordered bits [shift, shift + bits).
struct radix_pass {
  int shift;
  int bits;
};

// Where one launch of the onesweep kernel works: keys [begin, begin + items) of the
// whole array, and where each digit's keys of this portion start in the output: the
// first portion computes that from this pass's digit counts (`totals`, 256 of them);
// later ones read `starts_in`, which the previous portion's last tile wrote. With more
// portions to come, this one's last tile writes `starts_out` (else null).
struct radix_portion {
  index_t begin;
  index_t items;
  const unsigned long long* totals;
  const index_t* starts_in;  // null: the first portion
  index_t* starts_out;       // null: the last portion
};

template <class Key, class Value, int BlockThreads, int ItemsPerThread>
struct radix_onesweep_shared {
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
  static constexpr int warps = BlockThreads / 32;
  union {
    unsigned warp_counts[warps][radix_digits];  // ranking (steps 2-3)
    Key keys[tile_items];                       // tile-sorted keys (step 5)
    Value values[tile_items];                   // then the values
  };
  unsigned tile_start[radix_digits];  // where each digit starts inside the tile
  index_t global_base[radix_digits];  // where each digit's keys of this portion start
  index_t dest[radix_digits];         // output index of tile position j: dest[digit] + j
  typename block_scan<unsigned, BlockThreads>::storage scan;
  typename block_scan<index_t, BlockThreads>::storage scan64;
  index_t tile;
};

// Value = keys_only (the empty tag) sorts keys alone; values_in/out are then unused.
// `descriptors`: 256 interleaved tile_state<unsigned> of the portion's tiles, zeroed, and
// `counter` zeroed, before the launch. Grid: exactly the portion's tile count.
template <class Key, class Value, int BlockThreads, int ItemsPerThread, class Delay>
__global__ void __launch_bounds__(BlockThreads)
    radix_onesweep_kernel(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                          radix_portion portion, radix_pass pass, bool descending, void* descriptors,
                          lookback::tile_counter counter, Delay delay) {
  static_assert(BlockThreads == radix_digits, "one thread per digit");
  constexpr bool with_values = !std::is_empty_v<Value>;
  constexpr int N = ItemsPerThread;
  using shared_t = radix_onesweep_shared<Key, Value, BlockThreads, N>;
  constexpr int tile_items = shared_t::tile_items;
  __shared__ shared_t shared;

  const int lane = lane_id();
  const int warp = warp_id();
  const int digit = threadIdx.x;  // the digit this thread counts, publishes and looks back for
  if (threadIdx.x == 0) shared.tile = counter.claim();
  for (int i = lane; i < radix_digits; i += 32) shared.warp_counts[warp][i] = 0;
  __syncthreads();
  const index_t tile = shared.tile;
  const index_t tile_begin = tile * tile_items;
  const int tile_valid = static_cast<int>(portion.items - tile_begin < tile_items ? portion.items - tile_begin
                                                                                   : tile_items);

  // 1. Load (coalesced: each warp instruction reads 32 consecutive keys).
  Key keys[N];
  Value values[N];
  unsigned digits[N];
  const index_t warp_first = portion.begin + tile_begin + static_cast<index_t>(warp) * N * 32 + lane;
  const int warp_offset = warp * N * 32 + lane;  // item 0's position in the tile
#pragma unroll
  for (int i = 0; i < N; ++i) {
    if (warp_offset + i * 32 < tile_valid) {
      keys[i] = keys_in[warp_first + i * 32];
      if constexpr (with_values) values[i] = values_in[warp_first + i * 32];
    }
  }

  // Where each digit's keys of this portion start in the output: after every smaller
  // digit's keys (first portion), or where the previous portion left off.
  if (portion.starts_in) {
    shared.global_base[digit] = portion.starts_in[digit];
  } else {
    const auto total = static_cast<index_t>(portion.totals[digit]);
    index_t smaller_digits = 0, all;
    block_scan<index_t, BlockThreads>(shared.scan64).exclusive_prefix(total, plus{}, smaller_digits, all);
    shared.global_base[digit] = smaller_digits;
  }

  // 2. Rank within the warp, in input order. Past the end, digit radix_digits: those
  //    lanes match only each other and count nowhere.
  unsigned ranks[N];
  unsigned* warp_counts = shared.warp_counts[warp];
  const unsigned lanes_below = (1u << lane) - 1u;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    digits[i] = warp_offset + i * 32 < tile_valid ? key_digit(keys[i], pass.shift, pass.bits, descending)
                                                  : radix_digits;
    const unsigned peers = __match_any_sync(full_warp_mask, digits[i]);
    const int leader = __ffs(peers) - 1;
    unsigned before = 0;
    if (lane == leader && digits[i] < radix_digits) {
      before = warp_counts[digits[i]];
      warp_counts[digits[i]] = before + __popc(peers);
    }
    ranks[i] = __shfl_sync(full_warp_mask, before, leader) + __popc(peers & lanes_below);
    __syncwarp();  // the count's update is seen by the next item's leader, whichever lane
  }
  __syncthreads();

  // 3. Per digit: the warps' counts become offsets; the tile's count; where it starts.
  unsigned tile_count = 0;
#pragma unroll
  for (int w = 0; w < shared_t::warps; ++w) {
    const unsigned c = shared.warp_counts[w][digit];
    shared.warp_counts[w][digit] = tile_count;
    tile_count += c;
  }
  unsigned start = 0, tile_total;
  block_scan<unsigned, BlockThreads>(shared.scan).exclusive_prefix(tile_count, plus{}, start, tile_total);
  shared.tile_start[digit] = start;

  // 4. The lookback, one digit per thread: keys of this digit in the portion's earlier tiles.
  const lookback::tile_state<unsigned> state(descriptors, digit, radix_digits);
  unsigned earlier = 0;
  if (tile == 0) {
    delay(tile, lookback::tile_status::prefix);
    state.publish(tile, lookback::tile_status::prefix, tile_count);
  } else {
    delay(tile, lookback::tile_status::aggregate);
    state.publish(tile, lookback::tile_status::aggregate, tile_count);
    earlier = lookback::lookback_single(state, tile, plus{});
    delay(tile, lookback::tile_status::prefix);
    state.publish(tile, lookback::tile_status::prefix, earlier + tile_count);
  }
  // Tile position j of this digit goes to global_base + earlier + (j - start).
  shared.dest[digit] = shared.global_base[digit] + earlier - start;
  if (portion.starts_out && tile == (portion.items - 1) / tile_items)
    portion.starts_out[digit] = shared.global_base[digit] + earlier + tile_count;
  __syncthreads();

  // Each item's position in the tile-sorted order (read before the union is reused).
  unsigned positions[N];
#pragma unroll
  for (int i = 0; i < N; ++i)
    positions[i] = digits[i] < radix_digits
                       ? shared.tile_start[digits[i]] + shared.warp_counts[warp][digits[i]] + ranks[i]
                       : 0u;
  __syncthreads();

  // 5. Keys through shared memory in tile order, then out: thread t writes tile positions
  //    t, t + 256, ...; consecutive threads mostly write consecutive addresses of one
  //    digit's run.
#pragma unroll
  for (int i = 0; i < N; ++i)
    if (digits[i] < radix_digits) shared.keys[positions[i]] = keys[i];
  __syncthreads();
  unsigned out_digits[N];
#pragma unroll
  for (int k = 0; k < N; ++k) {
    const int j = k * BlockThreads + static_cast<int>(threadIdx.x);
    if (j < tile_valid) {
      const Key key = shared.keys[j];
      out_digits[k] = key_digit(key, pass.shift, pass.bits, descending);
      keys_out[shared.dest[out_digits[k]] + j] = key;
    }
  }
  if constexpr (with_values) {
    __syncthreads();
#pragma unroll
    for (int i = 0; i < N; ++i)
      if (digits[i] < radix_digits) shared.values[positions[i]] = values[i];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < N; ++k) {
      const int j = k * BlockThreads + static_cast<int>(threadIdx.x);
      if (j < tile_valid) values_out[shared.dest[out_digits[k]] + j] = shared.values[j];
    }
  }
}

}  // namespace onepass::detail
