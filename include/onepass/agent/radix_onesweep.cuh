// onepass/agent/radix_onesweep.cuh — one counting pass of the radix sort: the onesweep
// kernel. It claims a tile, copies the portion as it is when the pass moves nothing, and
// otherwise runs the tile's steps (agent/radix_onesweep_block.cuh).
#pragma once

#include "onepass/agent/radix_common.cuh"
#include "onepass/agent/radix_onesweep_block.cuh"

namespace onepass::detail {

// A pass in which every key has the same digit: the first copy_blocks claims (the blocks
// resident at the start) copy the whole portion as it is, grid-stride with 16-byte words;
// the rest leave at once. One tile per block copied as it is ran far below the copy
// bandwidth: a block's claim, load and store are too little in flight for its short life
// (docs/perf/radix_sort.md, "A pass whose keys share one digit is a copy").
// `copier`: the block's claim, by reference to shared memory so that it is read here, as
// the kernel read it before this was a function (by value, the comparison below compiled
// the other way round and moved a few instructions).
template <int BlockThreads, class Key, class Value>
__device__ ONEPASS_FORCEINLINE void radix_copy_portion(const Key* keys_in, Key* keys_out, const Value* values_in,
                                                       Value* values_out, const radix_portion& portion,
                                                       const index_t& copier) {
  const index_t copiers = portion.copy_blocks < static_cast<index_t>(gridDim.x) ? portion.copy_blocks
                                                                                 : static_cast<index_t>(gridDim.x);
  if (copier >= copiers) return;
  const index_t worker = copier * BlockThreads + static_cast<index_t>(threadIdx.x);
  const index_t workers = copiers * BlockThreads;
  copy_items_strided(keys_in + portion.begin, keys_out + portion.begin, portion.items, worker, workers);
  if constexpr (!std::is_empty_v<Value>)
    copy_items_strided(values_in + portion.begin, values_out + portion.begin, portion.items, worker, workers);
}

// Value = keys_only (the empty tag) sorts keys alone; values_in/out are then unused.
// `descriptors`: 256 interleaved count_states of the portion's tiles, zeroed, and
// `counter` zeroed, before the launch. Grid: exactly the portion's tile count; block:
// radix_onesweep_config's block_threads, with its shared_bytes of dynamic shared memory.
// Tuning: a type whose ::value is a tuning::radix_sort_tuning (the tile shape, the ranking,
// the lookback's parameters, where the values wait).
template <class Key, class Value, class Tuning, class Delay>
__global__ void __launch_bounds__(Tuning::value.onesweep_block_threads, Tuning::value.onesweep_min_blocks_per_sm)
    radix_onesweep_kernel(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                          radix_portion portion, radix_pass pass, bool descending, void* descriptors,
                          lookback::tile_counter counter, Delay delay) {
  using block = radix_onesweep_block<Key, Value, Tuning, Delay>;
  using config = typename block::config;
  constexpr tuning::radix_sort_tuning t = Tuning::value;
  constexpr int BlockThreads = block::BlockThreads;
  static_assert(BlockThreads >= radix_digits && BlockThreads % 32 == 0,
                "tuning: a onesweep block has a thread per digit, in whole warps");
  constexpr bool with_values = block::with_values;
  constexpr int N = block::N;
  static_assert(N % block::G == 0, "tuning: rank_group must divide the items per thread");
  using shared_t = typename block::shared_t;
  constexpr int tile_items = block::tile_items;
  extern __shared__ __align__(128) unsigned char onesweep_shared_bytes[];  // config::shared_bytes
  shared_t& shared = *reinterpret_cast<shared_t*>(onesweep_shared_bytes);

  const int lane = lane_id();
  const int warp = warp_id();
  // Threads 0..255 also count, publish and look back for one digit each (the rest hold
  // only items).
  const int digit = threadIdx.x;
  const bool digit_thread = BlockThreads == radix_digits || digit < radix_digits;
  // This pass's count of the thread's digit over the whole array, read while the claim's
  // round trip is in flight.
  const unsigned long long digit_total = digit_thread ? portion.totals[digit] : 0;
  // Where the digit's keys of this portion start in the output (for step 6), read under
  // the same round trip: loaded before the claim, stored to shared memory after it (a
  // store before it would wait for the load first, and thread 0 would make the two round
  // trips in series; docs/perf/radix_sort.md, "The claim waited for a load").
  const index_t digit_start = digit_thread ? portion.starts_in[digit] : 0;
  // In clusters (tuning.onesweep_cluster_blocks > 1) the grid may hold one block more than
  // the portion has tiles; that block claims none to process.
  constexpr bool clustered = t.onesweep_cluster_blocks > 1;
  if (threadIdx.x == 0) shared.tile = counter.claim();
  if (digit_thread) shared.digit_base[digit] = digit_start;
  unsigned* warp_offsets = shared.warp_offsets[warp];
  for (int i = lane; i < radix_digits; i += 32) warp_offsets[i] = 0;
  if constexpr (shared_t::rows > shared_t::warps)
    for (int i = lane; i < radix_digits; i += 32) shared.warp_offsets[shared_t::warps + warp][i] = 0;
  // A pass in which every key has the same digit (all keys equal; the upper passes of keys
  // in a small range) leaves every key where it is: stable, and no key has a smaller
  // digit to go after. Then the portion is copied as it is, with no ranking and no
  // lookback, and no descriptor nor `starts_out` is written (nobody in this pass reads
  // them). The barrier that publishes the claim tells the block.
  const bool pass_moves_nothing =
      __syncthreads_or(digit_total == static_cast<unsigned long long>(portion.n)) != 0;
  if (pass_moves_nothing) {  // uniform: the same answer in every block of the launch
    radix_copy_portion<BlockThreads>(keys_in, keys_out, values_in, values_out, portion, shared.tile);
    return;
  }
  // Asks L2 for a later tile's keys and values (portion.prefetch_tiles ahead), which that
  // tile's block will load a few microseconds from now: DRAM stays busy ahead of the
  // claims, while this block's own loads are capped by what a resident tile holds. (Here,
  // before `tile` below: placed after it, the uint64 keys kernel spilled 7 stores in its
  // full-tile path; scripts/radix-spill-check.sh.)
  if (threadIdx.x == 0 && portion.prefetch_tiles > 0) {
    prefetch_tile_l2(keys_in + portion.begin, shared.tile, portion.prefetch_tiles,
                     static_cast<index_t>(tile_items) * static_cast<index_t>(sizeof(Key)),
                     portion.items * static_cast<index_t>(sizeof(Key)));
    if constexpr (with_values)
      if (reinterpret_cast<std::uintptr_t>(values_in + portion.begin) % 16 == 0)
        prefetch_tile_l2(values_in + portion.begin, shared.tile, portion.prefetch_tiles,
                         static_cast<index_t>(tile_items) * static_cast<index_t>(sizeof(Value)),
                         portion.items * static_cast<index_t>(sizeof(Value)));
  }
  const index_t tile = shared.tile;
  const index_t tile_begin = tile * tile_items;
  if (clustered && tile_begin >= portion.items) {  // the grid's extra block: nothing to sort
    if constexpr (block::write_together) cluster_execution_barrier();  // its partner's barrier before step 7
    return;
  }
  const int tile_valid = static_cast<int>(portion.items - tile_begin < tile_items ? portion.items - tile_begin
                                                                                   : tile_items);
  const index_t warp_first = portion.begin + tile_begin + static_cast<index_t>(warp) * N * 32 + lane;
  const int warp_offset = warp * N * 32 + lane;
  const bool values_aligned =
      with_values && reinterpret_cast<std::uintptr_t>(values_in + portion.begin) % 16 == 0;
  const lookback::count_state<radix_digits> state(descriptors, digit);
  const block b{shared,      keys_in,      keys_out,   values_in,  values_out,   portion,        pass,
                descending,  delay,        lane,       warp,       digit,        digit_thread,   warp_offsets,
                tile,        tile_valid,   warp_first, warp_offset, values_aligned, state};
  if constexpr (config::subtiles == 2) {
    if (tile_valid == tile_items)
      b.template two_subtiles<true>();
    else
      b.template two_subtiles<false>();
  } else {
    if (tile_valid == tile_items)
      b.template one_tile<true>();
    else
      b.template one_tile<false>();
  }
}

}  // namespace onepass::detail
