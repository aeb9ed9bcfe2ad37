// onepass/agent/radix_onesweep_block.cuh — the steps of one onesweep tile (steps 1-7 of
// agent/radix_sort.cuh's description), for radix_onesweep_kernel (agent/radix_onesweep.cuh).
//
// radix_onesweep_block holds what the kernel computed before the steps (the claimed tile,
// the thread's digit, its place in the tile) and has one function per step: load, count,
// scan the counts and publish, rank and place, look back, write out; for one sub-tile a
// block (one_tile) and for two (two_subtiles). The keys, values, digits and positions are
// the steps' arguments, held in registers; everything is inlined into the kernel.
#pragma once

#include "onepass/agent/radix_common.cuh"

namespace onepass::detail {

template <class Key, class Value, class Tuning, class Delay>
struct radix_onesweep_block {
  using config = radix_onesweep_config<Key, Value, Tuning>;
  static constexpr tuning::radix_sort_tuning t = Tuning::value;
  static constexpr int BlockThreads = t.onesweep_block_threads;
  static constexpr bool with_values = !std::is_empty_v<Value>;
  static constexpr int N = t.onesweep_items_per_thread;
  static constexpr int G = t.rank_group;
  static constexpr tuning::radix_value_load value_load = config::value_load;
  static constexpr bool stage_values = config::stage_values;
  static constexpr bool values_with_keys = with_values && value_load == tuning::radix_value_load::with_keys;
  static constexpr bool keys_apart = config::keys_apart;
  static constexpr bool write_together = t.onesweep_cluster_blocks > 1 && t.cluster_write_together;
  using shared_t = typename config::shared_type;
  static constexpr int tile_items = shared_t::tile_items;

  shared_t& shared;
  const Key* keys_in;
  Key* keys_out;
  const Value* values_in;
  Value* values_out;
  const radix_portion& portion;
  const radix_pass& pass;
  bool descending;
  Delay& delay;
  int lane;
  int warp;
  int digit;
  bool digit_thread;
  unsigned* warp_offsets;
  index_t tile;
  int tile_valid;
  index_t warp_first;  // item 0's index in the input
  int warp_offset;     // item 0's position in the tile
  bool values_aligned;
  const lookback::count_state<radix_digits>& state;

  __device__ ONEPASS_FORCEINLINE unsigned digit_of(Key key) const {
    return key_digit(key, pass.shift, pass.bits, descending);
  }

  // Step 3's publication by thread d: the tile's count of digit d, as the AGGREGATE (tile
  // 0: as the PREFIX, there being nothing before it).
  __device__ ONEPASS_FORCEINLINE void publish_tile_count(unsigned tile_count) const {
    if (tile == 0) {
      delay(tile, lookback::tile_status::prefix);
      state.publish(tile, lookback::tile_status::prefix, tile_count);
    } else {
      delay(tile, lookback::tile_status::aggregate);
      state.publish(tile, lookback::tile_status::aggregate, tile_count);
    }
  }

  // Step 6 by thread d: the lookback for the keys of digit d in the portion's earlier
  // tiles, the inclusive count published, and where tile position j of digit d goes:
  // digit_base[d] + j. start_of() gives where digit d starts in the tile-sorted order;
  // read once the lookback is done (kept in shared memory, it need not wait in a register).
  // In clusters that write together the barrier that follows step 6 (all of a cluster's
  // blocks, on one GPC, their tiles claimed at about the same time, start their writes
  // together) comes after this: every block has published its inclusive counts before it
  // waits there, so no lookback waits on it. (Faster for pairs where clusters are used:
  // docs/perf/radix_sort.md, "Clusters".)
  template <class StartOf>
  __device__ ONEPASS_FORCEINLINE void look_back(unsigned tile_count, StartOf start_of) const {
    unsigned earlier = 0;
    if (tile != 0) {
      earlier = lookback::lookback_counts<t.lookback_window>(state, tile, t.lookback_first_pause_ns);
      delay(tile, lookback::tile_status::prefix);
      state.publish(tile, lookback::tile_status::prefix, earlier + tile_count);
    }
    // Tile position j of this digit goes to portion start + earlier + (j - start).
    const unsigned start = start_of();
    const index_t portion_start = shared.digit_base[digit];
    shared.digit_base[digit] = portion_start + earlier - start;
    if (portion.starts_out && tile == (portion.items - 1) / tile_items)
      portion.starts_out[digit] = portion_start + earlier + tile_count;
  }

  // Step 6 and the barriers before step 7, the same for both tile forms.
  template <class StartOf>
  __device__ ONEPASS_FORCEINLINE void look_back_then_sync(unsigned tile_count, StartOf start_of) const {
    if (digit_thread) look_back(tile_count, start_of);
    __syncthreads();
    if constexpr (write_together) cluster_execution_barrier();
  }

  // ---- One sub-tile a block: a full tile (Full: no bounds checks, no sentinel digit in
  // the ranking) or the portion's last, partial one.

  // Item i of this thread (tile position warp_offset + i * 32) exists.
  template <bool Full>
  __device__ ONEPASS_FORCEINLINE bool valid(int i) const {
    return Full || warp_offset + i * 32 < tile_valid;
  }

  // 1. Load (coalesced: each warp instruction reads 32 consecutive keys). Values go
  //    straight to shared memory (async_to_shared) or to registers (with_keys).
  template <bool Full>
  __device__ ONEPASS_FORCEINLINE void load(Key (&keys)[N], Value (&values)[N]) const {
#pragma unroll
    for (int i = 0; i < N; ++i) {
      if (valid<Full>(i)) {
        keys[i] = keys_in[warp_first + i * 32];
        if constexpr (values_with_keys) values[i] = values_in[warp_first + i * 32];
      }
    }
    if constexpr (stage_values) {
      // The warp's N * 32 values are contiguous both in the input and in staged_values, so
      // in a full tile whose values are 16-byte aligned the warp copies them as 16-byte
      // chunks, lane by lane (a quarter or half of the copies one value each would take:
      // those filled the load/store queue ahead of the key loads, docs/perf/radix_sort.md).
      // The lanes then read each other's chunks, after every thread's wait and a barrier.
      constexpr int per_chunk = 16 / static_cast<int>(sizeof(Value));
      constexpr int chunks = N * 32 / per_chunk;
      constexpr bool whole_rounds = chunks % 32 == 0;  // every lane copies as many chunks
      if (whole_rounds && Full && values_aligned) {
        const Value* from = values_in + warp_first + (per_chunk - 1) * lane;
        Value* to = &shared.staged_values[warp_offset + (per_chunk - 1) * lane];
#pragma unroll
        for (int k = 0; k < chunks / 32; ++k) cp_async_16(to + k * 32 * per_chunk, from + k * 32 * per_chunk);
      } else {
#pragma unroll
        for (int i = 0; i < N; ++i)
          if (valid<Full>(i))
            cp_async_element<sizeof(Value)>(&shared.staged_values[warp_offset + i * 32],
                                            &values_in[warp_first + i * 32]);
      }
      cp_async_commit();
    }
  }

  // 2. Each warp counts its keys per digit (one shared-memory add per key). Items past
  //    the end get the digit radix_digits, which matches no real digit in the ranking.
  //    Keys apart: the digits are not kept, the ranking takes them from the keys again.
  template <bool Full, int Held>
  __device__ ONEPASS_FORCEINLINE void count(const Key (&keys)[N], unsigned (&held_digits)[Held]) const {
#pragma unroll
    for (int i = 0; i < N; ++i) {
      if constexpr (keys_apart) {
        if (valid<Full>(i)) atomicAdd(&warp_offsets[digit_of(keys[i])], 1u);
      } else {
        held_digits[i] = valid<Full>(i) ? digit_of(keys[i]) : radix_digits;
        if (valid<Full>(i)) atomicAdd(&warp_offsets[held_digits[i]], 1u);
      }
    }
    __syncthreads();
  }

  // 3. Thread d: the tile's count of digit d, published at once — before the ranking, so
  //    that successors looking back find it as early as possible; then where digit d
  //    starts in the tile (a block scan), and where each warp's keys of digit d start.
  //    Keys apart: the warps' counts are read from shared memory twice rather than held
  //    in registers across the block scan, and the digit's start within the tile waits
  //    for step 6 in shared memory, not in a register through the ranking (one register
  //    less at the kernel's peak). Returns the tile's count of digit d; `start` gets where
  //    it starts in the tile.
  __device__ ONEPASS_FORCEINLINE unsigned scan_counts(unsigned& start) const {
    [[maybe_unused]] unsigned per_warp[keys_apart ? 1 : shared_t::warps];
    unsigned tile_count = 0;
    if (digit_thread) {
#pragma unroll
      for (int w = 0; w < shared_t::warps; ++w) {
        const unsigned count = shared.warp_offsets[w][digit];
        if constexpr (!keys_apart) per_warp[w] = count;
        tile_count += count;
      }
      publish_tile_count(tile_count);
    }
    unsigned tile_total;
    block_scan<unsigned, BlockThreads>(shared.scan).exclusive_prefix(tile_count, plus{}, start, tile_total);
    if (keys_apart && digit_thread) shared.tile_start[digit] = start;
    if (digit_thread) {
      unsigned offset = start;
#pragma unroll
      for (int w = 0; w < shared_t::warps; ++w) {
        unsigned count;
        if constexpr (keys_apart)
          count = shared.warp_offsets[w][digit];
        else
          count = per_warp[w];
        shared.warp_offsets[w][digit] = offset;
        offset += count;
      }
    }
    __syncthreads();
    return tile_count;
  }

  // 4-5. Rank, in input order: lanes with the same digit find each other; the lowest one
  //      advances the warp's offset of that digit by their number. A key's position in the
  //      tile-sorted order is that offset plus the matching lanes below it. Then the keys
  //      go to shared memory in tile order, while predecessors publish; keys apart: each
  //      as soon as it is ranked.
  //      Keys apart: the digits are extracted from the keys again (two or three
  //      instructions a key) rather than held from step 2 through step 3. The keys pass
  //      through an empty asm first, so that the compiler cannot reuse step 2's digits.
  //      (The pairs, over the offsets, measured faster with the digits, the warps' counts
  //      and the digit starts as they were: docs/perf/radix_sort.md, "Why CUB sorts int32
  //      faster than uint32, and keys apart".)
  template <bool Full, int Held>
  __device__ ONEPASS_FORCEINLINE void rank_and_place(Key (&keys)[N], const unsigned (&held_digits)[Held],
                                                     unsigned (&positions)[N]) const {
    if constexpr (keys_apart) {
#pragma unroll
      for (int i = 0; i < N; ++i) opaque_in_register(keys[i]);
    }
    const unsigned lanes_below = (1u << lane) - 1u;
    // G items at a time: their matches first, then their offset updates, then positions.
#pragma unroll
    for (int g = 0; g < N; g += G) {
      unsigned digits[G];  // items past the end: radix_digits, which matches no real digit
#pragma unroll
      for (int k = 0; k < G; ++k) {
        if constexpr (keys_apart)
          digits[k] = valid<Full>(g + k) ? digit_of(keys[g + k]) : radix_digits;
        else
          digits[k] = held_digits[g + k];
      }
      unsigned peers[G];
#pragma unroll
      for (int k = 0; k < G; ++k)  // the sentinel radix_digits has bit radix_digit_bits set
        peers[k] = warp_match_digit<Full ? radix_digit_bits : radix_digit_bits + 1>(digits[k]);
      // An atomic, not a load and a store: the next item's add need not wait for this one's
      // result, so the items' adds pipeline. Stability needs one warp's shared-memory
      // atomics to be performed in the order the warp issues them (item by item), which is
      // how the SM executes them; CUB's WARP_MATCH_ANY ranking relies on the same.
      unsigned before[G];
#pragma unroll
      for (int k = 0; k < G; ++k) {
        const bool leader = lane == __ffs(peers[k]) - 1 && valid<Full>(g + k);
        // Keys apart: a predicated atomic, no branch around it (the uint64 kernel spilled
        // without it); over the offsets the branch measured faster (docs/perf/radix_sort.md).
        if constexpr (keys_apart) {
          before[k] = shared_add_if(leader, &warp_offsets[digits[k]], __popc(peers[k]));
        } else {
          before[k] = 0;
          if (leader) before[k] = atomicAdd(&warp_offsets[digits[k]], __popc(peers[k]));
        }
      }
#pragma unroll
      for (int k = 0; k < G; ++k)
        positions[g + k] =
            __shfl_sync(full_warp_mask, before[k], __ffs(peers[k]) - 1) + __popc(peers[k] & lanes_below);
      if constexpr (keys_apart) {
#pragma unroll
        for (int k = 0; k < G; ++k)
          if (valid<Full>(g + k)) shared.keys()[positions[g + k]] = keys[g + k];
      }
    }
    if constexpr (!keys_apart) {
      __syncthreads();  // every rank is taken before the keys overwrite the offsets
#pragma unroll
      for (int i = 0; i < N; ++i)
        if (valid<Full>(i)) shared.keys()[positions[i]] = keys[i];
    }
  }

  // 7, keys. Thread t writes tile positions t, t + BlockThreads, ...; consecutive threads
  //    mostly write consecutive addresses of one digit's run. Four keys a loop step, unless
  //    their digits are held for the values (then unrolled whole, so that out_digits stays
  //    in registers): the keys-alone sorts unrolled whole measured slower
  //    (docs/perf/radix_sort.md, "Output addresses a digit at a time").
  static constexpr bool hold_digits = with_values && !keys_apart;
  template <bool Full>
  __device__ ONEPASS_FORCEINLINE void write_keys(unsigned (&out_digits)[hold_digits ? N : 1]) const {
    constexpr int keys_out_unroll = hold_digits ? N : 4;
#pragma unroll(keys_out_unroll)
    for (int k = 0; k < N; ++k) {
      const int j = k * BlockThreads + static_cast<int>(threadIdx.x);
      if (Full || j < tile_valid) {
        const Key key = shared.keys()[j];
        const unsigned d = digit_of(key);
        keys_out[shared.digit_base[d] + j] = key;
        if constexpr (hold_digits) out_digits[k] = d;
      }
    }
  }

  // 7, values. They follow their keys through the shared memory the ranking used.
  template <bool Full>
  __device__ ONEPASS_FORCEINLINE void write_values(Value (&values)[N], const unsigned (&positions)[N],
                                                   const unsigned (&out_digits)[hold_digits ? N : 1]) const {
    if constexpr (value_load == tuning::radix_value_load::after_keys) {
#pragma unroll
      for (int i = 0; i < N; ++i)
        if (valid<Full>(i)) values[i] = values_in[warp_first + i * 32];
    }
    if constexpr (stage_values) cp_async_wait<0>();  // this thread's copies; the barrier: everyone's
    __syncthreads();  // every key is written out (overlaid: the values take their place)
#pragma unroll
    for (int i = 0; i < N; ++i) {
      if (valid<Full>(i)) {
        if constexpr (stage_values)
          shared.values[positions[i]] = shared.staged_values[warp_offset + i * 32];
        else
          shared.values[positions[i]] = values[i];
      }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < N; ++k) {
      const int j = k * BlockThreads + static_cast<int>(threadIdx.x);
      if (Full || j < tile_valid) {
        // Keys apart are still in place: their digits are taken again, not held.
        unsigned d;
        if constexpr (hold_digits)
          d = out_digits[k];
        else
          d = digit_of(shared.keys()[j]);
        values_out[shared.digit_base[d] + j] = shared.values[j];
      }
    }
  }

  // Steps 1-7 for one sub-tile a block.
  template <bool Full>
  __device__ ONEPASS_FORCEINLINE void one_tile() const {
    Key keys[N];
    [[maybe_unused]] Value values[N];
    load<Full>(keys, values);
    [[maybe_unused]] unsigned held_digits[keys_apart ? 1 : N];
    count<Full>(keys, held_digits);
    unsigned start = 0;
    const unsigned tile_count = scan_counts(start);
    unsigned positions[N];
    rank_and_place<Full>(keys, held_digits, positions);
    look_back_then_sync(tile_count, [&] { return keys_apart ? shared.tile_start[digit] : start; });
    [[maybe_unused]] unsigned out_digits[hold_digits ? N : 1];
    write_keys<Full>(out_digits);
    if constexpr (with_values) write_values<Full>(values, positions, out_digits);
  }

  // ---- Two sub-tiles a block (tuning.onesweep_subtiles == 2): the block ranks sub-tiles
  // 0 and 1 (tile positions [0, S) and [S, 2S), S = BlockThreads * N) with one tile's
  // registers and writes them out as one tile, so every digit's run in the output is twice
  // as long as one sub-tile's. Both sub-tiles' keys are loaded and counted first (sub-tile
  // s's warp w in row s * warps + w); one scan over the rows orders each digit's keys of
  // sub-tile 0 before those of sub-tile 1 (stable). Sub-tile 1 is ranked from the
  // registers; sub-tile 0's keys are loaded again (from L2: they were read microseconds
  // ago) and ranked. Each key is stored at its tile-sorted position as it is ranked, and
  // each item's position waits in 16 bits, two to a register, for its value.

  static constexpr int sub_items = BlockThreads * N;

  // Item i of this thread in sub-tile s (tile position s * sub_items + warp_offset + i * 32) exists.
  template <bool Full>
  __device__ ONEPASS_FORCEINLINE bool valid(int s, int i) const {
    return Full || s * sub_items + warp_offset + i * 32 < tile_valid;
  }

  // 1-2. Load both sub-tiles' keys (two sub-tiles of loads in flight) and count them;
  //      sub-tile 1's stay in `keys`.
  template <bool Full>
  __device__ ONEPASS_FORCEINLINE void load_and_count_both(Key (&keys)[N]) const {
    constexpr int warps = shared_t::warps;
    Key first[N];
#pragma unroll
    for (int i = 0; i < N; ++i) {
      if (valid<Full>(0, i)) first[i] = keys_in[warp_first + i * 32];
      if (valid<Full>(1, i)) keys[i] = keys_in[warp_first + sub_items + i * 32];
    }
#pragma unroll
    for (int i = 0; i < N; ++i)
      if (valid<Full>(0, i)) atomicAdd(&warp_offsets[digit_of(first[i])], 1u);
#pragma unroll
    for (int i = 0; i < N; ++i)
      if (valid<Full>(1, i)) atomicAdd(&shared.warp_offsets[warps + warp][digit_of(keys[i])], 1u);
    __syncthreads();
  }

  // 3. Thread d publishes the tile's count of digit d, then (block scan) where digit d
  //    starts in the tile and where each row's keys of digit d start.
  __device__ ONEPASS_FORCEINLINE unsigned scan_row_counts() const {
    unsigned tile_count = 0;
    if (digit_thread) {
#pragma unroll
      for (int r = 0; r < shared_t::rows; ++r) tile_count += shared.warp_offsets[r][digit];
      publish_tile_count(tile_count);
    }
    unsigned start = 0, tile_total;
    block_scan<unsigned, BlockThreads>(shared.scan).exclusive_prefix(tile_count, plus{}, start, tile_total);
    if (digit_thread) {
      shared.tile_start[digit] = start;
      unsigned offset = start;
#pragma unroll
      for (int r = 0; r < shared_t::rows; ++r) {
        const unsigned count = shared.warp_offsets[r][digit];
        shared.warp_offsets[r][digit] = offset;
        offset += count;
      }
    }
    __syncthreads();
    return tile_count;
  }

  // 4-5. Rank sub-tile S's keys (in input order, G items at a time, as one_tile's keys
  //      apart do) and store each at its tile-sorted position; its position goes to the
  //      low (S = 0) or high (S = 1) 16 bits of positions[i].
  template <bool Full, int S>
  __device__ ONEPASS_FORCEINLINE void rank_subtile(const Key (&keys)[N], unsigned lanes_below,
                                                   unsigned (&positions)[N]) const {
    unsigned* const offsets = shared.warp_offsets[S * shared_t::warps + warp];
#pragma unroll
    for (int g = 0; g < N; g += G) {
      unsigned digits[G];  // items past the end: radix_digits, which matches no real digit
#pragma unroll
      for (int k = 0; k < G; ++k) digits[k] = valid<Full>(S, g + k) ? digit_of(keys[g + k]) : radix_digits;
      unsigned peers[G];
#pragma unroll
      for (int k = 0; k < G; ++k) peers[k] = warp_match_digit<Full ? radix_digit_bits : radix_digit_bits + 1>(digits[k]);
      unsigned before[G];
#pragma unroll
      for (int k = 0; k < G; ++k) {
        const bool leader = lane == __ffs(peers[k]) - 1 && valid<Full>(S, g + k);
        before[k] = shared_add_if(leader, &offsets[digits[k]], __popc(peers[k]));
      }
#pragma unroll
      for (int k = 0; k < G; ++k) {
        const unsigned position =
            __shfl_sync(full_warp_mask, before[k], __ffs(peers[k]) - 1) + __popc(peers[k] & lanes_below);
        if (valid<Full>(S, g + k)) shared.keys()[position] = keys[g + k];
        if constexpr (S == 1)
          positions[g + k] = position << 16;
        else
          positions[g + k] |= position;
      }
    }
  }

  // 7. Out: thread t writes tile positions t, t + BlockThreads, ... of both sub-tiles;
  //    with values, each position's digit is kept (a byte, over the rows) for theirs.
  //    Sub-tile 0's values are loaded into registers before the keys go out, so that
  //    their loads fly meanwhile (tuning.values_before_keys_out), or after. `values`:
  //    the caller's (see two_subtiles).
  template <bool Full>
  __device__ ONEPASS_FORCEINLINE void write_both(const unsigned (&positions)[N], Value (&values)[N]) const {
    const auto load_first_values = [&] {
#pragma unroll
      for (int i = 0; i < N; ++i)
        if (valid<Full>(0, i)) values[i] = values_in[warp_first + i * 32];
    };
    if constexpr (with_values && t.values_before_keys_out) load_first_values();
#pragma unroll 4
    for (int k = 0; k < 2 * N; ++k) {
      const int j = k * BlockThreads + static_cast<int>(threadIdx.x);
      if (Full || j < tile_valid) {
        const Key key = shared.keys()[j];
        const unsigned d = digit_of(key);
        keys_out[shared.digit_base[d] + j] = key;
        if constexpr (with_values) shared.digits[j] = static_cast<unsigned char>(d);
      }
    }
    if constexpr (with_values) {
      // The values take the keys' place at their positions, a sub-tile at a time.
      if constexpr (!t.values_before_keys_out) load_first_values();
      __syncthreads();  // every key is written out
#pragma unroll
      for (int i = 0; i < N; ++i)
        if (valid<Full>(0, i)) shared.values[positions[i] & 0xFFFFu] = values[i];
#pragma unroll
      for (int i = 0; i < N; ++i)
        if (valid<Full>(1, i)) values[i] = values_in[warp_first + sub_items + i * 32];
#pragma unroll
      for (int i = 0; i < N; ++i)
        if (valid<Full>(1, i)) shared.values[positions[i] >> 16] = values[i];
      __syncthreads();
      // Two values a loop step: faster for uint32 pairs than four, where the keys' loop
      // above is best at four (docs/perf/radix_sort.md, "The two-sub-tile kernel's output
      // loops").
#pragma unroll 2
      for (int k = 0; k < 2 * N; ++k) {
        const int j = k * BlockThreads + static_cast<int>(threadIdx.x);
        if (Full || j < tile_valid) values_out[shared.digit_base[shared.digits[j]] + j] = shared.values[j];
      }
    }
  }

  // Steps 1-7 for two sub-tiles a block.
  template <bool Full>
  __device__ ONEPASS_FORCEINLINE void two_subtiles() const {
    Key keys[N];  // sub-tile 1's
    load_and_count_both<Full>(keys);
    const unsigned tile_count = scan_row_counts();
    unsigned positions[N];
    const unsigned lanes_below = (1u << lane) - 1u;
    // Sub-tile 0's keys are loaded again at an index the compiler cannot see is step 1's,
    // so that it does not hold step 1's registers through the ranking instead.
    index_t again = warp_first;
    opaque_in_register(again);
    rank_subtile<Full, 1>(keys, lanes_below, positions);
#pragma unroll
    for (int i = 0; i < N; ++i)
      if (valid<Full>(0, i)) keys[i] = keys_in[again + i * 32];
    rank_subtile<Full, 0>(keys, lanes_below, positions);
    look_back_then_sync(tile_count, [&] { return shared.tile_start[digit]; });
    // The values' array is declared here, not in write_both: NVVM's inliner appears to give
    // arrays of one type declared in different inlined functions one slot (here
    // load_and_count_both's `first`, when Key and Value are the same 32-bit type), and the
    // partial tile's conditional loads of the values then kept step 1's keys alive through
    // the ranking and the lookback: the uint32 (and int32) pairs kernels spilled, ~200
    // instructions more than when the steps were lambdas of one function.
    [[maybe_unused]] Value values[N];
    write_both<Full>(positions, values);
  }
};

}  // namespace onepass::detail
