// onepass/agent/radix_onesweep.cuh — one counting pass of the radix sort: the onesweep
// kernel, steps 1-7 of agent/radix_sort.cuh's description.
#pragma once

#include "onepass/agent/radix_common.cuh"

namespace onepass::detail {

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
  using config = radix_onesweep_config<Key, Value, Tuning>;
  constexpr tuning::radix_sort_tuning t = Tuning::value;
  constexpr int BlockThreads = t.onesweep_block_threads;
  static_assert(BlockThreads >= radix_digits && BlockThreads % 32 == 0,
                "tuning: a onesweep block has a thread per digit, in whole warps");
  constexpr bool with_values = !std::is_empty_v<Value>;
  constexpr int N = t.onesweep_items_per_thread;
  constexpr int G = t.rank_group;
  static_assert(N % G == 0, "tuning: rank_group must divide the items per thread");
  constexpr tuning::radix_value_load value_load = config::value_load;
  constexpr bool stage_values = config::stage_values;
  constexpr bool values_with_keys = with_values && value_load == tuning::radix_value_load::with_keys;
  constexpr bool keys_apart = config::keys_apart;
  using shared_t = typename config::shared_type;
  constexpr int tile_items = shared_t::tile_items;
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
  constexpr bool write_together = clustered && t.cluster_write_together;
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
    // The first copy_blocks claims (the blocks resident at the start) copy the whole
    // portion, grid-stride with 16-byte words; the rest leave at once. One tile per block
    // copied as it is ran far below the copy bandwidth: a block's claim, load and store
    // are too little in flight for its short life (docs/perf/radix_sort.md, "A pass whose
    // keys share one digit is a copy").
    const index_t copiers = portion.copy_blocks < static_cast<index_t>(gridDim.x) ? portion.copy_blocks
                                                                                   : static_cast<index_t>(gridDim.x);
    const index_t copier = shared.tile;
    if (copier >= copiers) return;
    const index_t worker = copier * BlockThreads + static_cast<index_t>(threadIdx.x);
    const index_t workers = copiers * BlockThreads;
    copy_items_strided(keys_in + portion.begin, keys_out + portion.begin, portion.items, worker, workers);
    if constexpr (with_values)
      copy_items_strided(values_in + portion.begin, values_out + portion.begin, portion.items, worker, workers);
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
    if constexpr (write_together) cluster_execution_barrier();  // its partner's barrier before step 7
    return;
  }
  const int tile_valid = static_cast<int>(portion.items - tile_begin < tile_items ? portion.items - tile_begin
                                                                                   : tile_items);
  const index_t warp_first = portion.begin + tile_begin + static_cast<index_t>(warp) * N * 32 + lane;
  const int warp_offset = warp * N * 32 + lane;  // item 0's position in the tile
  [[maybe_unused]] const bool values_aligned =
      with_values && reinterpret_cast<std::uintptr_t>(values_in + portion.begin) % 16 == 0;
  const lookback::count_state<radix_digits> state(descriptors, digit);

  // Step 3's publication by thread d: the tile's count of digit d, as the AGGREGATE (tile
  // 0: as the PREFIX, there being nothing before it).
  const auto publish_tile_count = [&](unsigned tile_count) {
    if (tile == 0) {
      delay(tile, lookback::tile_status::prefix);
      state.publish(tile, lookback::tile_status::prefix, tile_count);
    } else {
      delay(tile, lookback::tile_status::aggregate);
      state.publish(tile, lookback::tile_status::aggregate, tile_count);
    }
  };
  // Step 6 by thread d: the lookback for the keys of digit d in the portion's earlier
  // tiles, the inclusive count published, and where tile position j of digit d goes:
  // digit_base[d] + j. start_of() gives where digit d starts in the tile-sorted order;
  // read once the lookback is done (kept in shared memory, it need not wait in a register).
  // In clusters that write together the barrier that follows step 6 (all of a cluster's
  // blocks, on one GPC, their tiles claimed at about the same time, start their writes
  // together) comes after this: every block has published its inclusive counts before it
  // waits there, so no lookback waits on it. (Faster for pairs where clusters are used:
  // docs/perf/radix_sort.md, "Clusters".)
  const auto look_back = [&](unsigned tile_count, auto start_of) {
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
  };

  if constexpr (config::subtiles == 2) {
    // Steps 1-7 for two sub-tiles a block (tuning.onesweep_subtiles == 2): the block ranks
    // sub-tiles 0 and 1 (tile positions [0, S) and [S, 2S), S = BlockThreads * N) with one
    // tile's registers and writes them out as one tile, so every digit's run in the output
    // is twice as long as one sub-tile's. Both sub-tiles' keys are loaded and counted first
    // (sub-tile s's warp w in row s * warps + w); one scan over the rows orders each digit's
    // keys of sub-tile 0 before those of sub-tile 1 (stable). Sub-tile 1 is ranked from
    // the registers; sub-tile 0's keys are loaded again (from L2: they were read
    // microseconds ago) and ranked. Each key is stored at its tile-sorted position as it
    // is ranked, and each item's position waits in 16 bits, two to a register, for its value.
    const auto process_two_subtiles = [&](auto full) {
      constexpr bool Full = decltype(full)::value;
      constexpr int sub_items = BlockThreads * N;
      constexpr int warps = shared_t::warps;
      // Item i of this thread in sub-tile s (tile position s * sub_items + warp_offset + i * 32) exists.
      const auto valid = [&](int s, int i) { return Full || s * sub_items + warp_offset + i * 32 < tile_valid; };

      // 1-2. Load both sub-tiles' keys (two sub-tiles of loads in flight) and count them.
      Key keys[N];  // sub-tile 1's
      {
        Key first[N];
#pragma unroll
        for (int i = 0; i < N; ++i) {
          if (valid(0, i)) first[i] = keys_in[warp_first + i * 32];
          if (valid(1, i)) keys[i] = keys_in[warp_first + sub_items + i * 32];
        }
#pragma unroll
        for (int i = 0; i < N; ++i)
          if (valid(0, i)) atomicAdd(&warp_offsets[key_digit(first[i], pass.shift, pass.bits, descending)], 1u);
#pragma unroll
        for (int i = 0; i < N; ++i)
          if (valid(1, i))
            atomicAdd(&shared.warp_offsets[warps + warp][key_digit(keys[i], pass.shift, pass.bits, descending)], 1u);
      }
      __syncthreads();

      // 3. Thread d publishes the tile's count of digit d, then (block scan) where digit d
      //    starts in the tile and where each row's keys of digit d start.
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

      // 4-5. Rank sub-tile s's keys (in input order, G items at a time, as process_tile's
      //      keys apart do) and store each at its tile-sorted position; its position goes to
      //      the low (s = 0) or high (s = 1) 16 bits of positions[i].
      unsigned positions[N];
      const unsigned lanes_below = (1u << lane) - 1u;
      // Sub-tile 0's keys are loaded again at an index the compiler cannot see is step 1's,
      // so that it does not hold step 1's registers through the ranking instead.
      index_t again = warp_first;
      opaque_in_register(again);
      const auto rank_subtile = [&](auto sub) {
        constexpr int s = decltype(sub)::value;
        unsigned* const offsets = shared.warp_offsets[s * warps + warp];
#pragma unroll
        for (int g = 0; g < N; g += G) {
          unsigned digits[G];  // items past the end: radix_digits, which matches no real digit
#pragma unroll
          for (int k = 0; k < G; ++k)
            digits[k] = valid(s, g + k) ? key_digit(keys[g + k], pass.shift, pass.bits, descending) : radix_digits;
          unsigned peers[G];
#pragma unroll
          for (int k = 0; k < G; ++k)
            peers[k] = warp_match_digit<Full ? radix_digit_bits : radix_digit_bits + 1>(digits[k]);
          unsigned before[G];
#pragma unroll
          for (int k = 0; k < G; ++k) {
            const bool leader = lane == __ffs(peers[k]) - 1 && valid(s, g + k);
            before[k] = shared_add_if(leader, &offsets[digits[k]], __popc(peers[k]));
          }
#pragma unroll
          for (int k = 0; k < G; ++k) {
            const unsigned position =
                __shfl_sync(full_warp_mask, before[k], __ffs(peers[k]) - 1) + __popc(peers[k] & lanes_below);
            if (valid(s, g + k)) shared.keys()[position] = keys[g + k];
            if constexpr (s == 1)
              positions[g + k] = position << 16;
            else
              positions[g + k] |= position;
          }
        }
      };
      rank_subtile(std::integral_constant<int, 1>{});
#pragma unroll
      for (int i = 0; i < N; ++i)
        if (valid(0, i)) keys[i] = keys_in[again + i * 32];
      rank_subtile(std::integral_constant<int, 0>{});

      // 6. The lookback (thread d), then every thread's writes.
      if (digit_thread) look_back(tile_count, [&] { return shared.tile_start[digit]; });
      __syncthreads();
      if constexpr (write_together) cluster_execution_barrier();

      // 7. Out: thread t writes tile positions t, t + BlockThreads, ... of both sub-tiles;
      //    with values, each position's digit is kept (a byte, over the rows) for theirs.
      //    Sub-tile 0's values are loaded into registers before the keys go out, so that
      //    their loads fly meanwhile (tuning.values_before_keys_out), or after.
      [[maybe_unused]] Value values[N];
      const auto load_first_values = [&] {
#pragma unroll
        for (int i = 0; i < N; ++i)
          if (valid(0, i)) values[i] = values_in[warp_first + i * 32];
      };
      if constexpr (with_values && Tuning::value.values_before_keys_out) load_first_values();
#pragma unroll 4
      for (int k = 0; k < 2 * N; ++k) {
        const int j = k * BlockThreads + static_cast<int>(threadIdx.x);
        if (Full || j < tile_valid) {
          const Key key = shared.keys()[j];
          const unsigned d = key_digit(key, pass.shift, pass.bits, descending);
          keys_out[shared.digit_base[d] + j] = key;
          if constexpr (with_values) shared.digits[j] = static_cast<unsigned char>(d);
        }
      }
      if constexpr (with_values) {
        // The values take the keys' place at their positions, a sub-tile at a time.
        if constexpr (!Tuning::value.values_before_keys_out) load_first_values();
        __syncthreads();  // every key is written out
#pragma unroll
        for (int i = 0; i < N; ++i)
          if (valid(0, i)) shared.values[positions[i] & 0xFFFFu] = values[i];
#pragma unroll
        for (int i = 0; i < N; ++i)
          if (valid(1, i)) values[i] = values_in[warp_first + sub_items + i * 32];
#pragma unroll
        for (int i = 0; i < N; ++i)
          if (valid(1, i)) shared.values[positions[i] >> 16] = values[i];
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
    };
    if (tile_valid == tile_items)
      process_two_subtiles(std::true_type{});
    else
      process_two_subtiles(std::false_type{});
  } else {
    // Steps 1-7 for a full tile (Full: no bounds checks, no sentinel digit in the ranking)
    // or the portion's last, partial one.
    const auto process_tile = [&](auto full) {
      constexpr bool Full = decltype(full)::value;
      // Item i of this thread (tile position warp_offset + i * 32) exists.
      const auto valid = [&](int i) { return Full || warp_offset + i * 32 < tile_valid; };

      // 1. Load (coalesced: each warp instruction reads 32 consecutive keys). Values go
      //    straight to shared memory (async_to_shared) or to registers (with_keys).
      Key keys[N];
      [[maybe_unused]] Value values[N];
#pragma unroll
      for (int i = 0; i < N; ++i) {
        if (valid(i)) {
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
            if (valid(i))
              cp_async_element<sizeof(Value)>(&shared.staged_values[warp_offset + i * 32],
                                              &values_in[warp_first + i * 32]);
        }
        cp_async_commit();
      }

      // 2. Each warp counts its keys per digit (one shared-memory add per key). Items past
      //    the end get the digit radix_digits, which matches no real digit in the ranking.
      //    Keys apart: the digits are not kept, the ranking takes them from the keys again.
      [[maybe_unused]] unsigned held_digits[keys_apart ? 1 : N];
#pragma unroll
      for (int i = 0; i < N; ++i) {
        if constexpr (keys_apart) {
          if (valid(i)) atomicAdd(&warp_offsets[key_digit(keys[i], pass.shift, pass.bits, descending)], 1u);
        } else {
          held_digits[i] = valid(i) ? key_digit(keys[i], pass.shift, pass.bits, descending) : radix_digits;
          if (valid(i)) atomicAdd(&warp_offsets[held_digits[i]], 1u);
        }
      }
      __syncthreads();

      // 3. Thread d: the tile's count of digit d, published at once — before the ranking, so
      //    that successors looking back find it as early as possible; then where digit d
      //    starts in the tile (a block scan), and where each warp's keys of digit d start.
      //    Keys apart: the warps' counts are read from shared memory twice rather than held
      //    in registers across the block scan.
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
      unsigned start = 0, tile_total;
      block_scan<unsigned, BlockThreads>(shared.scan).exclusive_prefix(tile_count, plus{}, start, tile_total);
      // Keys apart: the digit's start within the tile waits for step 6 in shared memory, not
      // in a register through the ranking (one register less at the kernel's peak).
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

      // 4. Rank, in input order: lanes with the same digit find each other; the lowest one
      //    advances the warp's offset of that digit by their number. A key's position in the
      //    tile-sorted order is that offset plus the matching lanes below it.
      //    Keys apart: the digits are extracted from the keys again (two or three
      //    instructions a key) rather than held from step 2 through step 3. The keys pass
      //    through an empty asm first, so that the compiler cannot reuse step 2's digits.
      //    (The pairs, over the offsets, measured faster with the digits, the warps' counts
      //    and the digit starts as they were: docs/perf/radix_sort.md, "Why CUB sorts int32
      //    faster than uint32, and keys apart".)
      if constexpr (keys_apart) {
#pragma unroll
        for (int i = 0; i < N; ++i) opaque_in_register(keys[i]);
      }
      unsigned positions[N];
      const unsigned lanes_below = (1u << lane) - 1u;
      // G items at a time: their matches first, then their offset updates, then positions.
#pragma unroll
      for (int g = 0; g < N; g += G) {
        unsigned digits[G];  // items past the end: radix_digits, which matches no real digit
#pragma unroll
        for (int k = 0; k < G; ++k) {
          if constexpr (keys_apart)
            digits[k] = valid(g + k) ? key_digit(keys[g + k], pass.shift, pass.bits, descending) : radix_digits;
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
          const bool leader = lane == __ffs(peers[k]) - 1 && valid(g + k);
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
        // 5. (keys apart) Each key into shared memory in tile order as soon as it is ranked.
        if constexpr (keys_apart) {
#pragma unroll
          for (int k = 0; k < G; ++k)
            if (valid(g + k)) shared.keys()[positions[g + k]] = keys[g + k];
        }
      }
      if constexpr (!keys_apart) {
        __syncthreads();  // every rank is taken before the keys overwrite the offsets
        // 5. Keys into shared memory in tile order, while predecessors publish.
#pragma unroll
        for (int i = 0; i < N; ++i)
          if (valid(i)) shared.keys()[positions[i]] = keys[i];
      }

      // 6. The lookback, one digit per thread: keys of this digit in the portion's earlier tiles.
      if (digit_thread) look_back(tile_count, [&] { return keys_apart ? shared.tile_start[digit] : start; });
      __syncthreads();
      if constexpr (write_together) cluster_execution_barrier();

      // 7. Out: thread t writes tile positions t, t + 256, ...; consecutive threads mostly
      //    write consecutive addresses of one digit's run. The values follow through the
      //    shared memory the ranking used. Four keys a loop step, unless their digits are
      //    held for the values (then unrolled whole, so that out_digits stays in
      //    registers): the keys-alone sorts unrolled whole measured slower
      //    (docs/perf/radix_sort.md, "Output addresses a digit at a time").
      constexpr bool hold_digits = with_values && !keys_apart;
      [[maybe_unused]] unsigned out_digits[hold_digits ? N : 1];
      constexpr int keys_out_unroll = hold_digits ? N : 4;
#pragma unroll(keys_out_unroll)
      for (int k = 0; k < N; ++k) {
        const int j = k * BlockThreads + static_cast<int>(threadIdx.x);
        if (Full || j < tile_valid) {
          const Key key = shared.keys()[j];
          const unsigned d = key_digit(key, pass.shift, pass.bits, descending);
          keys_out[shared.digit_base[d] + j] = key;
          if constexpr (hold_digits) out_digits[k] = d;
        }
      }
      if constexpr (with_values) {
        if constexpr (value_load == tuning::radix_value_load::after_keys) {
#pragma unroll
          for (int i = 0; i < N; ++i)
            if (valid(i)) values[i] = values_in[warp_first + i * 32];
        }
        if constexpr (stage_values) cp_async_wait<0>();  // this thread's copies; the barrier: everyone's
        __syncthreads();  // every key is written out (overlaid: the values take their place)
#pragma unroll
        for (int i = 0; i < N; ++i) {
          if (valid(i)) {
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
              d = key_digit(shared.keys()[j], pass.shift, pass.bits, descending);
            values_out[shared.digit_base[d] + j] = shared.values[j];
          }
        }
      }
    };
    if (tile_valid == tile_items)
      process_tile(std::true_type{});
    else
      process_tile(std::false_type{});
  }
}

}  // namespace onepass::detail
