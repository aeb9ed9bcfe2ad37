// onepass/device/dispatch_scan.cuh — sizes the production scan's workspace, checks the
// arguments and launches: one cooperative kernel when every tile fits on the GPU at once
// (the single-wave agent); otherwise the pipelined agent, which the tuning may let clear
// its own workspace (one cooperative launch), or one memset (tile counter + descriptors)
// and one lookback kernel (the pipelined or the one-tile agent).
#pragma once

#include <cuda_runtime_api.h>

#include <limits>
#include <type_traits>

#include "onepass/agent/scan_pipeline.cuh"
#include "onepass/agent/scan_single_wave.cuh"
#include "onepass/agent/scan_tile.cuh"
#include "onepass/detail/launch.cuh"
#include "onepass/tuning/scan_tuning.cuh"

namespace onepass::detail {

// A scan's tiles of TileItems items and its workspace: [tile counter, padded to 16
// bytes][descriptors]. The single-wave agent uses the descriptors' space for one T per
// tile (a descriptor is never smaller).
template <class T, index_t TileItems>
struct scan_tiles {
  static constexpr index_t tile_items = TileItems;
  // Largest n whose tile count fits a one-dimensional grid.
  static constexpr index_t max_items = static_cast<index_t>(std::numeric_limits<int>::max()) * tile_items;
  static constexpr index_t num_tiles(index_t n) { return (n + tile_items - 1) / tile_items; }
  static constexpr std::size_t counter_bytes = 16;
  static constexpr std::size_t workspace_bytes(index_t n) {
    return n <= 0 ? 0 : counter_bytes + scan_tile_state<T>::bytes(num_tiles(n));
  }
};

template <class T, class Tuning = tuning::default_scan_tuning<T>>
struct scan_plan : scan_tiles<T, Tuning::value.tile_items()> {
  static constexpr tuning::scan_tuning tuning = Tuning::value;
};

template <class T>
void check_scan_args(const T* in, index_t n, T* out) {
  check_count(n);
  if (n > scan_plan<T>::max_items)
    throw invalid_argument("n", "is " + std::to_string(n) + ", more than the " +
                                    std::to_string(scan_plan<T>::max_items) +
                                    " items one scan supports");
  check_pointer(in, n, "in");
  check_pointer(out, n, "out");
  check_no_partial_overlap(in, out, n, "in", "out");
}

// The pointers must be usable by the GPU (needs the runtime, so it runs after the
// host-side checks, which also work without a GPU).
template <class T>
void check_scan_memory(const T* in, index_t n, T* out) {
  check_device_accessible(in, n, "in");
  check_device_accessible(out, n, "out");
}

template <class T, class Tuning>
using scan_plan_for = scan_plan<T, std::conditional_t<std::is_void_v<Tuning>, tuning::default_scan_tuning<T>, Tuning>>;

template <bool Exclusive, class Tuning, class T, class Op, int V>
constexpr auto single_wave_kernel =
    scan_single_wave_kernel<T, Op, scan_plan_for<T, Tuning>::tuning.block_threads,
                            scan_plan_for<T, Tuning>::tuning.items_per_thread, V, Exclusive,
                            scan_plan_for<T, Tuning>::tuning.min_blocks_per_sm>;

// The most tiles the single-wave agent takes: as many as its blocks the device holds at
// once (a cooperative launch needs them all resident); 0 when the tuning turns it off.
template <bool Exclusive, class Tuning, class T, class Op>
index_t single_wave_max_tiles(bool aligned) {
  using plan = scan_plan_for<T, Tuning>;
  if constexpr (!plan::tuning.single_wave) {
    return 0;
  } else {
    static_assert(sizeof(T) <= scan_tile_state<T>::bytes(1), "an aggregate must fit a descriptor's space");
    constexpr int threads = plan::tuning.block_threads;
    return aligned ? resident_blocks<single_wave_kernel<Exclusive, Tuning, T, Op, vector_width<T>>>(threads, 0)
                   : resident_blocks<single_wave_kernel<Exclusive, Tuning, T, Op, 1>>(threads, 0);
  }
}

// The launch alone, for callers that have checked the arguments (requires n > 0).
template <bool Exclusive, class Tuning = void, class T, class Op, class Delay = no_delay>
void scan_launch(const T* in, index_t n, T* out, T init, Op op, const workspace& ws,
                 cudaStream_t stream, Delay delay = {}) {
  using plan = scan_plan_for<T, Tuning>;
  constexpr int threads = plan::tuning.block_threads;
  constexpr int items = plan::tuning.items_per_thread;
  constexpr int V = vector_width<T>;
  static_assert(items % V == 0, "tuning: items_per_thread must be a multiple of the vector width");

  constexpr int min_blocks = plan::tuning.min_blocks_per_sm;
  const index_t tiles = plan::num_tiles(n);
  auto* base = static_cast<unsigned char*>(ws.data);
  // 128-bit accesses need both pointers 16-byte aligned; otherwise coalesced scalars.
  const bool aligned = is_vector_aligned(in) && is_vector_aligned(out);
  if constexpr (std::is_same_v<Delay, no_delay>) {  // (stall tests exercise the lookback)
    if (tiles <= single_wave_max_tiles<Exclusive, Tuning, T, Op>(aligned)) {
      const auto kernel = aligned ? single_wave_kernel<Exclusive, Tuning, T, Op, V>
                                  : single_wave_kernel<Exclusive, Tuning, T, Op, 1>;
      // Refused (fewer SMs than the device reports): the lookback path below.
      if (try_launch_cooperative(kernel, dim3(static_cast<unsigned>(tiles)), threads, 0, stream, in, out, n, init,
                                 op, reinterpret_cast<T*>(base + plan::counter_bytes)))
        return;
    }
  }
  lookback::tile_counter counter(base);
  scan_tile_state<T> state(base + plan::counter_bytes);
  const dim3 grid(static_cast<unsigned>(tiles));
  const index_t prefetch_tiles = l2_prefetch_tiles(
      plan::tile_items * static_cast<index_t>(sizeof(T)), plan::tuning.l2_prefetch_bytes,
      plan::tuning.l2_prefetch_min_input_bytes, n * static_cast<index_t>(sizeof(T)), is_vector_aligned(in));
  if constexpr (plan::tuning.pipelined && 16 % sizeof(T) == 0) {
    // With pipeline_clears_workspace the kernel is launched cooperatively and clears its
    // own descriptors and counter: no memset (the grid fits on the device at once).
    constexpr bool clears = plan::tuning.pipeline_clears_workspace;
    constexpr auto kernel = scan_pipeline_kernel<T, Op, threads, items, Exclusive, Delay,
                                                 plan::tuning.pipeline_lookback_tiles_per_lane, clears,
                                                 plan::tuning.pipeline_first_lookback_tiles_per_lane>;
    constexpr int shared_bytes = pipeline_layout<T, threads, items>::shared_bytes;
    // With few tiles per resident block the pipeline never fills (a block claims three
    // tiles up front) and one tile per block is faster (docs/perf/scan.md). None resident:
    // an unaligned input, or a GPU that gives a block too little shared memory.
    const index_t resident = aligned ? resident_blocks<kernel>(threads, shared_bytes) : 0;
    const bool fills = static_cast<double>(tiles) >=
                       plan::tuning.pipeline_min_tiles_per_block * static_cast<double>(resident);
    if (resident > 0 && fills) {
      const dim3 persistent(static_cast<unsigned>(tiles < resident ? tiles : resident));
      if constexpr (clears) {
        // Refused (fewer SMs than the device reports): one tile per block below, which
        // needs no co-residency.
        if (try_launch_cooperative(kernel, persistent, threads, shared_bytes, stream, in, out, n, init, op, state,
                                   counter, plan::tuning.lookback_backoff_ns, delay, prefetch_tiles))
          return;
      } else {
        ONEPASS_CUDA_TRY(cudaMemsetAsync(base, 0, plan::workspace_bytes(n), stream));
        launch(kernel, persistent, threads, shared_bytes, stream, in, out, n, init, op, state, counter,
               plan::tuning.lookback_backoff_ns, delay, prefetch_tiles);
        return;
      }
    }
  }
  ONEPASS_CUDA_TRY(cudaMemsetAsync(base, 0, plan::workspace_bytes(n), stream));
  if (aligned) {
    launch(scan_kernel<T, Op, threads, items, V, Exclusive, Delay, min_blocks>, grid, threads, 0,
           stream, in, out, n, init, op, state, counter, plan::tuning.lookback_backoff_ns, delay,
           prefetch_tiles);
  } else {
    launch(scan_kernel<T, Op, threads, items, 1, Exclusive, Delay, min_blocks>, grid, threads, 0,
           stream, in, out, n, init, op, state, counter, plan::tuning.lookback_backoff_ns, delay,
           prefetch_tiles);
  }
}

// The deterministic scan: the pipelined agent in its fixed order (FixedOrder), with a
// shape that no tuning row sets, since the bits depend on it: 256 threads of 128 bytes of
// items (32 KiB tiles whatever the item size), tiles looked back on in groups of 256 (8
// descriptors a lane). A group is as many tiles as the GPU scans in a few microseconds, so
// the chain of the groups' last tiles (each waits for the previous one's PREFIX) stays
// ahead of the tiles that wait on it. Every pointer alignment, every size: only the
// copies' width changes with the alignment, never which items a thread combines.
template <class T>
struct deterministic_scan_plan : scan_tiles<T, 256 * (16 % sizeof(T) == 0 ? 128 / sizeof(T) : 1)> {
  static constexpr bool supported = 16 % sizeof(T) == 0;  // items of 1, 2, 4, 8 or 16 bytes
  static constexpr int block_threads = 256;
  static constexpr int items_per_thread = supported ? static_cast<int>(128 / sizeof(T)) : 1;
  static constexpr int tiles_per_lane = 8;
  static_assert(deterministic_scan_plan::tile_items == static_cast<index_t>(block_threads) * items_per_thread);
};

// Whether a scan of T asked for `d` runs in the fixed order: floating-point and other
// non-integer items asked for run_to_run or gpu_to_gpu. Integers are exact on every path.
template <class T>
constexpr bool scan_in_fixed_order(determinism d) {
  return d != determinism::not_guaranteed && !std::is_integral_v<T>;
}

template <class T>
std::size_t scan_workspace_bytes_for(index_t n, determinism d) {
  return scan_in_fixed_order<T>(d) ? deterministic_scan_plan<T>::workspace_bytes(n) : scan_plan<T>::workspace_bytes(n);
}

template <class T>
void check_deterministic_scan_args(index_t n) {
  using plan = deterministic_scan_plan<T>;
  if constexpr (!plan::supported) {
    throw invalid_argument("determinism", "asks for a fixed order, which the scan gives for items of 1, 2, 4, 8 or "
                                          "16 bytes; these are " + std::to_string(sizeof(T)));
  } else if (n > plan::max_items) {
    throw invalid_argument("n", "is " + std::to_string(n) + ", more than the " + std::to_string(plan::max_items) +
                                    " items one deterministic scan supports");
  }
}

// The launch alone (requires n > 0, checked arguments): one cooperative launch that clears
// its own workspace, or, where the runtime refuses it, a memset and a plain launch.
template <bool Exclusive, class T, class Op, class Delay = no_delay>
void scan_launch_fixed_order(const T* in, index_t n, T* out, T init, Op op, const workspace& ws, cudaStream_t stream,
                             Delay delay = {}) {
  using plan = deterministic_scan_plan<T>;
  if constexpr (plan::supported) {
    constexpr int threads = plan::block_threads;
    constexpr int items = plan::items_per_thread;
    constexpr int window = plan::tiles_per_lane;
    constexpr int shared_bytes = pipeline_layout<T, threads, items>::shared_bytes;
    const index_t tiles = plan::num_tiles(n);
    auto* base = static_cast<unsigned char*>(ws.data);
    lookback::tile_counter counter(base);
    scan_tile_state<T> state(base + plan::counter_bytes);
    const index_t prefetch_tiles =
        l2_prefetch_tiles(plan::tile_items * static_cast<index_t>(sizeof(T)), tuning::scan_l2_prefetch_bytes,
                          tuning::scan_l2_prefetch_min_input_bytes, n * static_cast<index_t>(sizeof(T)),
                          is_vector_aligned(in));
    const auto run = [&](auto aligned_tag) {
      constexpr bool aligned = decltype(aligned_tag)::value;
      constexpr auto clearing = scan_pipeline_kernel<T, Op, threads, items, Exclusive, Delay, window, true, 0, true, aligned>;
      constexpr auto plain = scan_pipeline_kernel<T, Op, threads, items, Exclusive, Delay, window, false, 0, true, aligned>;
      require_dynamic_shared<clearing>(shared_bytes, "the deterministic scan");
      const index_t resident = resident_blocks<clearing>(threads, shared_bytes);
      const dim3 grid(static_cast<unsigned>(tiles < resident ? tiles : resident));
      if (try_launch_cooperative(clearing, grid, threads, shared_bytes, stream, in, out, n, init, op, state, counter,
                                 tuning::default_scan_tuning<T>::value.lookback_backoff_ns, delay, prefetch_tiles))
        return;
      require_dynamic_shared<plain>(shared_bytes, "the deterministic scan");
      ONEPASS_CUDA_TRY(cudaMemsetAsync(base, 0, plan::workspace_bytes(n), stream));
      launch(plain, grid, threads, shared_bytes, stream, in, out, n, init, op, state, counter,
             tuning::default_scan_tuning<T>::value.lookback_backoff_ns, delay, prefetch_tiles);
    };
    if (is_vector_aligned(in) && is_vector_aligned(out))
      run(std::true_type{});
    else
      run(std::false_type{});
  }
}

// Checks everything, then launches. Tuning = void: the tuning table's row.
// determinism: see onepass::determinism; a fixed order runs scan_launch_fixed_order
// (whatever Tuning says: its shape is not a tuning row's).
template <bool Exclusive, class Tuning = void, class T, class Op, class Delay = no_delay>
void scan_dispatch(const T* in, index_t n, T* out, T init, Op op, const workspace& ws,
                   cudaStream_t stream, Delay delay = {}, determinism d = determinism::not_guaranteed) {
  check_scan_args(in, n, out);
  const bool fixed = scan_in_fixed_order<T>(d);
  if (fixed) check_deterministic_scan_args<T>(n);
  check_workspace(ws, fixed ? deterministic_scan_plan<T>::workspace_bytes(n) : scan_plan_for<T, Tuning>::workspace_bytes(n));
  check_scan_memory(in, n, out);
  if (n == 0) return;
  if constexpr (!std::is_integral_v<T>) {  // (integers never run it: not instantiated for them)
    if (fixed) {
      scan_launch_fixed_order<Exclusive>(in, n, out, init, op, ws, stream, delay);
      return;
    }
  }
  scan_launch<Exclusive, Tuning>(in, n, out, init, op, ws, stream, delay);
}

// Simple call style: stream-ordered scratch allocation around the workspace call.
template <bool Exclusive, class T, class Op>
void scan_allocating(const T* in, index_t n, T* out, T init, Op op, cudaStream_t stream,
                     determinism d = determinism::not_guaranteed) {
  // Every check before the allocation: bad input allocates nothing and writes nothing.
  check_scan_args(in, n, out);
  const bool fixed = scan_in_fixed_order<T>(d);
  if (fixed) check_deterministic_scan_args<T>(n);
  check_scan_memory(in, n, out);
  if (n == 0) return;
  workspace ws{nullptr, scan_workspace_bytes_for<T>(n, d)};
  ONEPASS_CUDA_TRY(cudaMallocAsync(&ws.data, ws.bytes, stream));
  try {
    if constexpr (!std::is_integral_v<T>) {
      if (fixed) scan_launch_fixed_order<Exclusive>(in, n, out, init, op, ws, stream);
    }
    if (!fixed) scan_launch<Exclusive>(in, n, out, init, op, ws, stream);
  } catch (...) {
    (void)cudaFreeAsync(ws.data, stream);
    throw;
  }
  ONEPASS_CUDA_TRY(cudaFreeAsync(ws.data, stream));
}

}  // namespace onepass::detail
