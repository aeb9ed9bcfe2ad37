// onepass/agent/radix_sort.cuh — the production LSD radix sort's two kernels.
//
// A sort of bits [begin, end) is ceil((end - begin) / 8) stable counting passes over
// 8-bit digits, least significant first. Before the passes, one kernel reads the keys once
// and counts the digits of every pass (radix_histogram_kernel), and its last block turns
// the counts into where each digit's keys start in every pass's output. Each pass is then
// one kernel (radix_onesweep_kernel) that reads every key once and writes it once — the
// "onesweep" scheme (Adinets & Merrill, 2022): a tile must know, per digit, how many keys
// of that digit the tiles before it hold, and it learns that through the decoupled lookback with
// one interleaved count descriptor per digit (count_state, lookback/tile_state.cuh)
// instead of a separate counting pass.
//
// Per tile (one per block, claimed in execution order; a block has a thread per digit,
// 0..255, and may have more that hold items only — larger tiles, fewer lookbacks):
//   1. load the tile's keys, warp-striped: item i of lane l of warp w is key
//      tile_begin + (w * ItemsPerThread + i) * 32 + l, so (w, i, l) is input order; the
//      values are copied asynchronously to shared memory (cp.async) or loaded once the
//      keys are written (the production 4-byte pairs), so they hold no registers through
//      the ranking (tuning::radix_value_load);
//   2. each warp counts its keys per digit in shared memory;
//   3. thread d (one per digit) sums the warps' counts of digit d and publishes the tile's
//      count (AGGREGATE) at once — before the expensive ranking, so successors find it
//      early (CUB's "early counts"); a block scan over digits gives where each digit
//      starts in the tile, and each warp's counts become where its keys of d start;
//   4. rank: per warp, item by item, lanes with the same digit find each other (one
//      ballot per digit bit, warp_match_digit); the lowest such lane advances the warp's
//      offset of that digit — each key's position in the tile-sorted order, stable;
//   5. the keys are placed in shared memory in tile-sorted order — more work between
//      publishing and looking back, so predecessors have had longer to publish PREFIXes.
//      With keys_apart (the tuning; keys alone) they have shared memory of their own and
//      each is stored as soon as it is ranked: neither keys nor positions stay in
//      registers, which is what let the tiles grow (docs/perf/radix_sort.md);
//   6. thread d looks back for the count of digit d in all earlier tiles, Window
//      descriptors at a time (lookback_counts), and publishes the inclusive count;
//   7. the keys are written out by consecutive threads to consecutive positions of each
//      digit's run; values follow through the same shared memory.
// With tuning.onesweep_subtiles = 2 (the production 4-byte pairs) a block takes a tile of
// two sub-tiles, ranks them one after the other with one sub-tile's registers, and writes
// them out as one tile in step 7 (process_two_subtiles below): each digit's runs in the
// output are twice as long.
// A pass in which every key has the same digit (the histogram says so: one digit counts
// all n keys) skips steps 1-7: the first blocks copy the keys (and values) as they are.
// Descriptors are count_state words (status and a 30-bit count in 32 bits). Every tile but
// a portion's last is full and runs a copy of steps 1-7 without bounds checks.
// Inputs longer than a "portion" (2^28 keys) are sorted a portion per launch within each
// pass, so descriptor counts stay within 30 bits. Where a digit's keys of portion q start cannot
// come from the up-front histogram (it counts the original array's portions, but pass
// p > 0 reads a permutation of it): the block holding a portion's last tile writes each
// digit's start for the next portion (its own start plus the portion's count), and the
// next launch, ordered after it on the stream, reads that.
#pragma once

#include <cuda/atomic>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "onepass/block/block_scan.cuh"
#include "onepass/detail/async_copy.cuh"
#include "onepass/detail/cluster.cuh"
#include "onepass/detail/radix_key.cuh"
#include "onepass/functional.cuh"
#include "onepass/single_pass/lookback.cuh"
#include "onepass/tuning/radix_sort_tuning.cuh"

namespace onepass::detail {

inline constexpr int radix_digit_bits = 8;
inline constexpr int radix_digits = 1 << radix_digit_bits;

// One pass's digit: ordered bits [shift, shift + bits).
struct radix_pass {
  int shift;
  int bits;
};

// The number of 8-bit passes over bits [begin_bit, end_bit).
ONEPASS_HD constexpr int radix_pass_count(int begin_bit, int end_bit) {
  return (end_bit - begin_bit + radix_digit_bits - 1) / radix_digit_bits;
}

// Pass p's digit over bits [begin_bit, end_bit): bits [begin + 8p, min(begin + 8p + 8,
// end)) — the last pass of a range that is not a multiple of 8 bits is narrower.
ONEPASS_HD constexpr radix_pass radix_pass_of(int begin_bit, int end_bit, int p) {
  const int shift = begin_bit + p * radix_digit_bits;
  return {shift, end_bit - shift < radix_digit_bits ? end_bit - shift : radix_digit_bits};
}

// The digit of `key` in a pass over ordered bits [shift, shift + bits).
template <class Key>
__device__ ONEPASS_FORCEINLINE unsigned key_digit(Key key, int shift, int bits, bool descending) {
  return radix_digit(ordered_bits(key, descending), shift, bits);
}

// Counts, for every pass, how many keys have each digit: hist[pass * 256 + digit] +=
// count (hist zeroed beforehand). Grid: (blocks per portion, portions) to spread the
// work; each block strides over its portion. Each thread keeps Unroll 16-byte loads in
// flight (4 or 2 keys each) when the portion starts 16-byte aligned: with 4-byte loads
// the kernel ran at a fraction of the read bandwidth, held back by too few bytes in flight
// per SM, and behind CUB's (docs/perf/radix_sort.md, "Second round"). Unaligned inputs
// and the tail go one key per load.
// Plain shared-memory atomics: testing each warp for a shared digit first
// (__match_all_sync, so that constant inputs add 32 at once) made the kernel twice as slow
// on random keys; constant inputs, whose adds meet on one address, run as fast as random
// ones (measured at 2^24).
// Copies: each digit's counter exists Copies times, interleaved, and lane l adds to copy
// l % Copies, which sits in bank l % 32 whatever the digit (Copies = 32: no bank conflicts
// between a warp's adds; 16: at most two-way). With one counter a digit, a warp's 32 adds
// to random digits met in the same banks, and counting 4 passes fell well short of the
// read bandwidth where 1 or 2 passes reached it (docs/perf/radix_sort.md, "counters in
// copies"). The counters take
// radix_histogram_shared_bytes<MaxPasses, Copies> of dynamic shared memory.
template <int MaxPasses, int Copies>
inline constexpr int radix_histogram_shared_bytes =
    MaxPasses * radix_digits * Copies * static_cast<int>(sizeof(unsigned));

// The last block to finish (`blocks_done`, zeroed beforehand, counts them) also turns every
// pass's counts into where each digit's keys start in that pass's output — starts[pass *
// 256 + digit], the sum of the smaller digits' counts — which the onesweep kernel's first
// portion reads; every tile used to scan the 256 totals itself.
template <class Key, int BlockThreads, int MaxPasses, int Copies, int Unroll = 4>
__global__ void __launch_bounds__(BlockThreads)
    radix_histogram_kernel(const Key* keys, index_t n, index_t portion_items, int begin_bit, int end_bit,
                           bool descending, unsigned long long* hist, unsigned* blocks_done, index_t* starts) {
  static_assert(BlockThreads >= radix_digits, "the histogram block has a thread per digit at least");
  static_assert(Copies >= 1 && Copies <= 32 && (Copies & (Copies - 1)) == 0, "1, 2, 4, ... 32 copies a counter");
  // counts[(pass * 256 + digit) * Copies + copy]
  extern __shared__ unsigned counts[];  // radix_histogram_shared_bytes<MaxPasses, Copies>
  __shared__ typename block_scan<index_t, BlockThreads>::storage scan;
  __shared__ bool last_block;
  for (int i = threadIdx.x; i < MaxPasses * radix_digits * Copies; i += BlockThreads) counts[i] = 0;
  __syncthreads();
  using bits_t = typename radix_key<Key>::bits_type;
  const int passes = radix_pass_count(begin_bit, end_bit);
  // Integer keys are counted by their own bits: their ordered pattern is the bits XOR a
  // constant (ordered_bits of key 0: the sign bit of a signed key, every bit of a
  // descending sort), so an ordered digit's count is that of the raw digit XOR the
  // constant's, and the sums below read it from there. Floating-point keys are ordered
  // key by key.
  constexpr bool raw_bits = std::is_integral_v<Key>;
  const auto key_bits = [&](Key k) -> bits_t {
    if constexpr (raw_bits)
      return static_cast<bits_t>(k);
    else
      return ordered_bits(k, descending);
  };
  // Counter (pass, digit) of this lane's copy, as a shared-memory address: the pass and
  // the digit are an immediate offset and one shift-add from the lane's base, and each add
  // is a single reduction (red.shared); through a generic pointer the compiler rebuilt
  // the shared window's address for every add (10 instructions a key and pass).
  constexpr unsigned digit_stride = Copies * sizeof(unsigned);
  constexpr unsigned pass_stride = radix_digits * digit_stride;
  const unsigned my_copy = static_cast<unsigned>(__cvta_generic_to_shared(counts)) +
                           static_cast<unsigned>(lane_id() & (Copies - 1)) * static_cast<unsigned>(sizeof(unsigned));
  const auto add_one = [](unsigned address) {
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(address) : "memory");
  };
  // Any bit range: a digit is a shift and a mask, and pass p counts only if p < passes.
  const auto count = [&](bits_t bits) {
#pragma unroll
    for (int p = 0; p < MaxPasses; ++p) {
      if (p < passes) {
        const radix_pass pass = radix_pass_of(begin_bit, end_bit, p);
        add_one(my_copy + p * pass_stride + radix_digit(bits, pass.shift, pass.bits) * digit_stride);
      }
    }
  };
  // Every bit of the key (MaxPasses whole bytes): pass p's digit is byte p, one byte
  // permute; no test of p.
  const auto count_bytes = [&](bits_t bits) {
#pragma unroll
    for (int p = 0; p < MaxPasses; ++p) {
      const auto word = static_cast<unsigned>(bits >> (p / 4 * 32));
      add_one(my_copy + p * pass_stride + __byte_perm(word, 0u, 0x4440u | (p % 4)) * digit_stride);
    }
  };
  const bool whole_bytes = begin_bit == 0 && end_bit == radix_key<Key>::bits && passes == MaxPasses;

  const index_t portion_begin = static_cast<index_t>(blockIdx.y) * portion_items;
  const index_t items = portion_begin + portion_items < n ? portion_items : n - portion_begin;
  const Key* portion = keys + portion_begin;
  const index_t stride = static_cast<index_t>(gridDim.x) * BlockThreads;
  const index_t first = static_cast<index_t>(blockIdx.x) * BlockThreads + threadIdx.x;

  using vector_t = uint4;
  constexpr int per_vector = static_cast<int>(sizeof(vector_t) / sizeof(Key));
  const bool aligned = reinterpret_cast<std::uintptr_t>(portion) % sizeof(vector_t) == 0;
  const index_t vectors = aligned ? items / per_vector : 0;
  const auto* portion_vectors = reinterpret_cast<const vector_t*>(portion);
  // The vectors, counted by `count_key` (count or count_bytes, chosen once, not per key).
  const auto count_vectors = [&](const auto& count_key) {
    for (index_t base = first; base < vectors; base += Unroll * stride) {
      vector_t loaded[Unroll];
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        if (base + u * stride < vectors) loaded[u] = portion_vectors[base + u * stride];
#pragma unroll
      for (int u = 0; u < Unroll; ++u) {
        if (base + u * stride < vectors) {
          Key k[per_vector];
          memcpy(k, &loaded[u], sizeof(vector_t));
#pragma unroll
          for (int j = 0; j < per_vector; ++j) count_key(key_bits(k[j]));
        }
      }
    }
  };
  if (whole_bytes)
    count_vectors(count_bytes);
  else
    count_vectors(count);
  // The keys no vector covered: all of an unaligned portion, else fewer than per_vector.
  for (index_t i = vectors * per_vector + first; i < items; i += stride) count(key_bits(portion[i]));
  __syncthreads();
  // Counter i's copies, read from copy (k + lane) % Copies on: with 32 copies the warp's
  // reads then fall in distinct banks (each counter's copies share a row of 32 words);
  // with 16, at most two lanes share a bank. For integer keys, ordered digit d of pass p
  // was counted as raw digit d XOR the order's digit (key_bits above).
  const bits_t order = ordered_bits(Key{}, descending);
  for (int i = threadIdx.x; i < passes * radix_digits; i += BlockThreads) {
    int counter = i;
    if constexpr (raw_bits) {
      const int p = i / radix_digits;
      const radix_pass pass = radix_pass_of(begin_bit, end_bit, p);
      counter = p * radix_digits + static_cast<int>((i % radix_digits) ^ radix_digit(order, pass.shift, pass.bits));
    }
    unsigned c = 0;
#pragma unroll
    for (int k = 0; k < Copies; ++k) c += counts[counter * Copies + ((k + lane_id()) & (Copies - 1))];
    if (c != 0) atomicAdd(&hist[i], c);
  }

  // The block's adds, then the count of finished blocks (released at device scope: the
  // barrier orders every thread's adds before thread 0's release). The block that finishes
  // last sees every add (acquire) and computes the starts.
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> done(*blocks_done);
    last_block = done.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x * gridDim.y - 1;
  }
  __syncthreads();
  if (!last_block) return;
  const int d = threadIdx.x;
  for (int p = 0; p < passes; ++p) {
    index_t count = 0;
    if (d < radix_digits) {
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> total(hist[p * radix_digits + d]);
      count = static_cast<index_t>(total.load(cuda::memory_order_relaxed));
    }
    index_t smaller = 0, all;
    block_scan<index_t, BlockThreads>(scan).exclusive_prefix(count, plus{}, smaller, all);
    if (d < radix_digits) starts[p * radix_digits + d] = smaller;
    __syncthreads();  // the scan's storage is reused by the next pass
  }
}

// The lanes of the warp whose `digit` equals this lane's, as a mask — what
// __match_any_sync(full_warp_mask, digit) returns, for digits below 2^Bits — built from one
// ballot per bit: keep the lanes that agree with this lane on bit b, for every b. Ballots
// are cheap, fixed-latency instructions; MATCH.ANY's long, variable latency made it the
// ranking's bottleneck (docs/perf/radix_sort.md). All 32 lanes must call it.
template <int Bits>
__device__ ONEPASS_FORCEINLINE unsigned warp_match_digit(unsigned digit) {
  unsigned peers = full_warp_mask;
#pragma unroll
  for (int b = 0; b < Bits; ++b) {
    // The lanes whose bit b equals mine: the ballot of bit b, inverted where mine is 0.
    // In PTX so that it stays four instructions a bit (test, vote, conditional not, and);
    // the C++ form compiled to seven.
    unsigned agree;
    asm("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\t"
        "and.b32 t, %1, %2;\n\tsetp.ne.u32 p, t, 0;\n\t"
        "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t@!p not.b32 %0, %0;\n\t}"
        : "=r"(agree)
        : "r"(digit), "r"(1u << b));
    peers &= agree;
  }
  return peers;
}

// Leaves `value` as it is, but through an empty asm: later expressions of it are new to
// the compiler, so it recomputes them instead of keeping earlier results in registers.
template <class T>
__device__ ONEPASS_FORCEINLINE void opaque_in_register(T& value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "opaque_in_register: 4- or 8-byte values");
  if constexpr (sizeof(T) == 4) {
    unsigned bits;
    memcpy(&bits, &value, 4);
    asm volatile("" : "+r"(bits));
    memcpy(&value, &bits, 4);
  } else {
    unsigned long long bits;
    memcpy(&bits, &value, 8);
    asm volatile("" : "+l"(bits));
    memcpy(&value, &bits, 8);
  }
}

// atomicAdd(address, value) on shared memory where `add` holds, else 0 — as one predicated
// instruction rather than a branch around the atomic.
__device__ ONEPASS_FORCEINLINE unsigned shared_add_if(bool add, unsigned* address, unsigned value) {
  unsigned before = 0;
  const unsigned shared_address = static_cast<unsigned>(__cvta_generic_to_shared(address));
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t@p atom.shared.add.u32 %0, [%2], %3;\n\t}"
               : "+r"(before)
               : "r"(static_cast<unsigned>(add)), "r"(shared_address), "r"(value)
               : "memory");
  return before;
}

// Where one launch of the onesweep kernel works: keys [begin, begin + items) of the
// whole array (n keys), this pass's digit counts over the whole array (`totals`, 256 of
// them: a pass in which one digit counts all n keys moves nothing), and where each digit's
// keys of this portion start in the output (`starts_in`, 256): for the first portion the
// histogram kernel computed them from the totals, for later ones the previous portion's
// last tile wrote them. With more portions to come, this one's last tile writes
// `starts_out` (else null).
struct radix_portion {
  index_t begin;
  index_t items;
  index_t n;
  index_t copy_blocks;  // how many blocks copy the portion in a pass that moves nothing
  const unsigned long long* totals;
  const index_t* starts_in;
  index_t* starts_out;  // null: the last portion
  // The onesweep block of tile t asks L2 for tile t + prefetch_tiles's keys (and values,
  // where values_in is 16-byte aligned); 0 = none (keys_in + begin not 16-byte aligned, or
  // the tuning's choice).
  index_t prefetch_tiles = 0;
};

// Copies in[0, count) to out[0, count), split over `workers` threads of which the caller
// is `worker`: 16-byte words, four in flight a thread, where both arrays are 16-byte
// aligned (then items past the last whole word one by one), else item by item.
template <class T>
__device__ ONEPASS_FORCEINLINE void copy_items_strided(const T* in, T* out, index_t count, index_t worker,
                                                       index_t workers) {
  index_t words = 0;
  if constexpr (16 % sizeof(T) == 0) {
    if (reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0) {
      words = count * static_cast<index_t>(sizeof(T)) / 16;
      const uint4* from = reinterpret_cast<const uint4*>(in);
      uint4* to = reinterpret_cast<uint4*>(out);
      index_t w = worker;
      for (; w + 3 * workers < words; w += 4 * workers) {
        uint4 v[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) v[k] = from[w + k * workers];
#pragma unroll
        for (int k = 0; k < 4; ++k) to[w + k * workers] = v[k];
      }
      for (; w < words; w += workers) to[w] = from[w];
    }
  }
  for (index_t i = words * 16 / static_cast<index_t>(sizeof(T)) + worker; i < count; i += workers) out[i] = in[i];
}

// Whether a pass can copy the tile's values to shared memory asynchronously (cp.async)
// at the load, instead of holding them in registers through the ranking and the
// lookback: 4- or 8-byte values aligned to their size, and room for them within the 48
// KiB of static shared memory (checked by the kernel).
template <class Value>
inline constexpr bool radix_values_copyable_async =
    !std::is_empty_v<Value> && (sizeof(Value) == 4 || sizeof(Value) == 8) && alignof(Value) >= sizeof(Value);

template <class Key, class Value, int BlockThreads, int ItemsPerThread, bool StageValues, bool KeysApart>
struct radix_onesweep_shared {
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
  static constexpr int warps = BlockThreads / 32;
  static constexpr int rows = warps;  // rows of warp_offsets: one a warp
  union {
    unsigned warp_offsets[warps][radix_digits];     // histogram, then ranking (steps 2-4)
    Key overlaid_keys[KeysApart ? 1 : tile_items];  // tile-sorted keys (step 5) unless apart,
    Value values[tile_items];                       // then the tile-sorted values (step 7)
  };
  // KeysApart: the tile-sorted keys, stored as they are ranked (steps 4-5).
  Key apart_keys[KeysApart ? tile_items : 1];
  __device__ Key* keys() { return KeysApart ? apart_keys : overlaid_keys; }
  // StageValues: the tile's values in input order, copied in by the load (cp.async; 16-byte
  // copies where the tile allows). On a 128-byte boundary, so that a warp's 512-byte copy
  // fills four whole rows of the banks (the scan's permuted stages gained only with that
  // alignment, docs/perf/scan.md, "The stage layout"); after an 8-byte apart_keys[1] it
  // sat 16 bytes past one. Without staging the placeholder keeps 16: the other kernels'
  // layouts do not move.
  alignas(StageValues ? 128 : 16) Value staged_values[StageValues ? tile_items : 1];
  // Per digit d: where d's keys of this portion start in the output (steps 1-6), then
  // where tile position j of digit d goes: digit_base[d] + j (step 7).
  index_t digit_base[radix_digits];
  // KeysApart: where digit d starts in the tile-sorted order (steps 3-6).
  unsigned tile_start[KeysApart ? radix_digits : 1];
  typename block_scan<unsigned, BlockThreads>::storage scan;
  index_t tile;
};

// The shared memory of a onesweep block that ranks two sub-tiles of BlockThreads *
// ItemsPerThread items one after the other and writes them out as one tile
// (tuning.onesweep_subtiles == 2). Sub-tile s's warp w counts and ranks in row s * warps
// + w, so that one scan over the rows orders the first sub-tile's keys of a digit before
// the second's (stable). The tile-sorted keys are stored as they are ranked, apart from
// the rows; the values take their place once the keys are written out. Production uint32
// pairs, 384 x 20 x 2: about 87 KiB, two blocks a SM.
template <class Key, class Value, int BlockThreads, int ItemsPerThread>
struct radix_two_subtile_shared {
  static constexpr int subtile_items = BlockThreads * ItemsPerThread;
  static constexpr int tile_items = 2 * subtile_items;
  static_assert(tile_items <= 65536, "two sub-tiles: positions are kept in 16 bits");
  static constexpr int warps = BlockThreads / 32;
  static constexpr int rows = 2 * warps;
  union {
    unsigned warp_offsets[rows][radix_digits];  // histogram, then ranking (steps 2-4)
    unsigned char digits[tile_items];           // the digit of tile-sorted position j (step 7)
  };
  union {
    Key sorted_keys[tile_items];  // tile-sorted keys (steps 4-7),
    Value values[tile_items];     // then the tile-sorted values (step 7)
  };
  __device__ Key* keys() { return sorted_keys; }
  index_t digit_base[radix_digits];  // as radix_onesweep_shared's
  unsigned tile_start[radix_digits];  // where digit d starts in the tile-sorted order (steps 3-6)
  typename block_scan<unsigned, BlockThreads>::storage scan;
  index_t tile;
};

// The onesweep kernel's shape for Key, Value and Tuning: its block, its tile, how it moves
// values (the tuning's value_load, except that async_to_shared falls back to with_keys
// for values cp.async cannot copy or whose staging area would take shared memory past
// max_staging_shared_bytes), and its shared memory (dynamic: shared_bytes per block).
template <class Key, class Value, class Tuning>
struct radix_onesweep_config {
  static constexpr tuning::radix_sort_tuning shape = Tuning::value;
  static constexpr int block_threads = shape.onesweep_block_threads;
  static constexpr int items_per_thread = shape.onesweep_items_per_thread;
  // Within what every sm_80+ GPU allows a block (the smallest opt-in limit, sm_86's 99 KiB)
  static constexpr std::size_t max_staging_shared_bytes = 99 * 1024;
  static constexpr bool with_values = !std::is_empty_v<Value>;
  static constexpr int subtiles = shape.onesweep_subtiles;
  static_assert(subtiles == 1 || subtiles == 2, "tuning: one or two sub-tiles a onesweep block");
  static constexpr bool keys_apart = subtiles == 2 || shape.keys_apart;
  static constexpr tuning::radix_value_load value_load =
      subtiles == 2 ? tuning::radix_value_load::after_keys
                    : (shape.value_load != tuning::radix_value_load::async_to_shared ||
                               (radix_values_copyable_async<Value> &&
                                sizeof(radix_onesweep_shared<Key, Value, block_threads, items_per_thread, true,
                                                             keys_apart>) <= max_staging_shared_bytes)
                           ? shape.value_load
                           : tuning::radix_value_load::with_keys);
  static constexpr bool stage_values = with_values && value_load == tuning::radix_value_load::async_to_shared;
  using shared_type =
      std::conditional_t<subtiles == 2, radix_two_subtile_shared<Key, Value, block_threads, items_per_thread>,
                         radix_onesweep_shared<Key, Value, block_threads, items_per_thread, stage_values, keys_apart>>;
  static constexpr int shared_bytes = static_cast<int>(sizeof(shared_type));
};

template <class Key, class Value, class Tuning>
inline constexpr tuning::radix_value_load radix_value_load_of = radix_onesweep_config<Key, Value, Tuning>::value_load;

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
