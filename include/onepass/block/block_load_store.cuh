// onepass/block/block_load_store.cuh — move a tile between global memory and registers.
//
// The vector-striped arrangement (see block_exchange.cuh): thread `rank` of `Threads`
// holds, for j in [0, N/V), the V items starting at (rank + j*Threads) * V. With
// V * sizeof(T) == 16 every access is a 128-bit load or store and a warp touches 512
// contiguous bytes per instruction. Full tiles take the vector path; the last, partial
// tile is guarded item by item.
//
// 128-bit accesses need 16-byte-aligned pointers: callers check `is_vector_aligned`
// and pick V = 1 otherwise (any T-aligned pointer works then).
#pragma once

#include <cstdint>
#include <cstring>

#include "onepass/detail/config.cuh"

namespace onepass {

// Elements of T per 128-bit vector, or 1 when T does not tile 16 bytes.
template <class T>
constexpr int vector_width = (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? static_cast<int>(16 / sizeof(T)) : 1;

inline ONEPASS_HD bool is_vector_aligned(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

namespace detail {
// V items moved as one access: a 16-byte vector when V > 1 (the caller has checked the
// pointer's alignment), T itself with T's own alignment when V == 1 (a 12-byte struct, or
// a 16-byte one that may be only 4-byte aligned).
template <class T, int V>
struct alignas(V > 1 ? sizeof(T) * V : alignof(T)) vector_of {
  T v[V];
};
}  // namespace detail

#if defined(__CUDACC__)
// Loads a tile of Threads*N items starting at `tile` in vector-striped order.
// `valid` items are in range; slots past the end are left as they are.
template <int Threads, int V, class T, int N>
__device__ ONEPASS_FORCEINLINE void load_vector_striped(const T* tile, T (&items)[N], int rank,
                                                        long long valid) {
  static_assert(N % V == 0, "items per thread must be a multiple of the vector width");
  if (valid >= static_cast<long long>(Threads) * N) {
    using vec = detail::vector_of<T, V>;
    const vec* src = reinterpret_cast<const vec*>(tile);
#pragma unroll
    for (int j = 0; j < N / V; ++j) {
      const vec x = src[rank + j * Threads];
#pragma unroll
      for (int v = 0; v < V; ++v) items[j * V + v] = x.v[v];
    }
  } else {
#pragma unroll
    for (int k = 0; k < N; ++k) {
      const int i = (rank + (k / V) * Threads) * V + k % V;
      if (i < valid) items[k] = tile[i];
    }
  }
}

// Stores a tile in vector-striped order; only the first `valid` items are written.
template <int Threads, int V, class T, int N>
__device__ ONEPASS_FORCEINLINE void store_vector_striped(T* tile, const T (&items)[N], int rank,
                                                         long long valid) {
  static_assert(N % V == 0, "items per thread must be a multiple of the vector width");
  if (valid >= static_cast<long long>(Threads) * N) {
    using vec = detail::vector_of<T, V>;
    vec* dst = reinterpret_cast<vec*>(tile);
#pragma unroll
    for (int j = 0; j < N / V; ++j) {
      vec x;
#pragma unroll
      for (int v = 0; v < V; ++v) x.v[v] = items[j * V + v];
      dst[rank + j * Threads] = x;
    }
  } else {
#pragma unroll
    for (int k = 0; k < N; ++k) {
      const int i = (rank + (k / V) * Threads) * V + k % V;
      if (i < valid) tile[i] = items[k];
    }
  }
}

// Loads thread `rank`'s N consecutive items [rank*N, rank*N + N) of a tile (blocked
// order) straight from global memory, as 128-bit vectors when the tile is 16-byte
// aligned and N*sizeof(T) is a multiple of 16. Not coalesced per instruction — the
// simple way to coarsen, used by the teaching ladder; the production path loads
// vector-striped and exchanges through shared memory instead.
template <class T, int N>
__device__ ONEPASS_FORCEINLINE void load_blocked(const T* tile, T (&items)[N], int rank,
                                                 long long valid) {
  const T* mine = tile + static_cast<long long>(rank) * N;
  constexpr int V = vector_width<T>;
  if constexpr (N % V == 0 && V > 1) {
    if (valid >= static_cast<long long>(rank + 1) * N && is_vector_aligned(tile)) {
      using vec = detail::vector_of<T, V>;
      const vec* src = reinterpret_cast<const vec*>(mine);
#pragma unroll
      for (int j = 0; j < N / V; ++j) {
        const vec x = src[j];
#pragma unroll
        for (int v = 0; v < V; ++v) items[j * V + v] = x.v[v];
      }
      return;
    }
  }
#pragma unroll
  for (int k = 0; k < N; ++k)
    if (static_cast<long long>(rank) * N + k < valid) items[k] = mine[k];
}

// Stores thread `rank`'s N blocked items; the counterpart of load_blocked.
template <class T, int N>
__device__ ONEPASS_FORCEINLINE void store_blocked(T* tile, const T (&items)[N], int rank,
                                                  long long valid) {
  T* mine = tile + static_cast<long long>(rank) * N;
  constexpr int V = vector_width<T>;
  if constexpr (N % V == 0 && V > 1) {
    if (valid >= static_cast<long long>(rank + 1) * N && is_vector_aligned(tile)) {
      using vec = detail::vector_of<T, V>;
      vec* dst = reinterpret_cast<vec*>(mine);
#pragma unroll
      for (int j = 0; j < N / V; ++j) {
        vec x;
#pragma unroll
        for (int v = 0; v < V; ++v) x.v[v] = items[j * V + v];
        dst[j] = x;
      }
      return;
    }
  }
#pragma unroll
  for (int k = 0; k < N; ++k)
    if (static_cast<long long>(rank) * N + k < valid) mine[k] = items[k];
}
#endif

}  // namespace onepass
