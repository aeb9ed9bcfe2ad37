// onepass/agent/radix_common.cuh — what the radix sort's two kernels share: digits and
// passes, the ranking's warp primitives, a portion's description, the onesweep kernel's
// shared-memory layouts and its configuration from the tuning.
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

}  // namespace onepass::detail
