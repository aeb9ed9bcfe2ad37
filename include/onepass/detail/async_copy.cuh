// onepass/detail/async_copy.cuh — asynchronous global-to-shared copies (cp.async, sm_80+).
//
// A cp.async moves 16 bytes from global to shared memory without passing through
// registers, so a block can have its next tile's loads in flight while it does other
// work (the production scan overlaps them with the current tile's lookback). Copies are
// grouped per thread: commit() closes a group, wait<K>() returns when at most K of this
// thread's groups are still in flight. Other threads see the data only after the issuing
// thread's wait and a barrier (__syncthreads), the usual producer/consumer pattern.
#pragma once

#include <cstdint>

#include "onepass/detail/config.cuh"

namespace onepass::detail {

// Copies 16 bytes from `src` to `dst`, both 16-byte aligned. .cg: cached in L2 only,
// as streaming data is never reused from L1.
__device__ ONEPASS_FORCEINLINE void cp_async_16(void* dst, const void* src) {
  const unsigned dst_shared = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst_shared), "l"(src) : "memory");
}

// Copies one Bytes-byte element (4 or 8) from `src` to `dst`, both Bytes-aligned. .ca is
// the only form for copies under 16 bytes: the element passes through L1.
template <int Bytes>
__device__ ONEPASS_FORCEINLINE void cp_async_element(void* dst, const void* src) {
  static_assert(Bytes == 4 || Bytes == 8, "cp.async copies 4, 8 or 16 bytes");
  const unsigned dst_shared = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst_shared), "l"(src), "n"(Bytes) : "memory");
}

__device__ ONEPASS_FORCEINLINE void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int InFlight>
__device__ ONEPASS_FORCEINLINE void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(InFlight) : "memory");
}

// Asks the L2 to fetch `bytes` bytes at `src` (both multiples of 16) from DRAM, without
// any destination in the SM: one bulk (TMA) instruction, no registers, no shared memory,
// nothing to wait for. A hint: the data may be evicted before anyone reads it. sm_90+.
__device__ ONEPASS_FORCEINLINE void prefetch_l2_bulk(const void* src, unsigned bytes) {
#if ONEPASS_DEVICE_PASS && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(src), "r"(bytes) : "memory");
#else
  (void)src;
  (void)bytes;
#endif
}

// Asks the L2 for the 16-byte chunks that lie wholly inside [first, last): any pointers,
// aligned or not, and nothing outside the range is touched. One thread calls it; the
// range is a tile or a chunk, under 4 GiB (one bulk prefetch's byte count is 32 bits).
__device__ ONEPASS_FORCEINLINE void prefetch_range_l2(const void* first, const void* last) {
  const auto a = (reinterpret_cast<std::uintptr_t>(first) + 15) & ~std::uintptr_t{15};
  const auto b = reinterpret_cast<std::uintptr_t>(last) & ~std::uintptr_t{15};
  if (b > a) prefetch_l2_bulk(reinterpret_cast<const void*>(a), static_cast<unsigned>(b - a));
}

// A launch's prefetch distance in tiles (0 = none): `ahead_bytes` in whole tiles, for an
// input that starts 16-byte aligned, whose tiles are whole 16-byte chunks, and that is at
// least `min_input_bytes` long (the tunings' l2_prefetch_bytes / _min_input_bytes).
constexpr index_t l2_prefetch_tiles(index_t tile_bytes, index_t ahead_bytes, index_t min_input_bytes,
                                    index_t input_bytes, bool input_aligned) {
  return input_aligned && tile_bytes % 16 == 0 && input_bytes >= min_input_bytes ? ahead_bytes / tile_bytes : 0;
}

// Streaming kernels built on the lookback: the block holding tile `tile` prefetches tile
// `tile + ahead` (of `tile_bytes` each, the array being `total_bytes` long) into L2, so
// that tile's own loads, a few microseconds later, hit L2. Why it pays: a block that
// waits on its lookback holds its registers and shared memory without loading anything,
// so the bytes in flight per SM are capped by what the tiles that wait can hold; an L2
// prefetch keeps DRAM busy ahead of the claims at no such cost (docs/perf/select.md).
// One thread calls it; `base` 16-byte aligned; ahead == 0 does nothing.
__device__ ONEPASS_FORCEINLINE void prefetch_tile_l2(const void* base, index_t tile, index_t ahead,
                                                     index_t tile_bytes, index_t total_bytes) {
  if (ahead <= 0) return;
  const index_t begin = (tile + ahead) * tile_bytes;
  if (begin >= total_bytes) return;
  const index_t left = (total_bytes - begin) & ~index_t{15};
  const index_t bytes = left < tile_bytes ? left : tile_bytes;
  if (bytes > 0) prefetch_l2_bulk(static_cast<const char*>(base) + begin, static_cast<unsigned>(bytes));
}

}  // namespace onepass::detail
