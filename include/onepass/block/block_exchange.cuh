// onepass/block/block_exchange.cuh — rearrange a tile between striped and blocked order
// through shared memory.
//
// A tile of Threads * N items can sit in registers in two arrangements:
//   blocked:         thread t holds items [t*N, t*N + N)   — what a scan wants;
//   vector-striped:  thread t holds, for j in [0, N/V), the V consecutive items starting
//                    at (t + j*Threads) * V                — what coalesced (and, with
//                    V*sizeof(T) == 16, 128-bit) global loads and stores produce.
// V = 1 is the classic striped arrangement (item k of thread t is k*Threads + t).
//
// Shared memory holds the tile in element order with one padding element per 128-byte
// row, which makes both the blocked and the vector-striped accesses free of bank
// conflicts while a thread's run is at most one row (32 four-byte or 16 eight-byte items).
// A run of two rows (64 four-byte or 32 eight-byte items) has a stride of 66 or 34 slots,
// and its blocked accesses conflict 2-way (measured: docs/perf/select.md,
// docs/perf/segmented_scan.md; a second pad per run cost registers there).
//
// Scope::warp exchanges one warp's segment and synchronises with __syncwarp; Scope::block
// the whole block's tile with __syncthreads. Storage is caller-owned; the storage of two
// consecutive exchanges may be reused (each exchange synchronises before it writes back).
#pragma once

#include "onepass/detail/shuffle.cuh"

namespace onepass {

enum class exchange_scope { warp, block };

template <class T, int Threads, int N, int V = 1, exchange_scope Scope = exchange_scope::block>
class exchange {
  static_assert(N % V == 0, "items per thread must be a multiple of the vector width");
  static constexpr int items = Threads * N;
  static constexpr int row = sizeof(T) >= 128 ? 1 : static_cast<int>(128 / sizeof(T));
  static __device__ ONEPASS_FORCEINLINE int padded(int i) { return i + i / row; }

 public:
  struct storage {
    T slots[items + items / row + 1];
  };

  // rank: the thread's rank within the scope (lane for warp scope, threadIdx.x for block).
  __device__ exchange(storage& s, int rank) : storage_(s), rank_(rank) {}

  __device__ ONEPASS_FORCEINLINE void striped_to_blocked(T (&in)[N], T (&out)[N]) {
#pragma unroll
    for (int k = 0; k < N; ++k) storage_.slots[padded(striped_index(k))] = in[k];
    sync();
#pragma unroll
    for (int k = 0; k < N; ++k) out[k] = storage_.slots[padded(rank_ * N + k)];
  }

  __device__ ONEPASS_FORCEINLINE void blocked_to_striped(T (&in)[N], T (&out)[N]) {
    // The slots may still be read by a slower thread's earlier striped_to_blocked.
    sync();
#pragma unroll
    for (int k = 0; k < N; ++k) storage_.slots[padded(rank_ * N + k)] = in[k];
    sync();
#pragma unroll
    for (int k = 0; k < N; ++k) out[k] = storage_.slots[padded(striped_index(k))];
  }

  // Item i of the scope, in element order, which is how the slots hold the items after
  // either exchange, or after save_blocked and a sync (until the next exchange writes).
  __device__ ONEPASS_FORCEINLINE T element(int i) const { return storage_.slots[padded(i)]; }

  // Parks a thread's blocked items in its own slots and takes them back, to free their
  // registers across other work (nothing moves between threads). save_blocked first
  // waits until the slots are no longer read by an earlier striped_to_blocked.
  __device__ ONEPASS_FORCEINLINE void save_blocked(const T (&in)[N]) {
    sync();
#pragma unroll
    for (int k = 0; k < N; ++k) storage_.slots[padded(rank_ * N + k)] = in[k];
  }
  __device__ ONEPASS_FORCEINLINE void restore_blocked(T (&out)[N]) const {
#pragma unroll
    for (int k = 0; k < N; ++k) out[k] = storage_.slots[padded(rank_ * N + k)];
  }

 private:
  __device__ ONEPASS_FORCEINLINE int striped_index(int k) const {
    return (rank_ + (k / V) * Threads) * V + k % V;
  }
  static __device__ ONEPASS_FORCEINLINE void sync() {
    if constexpr (Scope == exchange_scope::warp) {
      __syncwarp();
    } else {
      __syncthreads();
    }
  }

  storage& storage_;
  int rank_;
};

template <class T, int BlockThreads, int N, int V = 1>
using block_exchange = exchange<T, BlockThreads, N, V, exchange_scope::block>;

template <class T, int N, int V = 1>
using warp_exchange = exchange<T, 32, N, V, exchange_scope::warp>;

}  // namespace onepass
