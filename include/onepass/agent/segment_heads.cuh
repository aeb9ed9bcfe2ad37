// onepass/agent/segment_heads.cuh — where a segmented scan's heads come from.
//
// A head source is a policy of the segmented scan kernels: head flags (flag_heads), a
// change of key (key_heads, the scans by key), or the bitmaps the offsets form marks
// (bitmap_heads, csr_bitmap_heads; agent/segment_marking.cuh builds them).
#pragma once

#include "onepass/agent/segmented_thread.cuh"

namespace onepass::detail {

// Each provides `has_gaps`, `has_window`, ok() (false: the input was found bad on the
// device, and the kernel writes nothing), and
//   load<N, V, ScratchBytes>(scratch, tile_begin, tile_valid, n): the calling thread's
//   thread_heads, for items tile_begin + threadIdx.x * N + [0, N). Item 0
//   of the array always begins a segment (or, for the offsets form, possibly a gap); the
//   source need not mark it, the kernel does. Slots past the end may hold anything.
//   `scratch` is the calling warp's ScratchBytes of shared memory (16-byte aligned; the
//   exchange of the values reuses it after load returns), which the source may use until
//   it returns, every lane done with it (__syncwarp) by then.
// Sources the pipelined agent (segmented_scan_pipeline.cuh) can use have `pipelined` true
// and split that in two, so that the loads stay in flight for a whole step:
//   fetched<N>: what a thread holds in registers between the two (a few words);
//   fetch<N>(tile_begin, n): issues the loads for the same items (zeros past n);
//   heads<N>(fetched): the thread_heads, once the loads are needed.
// A source with `has_window` (and no gaps) covers one contiguous range of items, given by
// window_begin() / window_end() (device loads): the kernels scan every item as if all were
// covered and write only the items inside the window.
// The offsets forms' sources wrapped in gaps_copied (agent/segmented_scan.cuh) have
// `copies_gaps` true: the kernels then write every item, those in no segment with their
// input value.

#if defined(__CUDACC__)
// flags[i] converting to true: item i begins a segment.
template <class Flag>
struct flag_heads {
  static constexpr bool has_gaps = false;
  static constexpr bool has_window = false;
  const Flag* flags;
  __device__ ONEPASS_FORCEINLINE bool ok() const { return true; }

  // Asks L2 for the flags `ahead` tiles past `tile`, as the one-tile kernel does for the
  // values, so that a tile's flags do not come from DRAM when its values come from L2.
  // Flags of any alignment: only the whole 16-byte chunks inside the tile's range.
  __device__ ONEPASS_FORCEINLINE void prefetch_l2(index_t tile, index_t ahead, index_t tile_items, index_t n) const {
    if (ahead <= 0) return;
    const index_t first = (tile + ahead) * tile_items;
    if (first >= n) return;
    prefetch_range_l2(flags + first, flags + (first + tile_items < n ? first + tile_items : n));
  }

  // Each thread reads its own N consecutive flags (blocked): with one-byte flags and
  // N = 16 that is one 16-byte load per thread, 512 contiguous bytes per warp, so no
  // exchange is needed.
  template <int N, int V, int ScratchBytes>
  __device__ ONEPASS_FORCEINLINE thread_heads load(unsigned char* /*scratch*/, index_t tile_begin,
                                                   long long tile_valid, index_t /*n*/) const {
    Flag f[N];
#pragma unroll
    for (int i = 0; i < N; ++i) f[i] = Flag{};
    load_blocked(flags + tile_begin, f, static_cast<int>(threadIdx.x), tile_valid);
    unsigned heads = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) heads |= static_cast<unsigned>(static_cast<bool>(f[i])) << i;
    return {heads, 0u};
  }

  // Pipelined: one-byte flags only (a thread's 32 flags are 8 registers), as words of
  // four flags; 16- or 8-byte loads when the thread's flags are whole and aligned.
  static constexpr bool pipelined = sizeof(Flag) == 1;
  template <int N>
  struct fetched {
    unsigned words[(N + 3) / 4];
  };
  template <int N>
  __device__ ONEPASS_FORCEINLINE fetched<N> fetch(index_t tile_begin, index_t n) const {
    fetched<N> f{};
    const index_t first = tile_begin + static_cast<index_t>(threadIdx.x) * N;
    const auto* bytes = reinterpret_cast<const unsigned char*>(flags);
    if constexpr (N % 8 == 0) {
      using vector_t = std::conditional_t<N % 16 == 0, uint4, uint2>;
      constexpr int V = static_cast<int>(sizeof(vector_t));
      if (first + N <= n && reinterpret_cast<std::uintptr_t>(bytes + first) % V == 0) {
        const auto* v = reinterpret_cast<const vector_t*>(bytes + first);
        // One vector load each, then a copy between registers: a memcpy straight from
        // global memory was compiled to V one-byte loads (the pointer's alignment lost).
#pragma unroll
        for (int j = 0; j < N / V; ++j) {
          const vector_t x = v[j];
          std::memcpy(&f.words[V / 4 * j], &x, V);
        }
        return f;
      }
    }
#pragma unroll
    for (int i = 0; i < N; ++i)
      if (first + i < n) f.words[i / 4] |= static_cast<unsigned>(bytes[first + i]) << (8 * (i % 4));
    return f;
  }
  template <int N>
  __device__ ONEPASS_FORCEINLINE thread_heads heads(const fetched<N>& f) const {
    unsigned heads = 0;
#pragma unroll
    for (int w = 0; w < (N + 3) / 4; ++w) {
      const unsigned x = f.words[w];
      // Bit 7 of each byte: set when the byte is nonzero (no carry crosses a byte).
      const unsigned nonzero = (((x & 0x7f7f7f7fu) + 0x7f7f7f7fu) | x) & 0x80808080u;
      // Bits 0, 8, 16, 24 moved to 21, 22, 23, 24 by one multiply (no two terms meet).
      heads |= ((((nonzero >> 7) * 0x00204081u) >> 21) & 0xfu) << (4 * w);
    }
    return {heads, 0u};
  }
};

// Stores the low Bytes bytes of x at p (aligned to Bytes) with one access.
template <int Bytes>
__device__ ONEPASS_FORCEINLINE void store_bytes(unsigned char* p, unsigned long long x) {
  if constexpr (Bytes == 8) {
    *reinterpret_cast<unsigned long long*>(p) = x;
  } else if constexpr (Bytes == 4) {
    *reinterpret_cast<unsigned*>(p) = static_cast<unsigned>(x);
  } else if constexpr (Bytes == 2) {
    *reinterpret_cast<unsigned short*>(p) = static_cast<unsigned short>(x);
  } else {
#pragma unroll
    for (int b = 0; b < Bytes; ++b) p[b] = static_cast<unsigned char>(x >> (8 * b));
  }
}

// keys[i] not equal (eq) to keys[i - 1]: item i begins a segment.
template <class Key, class Eq>
struct key_heads {
  static constexpr bool has_gaps = false;
  static constexpr bool has_window = false;
  const Key* keys;
  Eq eq;
  __device__ ONEPASS_FORCEINLINE bool ok() const { return true; }

  // Asks L2 for the keys `ahead` tiles past `tile`, as the kernel does for the values: the
  // keys are as many bytes as 4-byte values. Only for 16-byte aligned keys (the kernel's
  // vector path, where the dispatcher has checked them).
  __device__ ONEPASS_FORCEINLINE void prefetch_l2(index_t tile, index_t ahead, index_t tile_items, index_t n) const {
    prefetch_tile_l2(keys, tile, ahead, tile_items * static_cast<index_t>(sizeof(Key)),
                     n * static_cast<index_t>(sizeof(Key)));
  }

  // The keys are loaded vector-striped like the values (coalesced, 128-bit where aligned
  // and N allows), each compared with the key before it (a neighbour lane's, or lane 31's
  // of the previous vector, or for a warp's first item the global key before it), and the
  // results go through the scratch as bytes to reach blocked order. (Staging the keys in
  // the scratch with cp.async instead, so that they hold no registers in flight, and
  // comparing them there in blocked order was slower: docs/perf/segmented_scan.md.)
  template <int N, int V, int ScratchBytes>
  __device__ ONEPASS_FORCEINLINE thread_heads load(unsigned char* scratch, index_t tile_begin, long long tile_valid,
                                                   index_t /*n*/) const {
    static_assert(32 * N <= ScratchBytes, "the warp's head bytes go through the scratch");
    // (Keys narrower than 2 bytes are read one per load: a vector of them would hold more
    // head bytes than one store_bytes moves.)
    constexpr int VK = (V > 1 && vector_width<Key> <= 8 && N % vector_width<Key> == 0) ? vector_width<Key> : 1;
    const int lane = lane_id();
    const int warp = warp_id();
    const index_t warp_begin = tile_begin + static_cast<index_t>(warp) * 32 * N;
    const long long warp_valid = tile_valid - static_cast<long long>(warp) * 32 * N;
    Key k[N];
#pragma unroll
    for (int i = 0; i < N; ++i) k[i] = Key{};
    load_vector_striped<32, VK>(keys + warp_begin, k, lane, warp_valid);
    // The key before the warp's first item (read by lane 0 only).
    Key before_warp{};
    if (lane == 0 && warp_begin > 0 && warp_valid > 0) before_warp = keys[warp_begin - 1];
#pragma unroll
    for (int j = 0; j < N / VK; ++j) {
      const Key from_lower_lane = shfl_up(k[j * VK + VK - 1], 1);
      const Key from_lane_31 = j > 0 ? shfl_idx(k[(j - 1) * VK + VK - 1], 31) : before_warp;
      Key previous = lane > 0 ? from_lower_lane : from_lane_31;
      // VK bytes (0 or 1) packed into one store of VK bytes.
      unsigned long long packed = 0;
#pragma unroll
      for (int v = 0; v < VK; ++v) {
        packed |= static_cast<unsigned long long>(!static_cast<bool>(eq(previous, k[j * VK + v]))) << (8 * v);
        previous = k[j * VK + v];
      }
      store_bytes<VK>(scratch + (lane + j * 32) * VK, packed);
    }
    __syncwarp();
    // The thread's N bytes, four at a time where N allows: 0/1 bytes to bits.
    unsigned heads = 0;
    if constexpr (N % 4 == 0) {
      const auto* words = reinterpret_cast<const unsigned*>(scratch + lane * N);
#pragma unroll
      for (int w = 0; w < N / 4; ++w) {
        const unsigned x = words[w];
#pragma unroll
        for (int b = 0; b < 4; ++b) heads |= ((x >> (8 * b)) & 1u) << (4 * w + b);
      }
    } else {
#pragma unroll
      for (int i = 0; i < N; ++i) heads |= static_cast<unsigned>(scratch[lane * N + i]) << i;
    }
    __syncwarp();  // every lane is done with the scratch
    return {heads, 0u};
  }

  // Pipelined for keys of up to 4 bytes: a thread holds its N keys in registers for a step
  // (16 registers for 16 int32 keys; the values wait in shared memory), and lane 0 the key
  // before its warp. The dispatcher takes this path where the tuning row gives scan by key
  // a register cap of its own (pipeline_by_key_min_blocks_per_sm: the 4-byte row's 64
  // registers spilled the keys, 80 do not). 8-byte keys stay one tile per block. (Keys
  // staged in shared memory instead cost the pipeline a block a SM and gained nothing:
  // docs/perf/segmented_scan.md, "Scan by key pipelined, its keys staged"; in registers,
  // "Scan by key pipelined, its keys in registers".)
  static constexpr bool pipelined = sizeof(Key) <= 4;
  template <int N>
  struct fetched {
    Key k[N];
    Key before;  // lane 0's only: the key before the warp's first item
  };
  // The thread's N consecutive keys (blocked, as its values): 16-byte loads when they are
  // whole and fill whole vectors (the keys are 16-byte aligned where this path runs, and a
  // thread's first key sits N * sizeof(Key) bytes past the last thread's); keys past n
  // are Key{} (their heads fall on items nothing stores).
  template <int N>
  __device__ ONEPASS_FORCEINLINE fetched<N> fetch(index_t tile_begin, index_t n) const {
    fetched<N> f;
    const index_t first = tile_begin + static_cast<index_t>(threadIdx.x) * N;
    constexpr int bytes = N * static_cast<int>(sizeof(Key));
    bool as_vectors = false;
    if constexpr (bytes % 16 == 0) as_vectors = first + N <= n;
    if (as_vectors) {
      const auto* v = reinterpret_cast<const uint4*>(keys + first);
#pragma unroll
      for (int j = 0; j < bytes / 16; ++j) {
        const uint4 x = v[j];
        std::memcpy(reinterpret_cast<unsigned char*>(f.k) + 16 * j, &x, 16);
      }
    } else {
#pragma unroll
      for (int i = 0; i < N; ++i) f.k[i] = first + i < n ? keys[first + i] : Key{};
    }
    f.before = Key{};
    if (lane_id() == 0 && first > 0 && first <= n) f.before = keys[first - 1];
    return f;
  }
  // Every thread of the warp calls it (the key before a lane's first item is the lower
  // lane's last).
  template <int N>
  __device__ ONEPASS_FORCEINLINE thread_heads heads(const fetched<N>& f) const {
    const Key from_lower_lane = shfl_up(f.k[N - 1], 1);
    Key previous = lane_id() == 0 ? f.before : from_lower_lane;
    unsigned heads = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) {
      heads |= static_cast<unsigned>(!static_cast<bool>(eq(previous, f.k[i]))) << i;
      previous = f.k[i];
    }
    return {heads, 0u};
  }
};

// A thread's N bits of a bitmap of 32-bit words: items [first, first + N), where `word`
// is the word holding item `first` (32 % N == 0 and first a multiple of N: one word).
template <int N>
__device__ ONEPASS_FORCEINLINE unsigned bitmap_bits(std::uint32_t word, index_t first) {
  static_assert(32 % N == 0, "a thread's bits must lie in one word");
  const unsigned mask = N == 32 ? ~0u : (1u << N) - 1u;
  return (word >> static_cast<int>(first % 32)) & mask;
}

// The offsets form's heads, from two bitmaps of one bit per item (32 items per word):
// `begins` marks the first item of every non-empty segment, `ends` the item just past a
// segment (empty ones too) where the next segment does not begin: a gap's first item, which
// no segment covers. An item with an `ends` bit starts a gap (the scan still takes the kind
// as e & ~b). Segments that leave no gap mark no `ends` bit.
struct bitmap_heads {
  static constexpr bool has_gaps = true;
  static constexpr bool has_window = false;
  const std::uint32_t* begins;
  const std::uint32_t* ends;
  // Zero unless the offsets were found bad (segment_offsets_error); then nothing is
  // written.
  const unsigned long long* error;
  // Nonzero where the marking set some `ends` bit (mark_segments_kernel).
  const unsigned* gaps_found;
  __device__ ONEPASS_FORCEINLINE bool ok() const { return *error == 0; }
  // Called on the pipelined agent's copy for its block (block_view_of): where no segment
  // leaves a gap, the `ends` bitmap is all zero, and reading the `begins` word in its place
  // gives the same heads (b | b) and no gap (b & ~b) with no branch: the second load of the
  // same word costs no DRAM traffic, where the zeros cost n / 8 bytes.
  static constexpr bool has_block_view = true;
  __device__ ONEPASS_FORCEINLINE void prepare_block() {
    if (*gaps_found == 0) ends = begins;
  }

  template <int N, int V, int ScratchBytes>
  __device__ ONEPASS_FORCEINLINE thread_heads load(unsigned char* /*scratch*/, index_t tile_begin,
                                                   long long /*tile_valid*/, index_t n) const {
    const index_t first = tile_begin + static_cast<index_t>(threadIdx.x) * N;
    if (first >= n) return {0u, 0u};
    const unsigned b = bitmap_bits<N>(begins[first / 32], first);
    const unsigned e = bitmap_bits<N>(ends[first / 32], first);
    return {b | e, e & ~b};
  }

  // Pipelined: the thread's word of each bitmap (its N bits start at (threadIdx.x * N) %
  // 32 of it: tiles are whole words).
  static constexpr bool pipelined = true;
  template <int N>
  struct fetched {
    std::uint32_t begins, ends;
  };
  template <int N>
  __device__ ONEPASS_FORCEINLINE fetched<N> fetch(index_t tile_begin, index_t n) const {
    static_assert(32 % N == 0, "a thread's bits must lie in one word");
    const index_t first = tile_begin + static_cast<index_t>(threadIdx.x) * N;
    if (first >= n) return {0u, 0u};
    return {begins[first / 32], ends[first / 32]};
  }
  template <int N>
  __device__ ONEPASS_FORCEINLINE thread_heads heads(const fetched<N>& f) const {
    const unsigned b = bitmap_bits<N>(f.begins, threadIdx.x * N);
    const unsigned e = bitmap_bits<N>(f.ends, threadIdx.x * N);
    return {b | e, e & ~b};
  }
};

// The offsets form's heads for CSR offsets (one array of count + 1 boundaries): the
// segments then tile [offsets[0], offsets[count]) with no gap between them, so the items
// in no segment are the ones before offsets[0] and from offsets[count] on: one window.
// The scan treats every item as covered (the begins bitmap marks each non-empty segment's
// first item, and the first item at or after offsets[0] always begins one, so nothing
// before the window reaches into it) and writes only the window. No gap heads, so the
// kernels run their gap-free code; the window's ends are read once per block (pipelined
// agent) or tile (one-tile agent). Half the bitmap bytes of bitmap_heads to clear, mark
// and read. (The trailing gap as a gap head, read from the offsets by every thread of
// every tile, made the kernels run their gap code: docs/perf/segmented_scan.md, "CSR
// offsets: one window, no gap heads".)
template <class Offset>
struct csr_bitmap_heads {
  static constexpr bool has_gaps = false;
  static constexpr bool has_window = true;
  const std::uint32_t* begins;
  const Offset* first_boundary;  // offsets
  const Offset* last_boundary;   // offsets + count
  const unsigned long long* error;  // as bitmap_heads'
  __device__ ONEPASS_FORCEINLINE bool ok() const { return *error == 0; }
  // The covered items, [window_begin(), window_end()) (valid offsets: checked before the
  // scan, and nothing is written when one is bad).
  __device__ ONEPASS_FORCEINLINE index_t window_begin() const { return static_cast<index_t>(*first_boundary); }
  __device__ ONEPASS_FORCEINLINE index_t window_end() const { return static_cast<index_t>(*last_boundary); }

  template <int N, int V, int ScratchBytes>
  __device__ ONEPASS_FORCEINLINE thread_heads load(unsigned char* /*scratch*/, index_t tile_begin,
                                                   long long /*tile_valid*/, index_t n) const {
    const index_t first = tile_begin + static_cast<index_t>(threadIdx.x) * N;
    if (first >= n) return {0u, 0u};
    return {bitmap_bits<N>(begins[first / 32], first), 0u};
  }

  static constexpr bool pipelined = true;
  template <int N>
  struct fetched {
    std::uint32_t begins;
  };
  template <int N>
  __device__ ONEPASS_FORCEINLINE fetched<N> fetch(index_t tile_begin, index_t n) const {
    static_assert(32 % N == 0, "a thread's bits must lie in one word");
    const index_t first = tile_begin + static_cast<index_t>(threadIdx.x) * N;
    if (first >= n) return {0u};
    return {begins[first / 32]};
  }
  template <int N>
  __device__ ONEPASS_FORCEINLINE thread_heads heads(const fetched<N>& f) const {
    return {bitmap_bits<N>(f.begins, threadIdx.x * N), 0u};
  }
};

// The mask of items first + [0, N) outside the window [begin, end) (a source's
// has_window): the items a kernel must not write. (Host too: tested without a GPU.)
template <int N>
ONEPASS_HD ONEPASS_FORCEINLINE unsigned outside_window(index_t first, index_t begin, index_t end) {
  if (first >= begin && first + N <= end) return 0u;
  unsigned outside = 0;
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
  for (int i = 0; i < N; ++i) outside |= static_cast<unsigned>(first + i < begin || first + i >= end) << i;
  return outside;
}
#endif  // defined(__CUDACC__)

}  // namespace onepass::detail
