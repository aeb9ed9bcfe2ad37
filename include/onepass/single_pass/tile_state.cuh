// onepass/single_pass/tile_state.cuh — the tile descriptors of single-pass (decoupled
// lookback) algorithms, and the counter that hands out tile indices.
//
// Every tile of the input owns a descriptor that moves INVALID -> AGGREGATE -> PREFIX:
//   AGGREGATE: the combination of the tile's own items is known;
//   PREFIX:    the combination of everything up to and including this tile is known.
//
// Memory layout and ordering. A descriptor is one 64-bit word per 32-bit chunk of the
// value: status in the high half, the chunk in the low half. Each word is written and
// read with a single 64-bit atomic access, so a reader that sees a status also sees the
// chunk written together with it — never a stale value, and no fence or acquire/release
// pair is needed: the value travels inside the same single-copy-atomic word as the flag.
// A value wider than 4 bytes (int64, double, a struct) spans several words; the reader
// accepts a descriptor only when all its words carry the same status. That is sound
// because each (word, status) pair is written exactly once per launch: if every word
// says AGGREGATE (or every word says PREFIX), every chunk comes from that one
// publication. A reader that catches a descriptor half-way between AGGREGATE and PREFIX
// simply reads it again. Relaxed atomics at device scope (ld/st.relaxed.gpu) are enough,
// and they are served by L2, so spinning readers see a publication promptly.
//
// Descriptors must read INVALID (all zero) when a launch starts: dispatchers clear them
// with a stream-ordered memset before the kernel, so kernel-boundary ordering makes the
// clearing visible and a descriptor from an earlier launch is never read. A kernel
// launched cooperatively may instead clear them itself (clear_part by every thread of
// the grid, then a grid barrier, whose fence orders the clearing before any publication
// or read): agent/scan_pipeline.cuh does, saving the memset's launch.
//
// Spacing. Each descriptor sits in a slot of at least MinSlotWords words, the rest of
// the slot unused: 2 (16 bytes, at most two tiles to a 32-byte sector) by default, 4 (one
// tile to a sector) where that measured faster. Packed four to a sector, one-word
// descriptors (4-byte values) slowed the plain int32 scan where its lookback is on the
// critical path, and the segmented scan by key on one long segment: neighbouring tiles'
// publications and the polls of the blocks looking back at them meet in one sector.
// Sectors of their own sped up the select and the segmented scan's two-word descriptors,
// but slowed the plain int64 scan on one sm_90 part, whose pipelined agent reads wider
// windows (docs/perf/scan.md, "Descriptor spacing"). The users choose: the plain scan the
// default, select and the segmented scan 4.
//
// Pairs. One-word descriptors may instead go two tiles to a slot (TilesPerSlot = 2):
// tiles 2k and 2k + 1 in the slot's first two words, adjacent, 16-byte aligned, so that
// a reader of both asks for their sector once, with one 16-byte load (try_read_slot),
// where two 8-byte loads ask twice. lookback_warp reads its windows that way when a lane
// takes an even number of tiles. The plain scan's 4-byte values use slots of four words
// (16 bytes a tile and two tiles a sector, as with the default): a small gain
// (docs/perf/scan.md, "Two tiles a slot").
//
// Two-word descriptors (8-byte values) are written and read on the device with one
// 16-byte access (st/ld.relaxed.gpu.v2.u64) instead of two 8-byte ones. The PTX memory
// model treats a vector access as one relaxed access per element, so each word is still
// read and written whole and the agreement rule above is unchanged; what changes is the
// traffic: one request to the descriptor's sector instead of two. Every poll of a
// lookback window reads half as many sector requests, a gain for the plain int64 scan and
// the select's 64-bit counts (docs/perf/scan.md, "What a descriptor read costs"). Such a
// descriptor must start 16
// bytes aligned: slots of two or four words from a 16-byte aligned array (every
// dispatcher's workspace is).
//
// The same code compiles for the host (cuda::atomic_ref works on std memory there), which
// lets tests drive the protocol from many CPU threads under ThreadSanitizer.
#pragma once

#include <cuda/atomic>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "onepass/detail/config.cuh"

namespace onepass::lookback {

enum class tile_status : std::uint32_t { invalid = 0, aggregate = 1, prefix = 2 };

using descriptor_word = unsigned long long;

template <class T, int MinSlotWords = 2, int TilesPerSlot = 1>
class tile_state {
  static_assert(std::is_trivially_copyable_v<T>, "tile values must be trivially copyable");
  static_assert(MinSlotWords >= 1, "a slot holds at least one word");

 public:
  using value_type = T;
  static constexpr int words_per_tile = static_cast<int>((sizeof(T) + 3) / 4);
  static_assert(TilesPerSlot == 1 || (TilesPerSlot == 2 && words_per_tile == 1),
                "only one-word descriptors share a slot, two to a slot");
  // Tiles whose descriptors share a slot (see "Pairs" above).
  static constexpr int tiles_per_slot = TilesPerSlot;
  // Words from one slot to the next (see "Spacing" above).
  static constexpr int slot_words =
      TilesPerSlot * words_per_tile < MinSlotWords ? MinSlotWords : TilesPerSlot * words_per_tile;

  // Slots holding `num_tiles` tiles.
  ONEPASS_HD static constexpr index_t slots(index_t num_tiles) {
    return TilesPerSlot == 1 ? num_tiles : (num_tiles + 1) / 2;
  }
  // Bytes of descriptor storage for `num_tiles` tiles.
  static constexpr std::size_t bytes(index_t num_tiles) {
    return static_cast<std::size_t>(slots(num_tiles)) * slot_words * sizeof(descriptor_word);
  }

  tile_state() = default;
  // `words` must hold bytes(num_tiles) bytes, 16-byte aligned, zeroed before first use.
  ONEPASS_HD explicit tile_state(void* words) : words_(static_cast<descriptor_word*>(words)) {}

  // One of `count` interleaved tile_states sharing an array: tile t's descriptor of
  // state i (0 <= i < count) sits at words (t * count + i) * words_per_tile, packed (no
  // slot spacing). A radix sort kept one state per digit this way, so a tile publishes all
  // its digits' counts with one contiguous, coalesced store, and the threads looking back
  // at one tile read neighbouring words. `words` must hold count * bytes(num_tiles) bytes.
  ONEPASS_HD tile_state(void* words, int i, int count)
      : words_(static_cast<descriptor_word*>(words) + static_cast<index_t>(i) * words_per_tile),
        stride_(static_cast<index_t>(count) * words_per_tile) {
    static_assert(TilesPerSlot == 1, "interleaved states do not share slots");
  }

  // Tags. A publication may carry a small tag beside its value (at most max_tag), held in
  // the status half of every word above the status's two bits: it costs no word of its
  // own, and a reader gets it from the same single-copy-atomic words as the value, so the
  // argument above covers it (all words agree on status and tag, or the read is INVALID).
  static constexpr int status_bits = 2;
  static constexpr std::uint32_t max_tag = (1u << (32 - status_bits)) - 1;
  static constexpr std::uint32_t status_mask = (1u << status_bits) - 1;

  // Makes `value` with status `s` (and `tag`) visible to readers of `tile`. A tile
  // publishes at most once per status, AGGREGATE (optional) before PREFIX.
  ONEPASS_HD ONEPASS_FORCEINLINE void publish(index_t tile, tile_status s, const T& value,
                                              std::uint32_t tag = 0) const {
    std::uint32_t chunks[words_per_tile] = {};
    std::memcpy(chunks, &value, sizeof(T));
    const descriptor_word high = static_cast<descriptor_word>(tag << status_bits | static_cast<std::uint32_t>(s))
                                 << 32;
#if ONEPASS_DEVICE_PASS
    if constexpr (words_per_tile == 2) {  // one 16-byte store (see "Two-word descriptors")
      const descriptor_word first = high | chunks[0], second = high | chunks[1];
      asm volatile("st.relaxed.gpu.v2.u64 [%0], {%1, %2};\n" ::"l"(address(tile)), "l"(first), "l"(second)
                   : "memory");
    } else
#endif
    {
      for (int w = 0; w < words_per_tile; ++w) {
        word(tile, w).store(high | chunks[w], cuda::std::memory_order_relaxed);
      }
    }
  }

  // Sets every descriptor of tiles [0, num_tiles) to INVALID, as thread `rank` of
  // `count` threads that share the work (each clears the words rank, rank + count, ...;
  // the unused words of the slots too). A contiguous state only (not one of several
  // interleaved ones). The caller orders the clearing before every use, across the whole
  // grid (a grid barrier).
  ONEPASS_HD ONEPASS_FORCEINLINE void clear_part(index_t num_tiles, index_t rank, index_t count) const {
    const index_t words = slots(num_tiles) * slot_words;
    for (index_t w = rank; w < words; w += count) {
      cuda::atomic_ref<descriptor_word, cuda::thread_scope_device>(words_[w]).store(
          0, cuda::std::memory_order_relaxed);
    }
  }

  // Reads `tile`'s descriptor. Returns INVALID (and leaves `value` alone) until the tile
  // has published, or while its words disagree during an AGGREGATE -> PREFIX update. A
  // publication's tag is dropped.
  ONEPASS_HD ONEPASS_FORCEINLINE tile_status try_read(index_t tile, T& value) const {
    return static_cast<tile_status>(read(tile, value) & status_mask);
  }

  // The same, and sets `tag` to the publication's tag (left alone while INVALID).
  ONEPASS_HD ONEPASS_FORCEINLINE tile_status try_read(index_t tile, T& value, std::uint32_t& tag) const {
    const std::uint32_t high = read(tile, value);
    if (high != 0) tag = high >> status_bits;
    return static_cast<tile_status>(high & status_mask);
  }

  // Reads the descriptors of the two tiles of one slot, `first` (even) and first + 1: on
  // the device one 16-byte load, which asks for their sector once instead of twice. Each
  // word is still one relaxed access (a vector access is one per element), so each
  // status comes with its own value as in try_read. Only with TilesPerSlot == 2.
  ONEPASS_HD ONEPASS_FORCEINLINE void try_read_slot(index_t first, T& value0, tile_status& status0, T& value1,
                                                    tile_status& status1) const {
    static_assert(TilesPerSlot == 2, "a slot of one tile: try_read");
    descriptor_word words[2];
#if ONEPASS_DEVICE_PASS
    asm volatile("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];\n"
                 : "=l"(words[0]), "=l"(words[1])
                 : "l"(address(first))
                 : "memory");
#else
    words[0] = word(first, 0).load(cuda::std::memory_order_relaxed);
    words[1] = word(first + 1, 0).load(cuda::std::memory_order_relaxed);
#endif
    status0 = unpack(words[0], value0);
    status1 = unpack(words[1], value1);
  }

 private:
  // The status half the words of `tile` agree on (status and tag), 0 (INVALID) if they
  // do not; sets `value` unless 0.
  ONEPASS_HD ONEPASS_FORCEINLINE std::uint32_t read(index_t tile, T& value) const {
    descriptor_word words[words_per_tile];
#if ONEPASS_DEVICE_PASS
    if constexpr (words_per_tile == 2) {  // one 16-byte load (see "Two-word descriptors")
      asm volatile("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];\n"
                   : "=l"(words[0]), "=l"(words[1])
                   : "l"(address(tile))
                   : "memory");
    } else
#endif
    {
      for (int w = 0; w < words_per_tile; ++w) {
        words[w] = word(tile, w).load(cuda::std::memory_order_relaxed);
      }
    }
    const std::uint32_t high = static_cast<std::uint32_t>(words[0] >> 32);
    for (int w = 1; w < words_per_tile; ++w) {
      if (static_cast<std::uint32_t>(words[w] >> 32) != high) return 0;
    }
    if (high != 0) {
      std::uint32_t chunks[words_per_tile];
      for (int w = 0; w < words_per_tile; ++w) chunks[w] = static_cast<std::uint32_t>(words[w]);
      std::memcpy(&value, chunks, sizeof(T));
    }
    return high;
  }

  // A one-word descriptor's status, and its value unless INVALID.
  ONEPASS_HD static ONEPASS_FORCEINLINE tile_status unpack(descriptor_word w, T& value) {
    const auto high = static_cast<std::uint32_t>(w >> 32);
    if (high != 0) {
      const auto chunk = static_cast<std::uint32_t>(w);
      std::memcpy(&value, &chunk, sizeof(T));
    }
    return static_cast<tile_status>(high & status_mask);
  }

  ONEPASS_HD ONEPASS_FORCEINLINE cuda::atomic_ref<descriptor_word, cuda::thread_scope_device> word(
      index_t tile, int w) const {
    if constexpr (TilesPerSlot == 1) {
      return cuda::atomic_ref<descriptor_word, cuda::thread_scope_device>(words_[tile * stride_ + w]);
    } else {
      return cuda::atomic_ref<descriptor_word, cuda::thread_scope_device>(address(tile)[w]);
    }
  }
  // The first word of `tile`'s descriptor.
  ONEPASS_HD ONEPASS_FORCEINLINE descriptor_word* address(index_t tile) const {
    if constexpr (TilesPerSlot == 1) {
      return words_ + tile * stride_;
    } else {  // two tiles a slot, one word each
      return words_ + (tile >> 1) * stride_ + (tile & 1);
    }
  }

  descriptor_word* words_ = nullptr;
  index_t stride_ = slot_words;  // words from one tile's descriptor to the next
};

// A count descriptor in one 32-bit word: the status in the top two bits, the count in the
// low 30. Half the bytes of tile_state<std::uint32_t> to clear, publish and poll, for
// values known to stay below 2^30 (a radix sort's per-digit key counts within a portion
// of at most 2^28 keys). The same single-word argument as tile_state's applies: status
// and count are written and read together by one 32-bit atomic access, and each status
// is published once per launch. Always one of `Interleave` states sharing an array (a
// compile-time number, so that walking from one tile's word to the next is an immediate
// offset): tile t's word of state i is words[t * Interleave + i].
template <int Interleave>
class count_state {
  static_assert(Interleave >= 1, "at least one state");

 public:
  using value_type = std::uint32_t;
  static constexpr int interleave = Interleave;
  static constexpr std::uint32_t max_count = (1u << 30) - 1;
  // The top two bits of a word: its tile_status.
  static constexpr int status_shift = 30;

  // Bytes of one state's words for `num_tiles` tiles (all Interleave states: that times
  // Interleave).
  static constexpr std::size_t bytes(index_t num_tiles) {
    return static_cast<std::size_t>(num_tiles) * sizeof(std::uint32_t);
  }

  count_state() = default;
  // State i (0 <= i < Interleave) of the array `words`, zeroed before first use.
  ONEPASS_HD count_state(void* words, int i) : words_(static_cast<std::uint32_t*>(words) + i) {}

  // `value` must be at most max_count.
  ONEPASS_HD ONEPASS_FORCEINLINE void publish(index_t tile, tile_status s, std::uint32_t value) const {
    atomic_word(word(tile)).store(static_cast<std::uint32_t>(s) << status_shift | value,
                                  cuda::std::memory_order_relaxed);
  }

  ONEPASS_HD ONEPASS_FORCEINLINE tile_status try_read(index_t tile, std::uint32_t& value) const {
    const std::uint32_t w = load(word(tile));
    if (w >> status_shift != static_cast<std::uint32_t>(tile_status::invalid)) value = w & max_count;
    return static_cast<tile_status>(w >> status_shift);
  }

  // Raw access for walks that read many words (lookback_counts): this state's word of
  // `tile`, and one relaxed atomic read of such a word.
  ONEPASS_HD ONEPASS_FORCEINLINE std::uint32_t* word(index_t tile) const { return words_ + tile * Interleave; }
  ONEPASS_HD static ONEPASS_FORCEINLINE std::uint32_t load(std::uint32_t* w) {
    return atomic_word(w).load(cuda::std::memory_order_relaxed);
  }

 private:
  ONEPASS_HD static ONEPASS_FORCEINLINE cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> atomic_word(
      std::uint32_t* w) {
    return cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(*w);
  }

  std::uint32_t* words_ = nullptr;
};

// Hands out tile indices in the order in which blocks ask for them. A block that gets
// index t knows that blocks holding 0..t-1 have already started (they asked first), so
// waiting on them cannot deadlock — unlike using blockIdx.x, whose blocks the hardware
// may schedule in any order. Relaxed is enough: only the uniqueness and order of the
// returned numbers matter, no data is published through the counter.
class tile_counter {
 public:
  tile_counter() = default;
  ONEPASS_HD explicit tile_counter(void* counter)
      : counter_(static_cast<unsigned long long*>(counter)) {}

  static constexpr std::size_t bytes() { return sizeof(unsigned long long); }

  ONEPASS_HD ONEPASS_FORCEINLINE index_t claim() const {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> c(*counter_);
    return static_cast<index_t>(c.fetch_add(1ull, cuda::std::memory_order_relaxed));
  }

  // Makes the next claim return `first`: for a kernel that hands out its first tiles
  // without the counter and sets it itself (in place of the dispatcher's memset), before
  // a grid barrier that orders the store before every claim.
  ONEPASS_HD ONEPASS_FORCEINLINE void reset(index_t first) const {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> c(*counter_);
    c.store(static_cast<unsigned long long>(first), cuda::std::memory_order_relaxed);
  }

 private:
  unsigned long long* counter_ = nullptr;
};

}  // namespace onepass::lookback
