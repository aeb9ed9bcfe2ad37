// onepass/ladder/scan/chained.cuh — id "chained": single pass, each tile waits for its
// predecessor's inclusive prefix.
//
// Tiles (256 threads x 4 items) are claimed in execution order. A tile scans itself, then
// one thread spins until tile t-1 has published the combination of everything up to its
// end (PREFIX), folds in its own total and publishes PREFIX for tile t+1. Data crosses
// device memory once, but the tiles form a chain: one device-memory round trip (publish,
// then the successor's poll sees it) per tile, in series, so the GPU waits most of the
// time. lookback.cuh keeps this kernel and changes only how a tile learns its prefix.
#pragma once

#include <limits>

#include "onepass/block/block_load_store.cuh"
#include "onepass/block/block_scan.cuh"
#include "onepass/functional.cuh"
#include "onepass/ladder/scan/common.cuh"
#include "onepass/single_pass/lookback.cuh"

namespace onepass::ladder {

namespace detail {

constexpr int single_pass_threads = 256;
constexpr std::size_t single_pass_counter_bytes = 16;  // keeps the descriptors 16-byte aligned

// Chained: the only predecessor a tile reads is the one right before it, and only its
// PREFIX (nobody publishes AGGREGATE here).
struct wait_for_predecessor {
  static constexpr int threads = 1;  // threads of the block that obtain the tile's prefix

  // Combination of all items before `tile` (> 0), returned in each of the `threads` threads.
  template <class T, class Op>
  static __device__ T prefix_before(const lookback::tile_state<T>& state, index_t tile,
                                    const T& /*aggregate*/, Op /*op*/) {
    T prefix;
    unsigned ns = 32;
    while (state.try_read(tile - 1, prefix) != lookback::tile_status::prefix) lookback::backoff(ns);
    return prefix;
  }
};

template <class T>
struct single_pass_shared {
  typename block_scan<T, single_pass_threads>::storage scan;
  T tile_prefix;
  index_t tile;
};

// One tile per block, N blocked items per thread; `Prefix` (a policy like
// wait_for_predecessor) says how a tile > 0 learns what precedes it. The PREFIX values
// published include init in exclusive mode, so what a tile learns already does too.
// Why "1" block per SM: without a stated minimum, ptxas trims some instantiations (12 or 8
// items, exclusive) to 32 registers for full occupancy by spilling inside the lookback loop.
template <class T, class Op, int N, class Prefix, bool Exclusive>
__global__ void __launch_bounds__(single_pass_threads, 1)
    single_pass_kernel(const T* in, T* out, index_t n, T init, Op op,
                       lookback::tile_state<T> state, lookback::tile_counter counter) {
  using scan_t = block_scan<T, single_pass_threads>;
  __shared__ single_pass_shared<T> shared;
  const int rank = static_cast<int>(threadIdx.x);
  // Claimed, not blockIdx.x: every tile a block waits for belongs to a block that has
  // already started, so the wait cannot deadlock.
  if (rank == 0) shared.tile = counter.claim();
  __syncthreads();
  const index_t tile = shared.tile;
  const index_t tile_begin = tile * (single_pass_threads * N);
  const long long valid = n - tile_begin;

  // Items past the end hold garbage; only the last tile's aggregate, which no tile
  // reads, depends on them.
  T items[N];
  load_blocked(in + tile_begin, items, rank, valid);
  scan_t::scan_thread_items(items, op);
  T thread_prefix, aggregate;
  const bool has_thread_prefix =
      scan_t(shared.scan).exclusive_prefix(items[N - 1], op, thread_prefix, aggregate);

  if (rank < Prefix::threads) {
    if (tile == 0) {
      if (rank == 0) {
        state.publish(tile, lookback::tile_status::prefix, Exclusive ? op(init, aggregate) : aggregate);
        shared.tile_prefix = init;
      }
    } else {
      const T prefix = Prefix::prefix_before(state, tile, aggregate, op);
      if (rank == 0) {
        state.publish(tile, lookback::tile_status::prefix, op(prefix, aggregate));
        shared.tile_prefix = prefix;
      }
    }
  }
  __syncthreads();

  scan_t::template apply_prefixes<Exclusive>(items, Exclusive || tile > 0, shared.tile_prefix,
                                             has_thread_prefix, thread_prefix, op);
  // Each block writes only the tile it read: in == out works.
  store_blocked(out + tile_begin, items, rank, valid);
}

// What chained and the lookback variants share: tile shape, workspace, launch.
template <int N, class Prefix>
struct single_pass_variant {
  static constexpr index_t tile_items = single_pass_threads * N;
  // Largest n whose tile count fits a one-dimensional grid.
  static constexpr index_t max_items = static_cast<index_t>(std::numeric_limits<int>::max()) * tile_items;
  static constexpr double passes = 1.0;

  static constexpr index_t num_tiles(index_t n) { return (n + tile_items - 1) / tile_items; }

  // [tile counter, padded to 16 bytes][one descriptor per tile]
  template <class T, class Op = plus>
  static std::size_t workspace_bytes(index_t n) {
    return n <= 0 ? 0 : single_pass_counter_bytes + lookback::tile_state<T>::bytes(num_tiles(n));
  }

  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, scan_kind kind, T init, Op op,
                            workspace ws, cudaStream_t stream) {
    // The counter and every descriptor must read zero (INVALID) when the kernel starts.
    auto* base = static_cast<unsigned char*>(ws.data);
    ONEPASS_CUDA_TRY(cudaMemsetAsync(base, 0, workspace_bytes<T>(n), stream));
    const lookback::tile_counter counter(base);
    const lookback::tile_state<T> state(base + single_pass_counter_bytes);
    const dim3 grid(static_cast<unsigned>(num_tiles(n)));
    if (kind == scan_kind::exclusive) {
      onepass::detail::launch(single_pass_kernel<T, Op, N, Prefix, true>, grid,
                              single_pass_threads, 0, stream, in, out, n, init, op, state, counter);
    } else {
      onepass::detail::launch(single_pass_kernel<T, Op, N, Prefix, false>, grid,
                              single_pass_threads, 0, stream, in, out, n, init, op, state, counter);
    }
  }
};

}  // namespace detail

struct chained : detail::single_pass_variant<4, detail::wait_for_predecessor> {
  static constexpr const char* id = "chained";
  static constexpr const char* summary =
      "single pass, each tile waits for its predecessor's prefix: a serial chain of tiles";
};

}  // namespace onepass::ladder
