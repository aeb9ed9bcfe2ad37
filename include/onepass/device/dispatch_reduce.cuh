// onepass/device/dispatch_reduce.cuh — sizes the production reduce's workspace, checks the
// arguments and launches: one kernel for small inputs, else a kernel that leaves one
// value per block and a one-block kernel that combines them (launched programmatically,
// so it is resident and waiting when the first finishes). No memset, no atomics.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include "onepass/agent/reduce.cuh"
#include "onepass/detail/launch.cuh"
#include "onepass/functional.cuh"
#include "onepass/types.cuh"
#include "onepass/tuning/reduce_tuning.cuh"

namespace onepass::detail {

template <class T, class Tuning = tuning::default_reduce_tuning<T>>
struct reduce_plan {
  static constexpr tuning::reduce_tuning tuning = Tuning::value;
  static constexpr int threads = tuning.block_threads;
  static constexpr int warps = threads / 32;
  static constexpr index_t segment_items = tuning.segment_items();
  // More blocks than any GPU runs at once never help; the bound keeps the workspace
  // query independent of the device.
  static constexpr index_t max_blocks = 8192;
  static constexpr int partials_threads = 256;

  // The grid, before the device's limit: at least one full segment per warp.
  static constexpr index_t blocks_for_size(index_t n) {
    const index_t by_size = n / segment_items / warps;
    const index_t b = by_size < 1 ? 1 : by_size;
    return b < max_blocks ? b : max_blocks;
  }
  static constexpr std::size_t workspace_bytes(index_t n) {
    const index_t blocks = blocks_for_size(n);
    return blocks > 1 ? static_cast<std::size_t>(blocks) * sizeof(T) : 0;
  }
};

template <class T, class Tuning>
using reduce_plan_for =
    reduce_plan<T, std::conditional_t<std::is_void_v<Tuning>, tuning::default_reduce_tuning<T>, Tuning>>;

template <class T>
void check_reduce_args(const T* in, index_t n, T* out) {
  check_count(n);
  check_pointer(in, n, "in");
  check_pointer(out, 1, "out");  // written even when n == 0 (with init)
  if (n > 0) {
    const auto first = reinterpret_cast<std::uintptr_t>(in), item = reinterpret_cast<std::uintptr_t>(out);
    if (item + sizeof(T) > first && item < first + static_cast<std::uintptr_t>(n) * sizeof(T))
      throw invalid_argument("out", "lies inside the input 'in'; the result needs a place of its own");
  }
}

template <class T>
void check_reduce_memory(const T* in, index_t n, T* out) {
  check_device_accessible(in, n, "in");
  check_device_accessible(out, 1, "out");
}

// The reduce in an order that no GPU changes (determinism::gpu_to_gpu): a shape of its
// own, which no tuning row sets (256 threads; 64 bytes of items a lane a segment, 2 items
// for larger types), and the grid the input's size asks for, never capped by the SM count
// or the occupancy (the kernel needs no co-residency: blocks beyond the GPU's run in
// later waves). Then every warp owns the same segments on every GPU, and every lane the
// same items: with scalar loads whatever the alignment (a 128-bit load gives a lane other
// items than scalar ones do).
template <class T>
struct deterministic_reduce_tuning {
  static constexpr tuning::reduce_tuning value = [] {
    tuning::reduce_tuning t{};
    t.block_threads = 256;
    t.items_per_thread = sizeof(T) <= 4 ? 16 : sizeof(T) <= 8 ? 8 : 2;
    t.blocks_per_sm = 6;  // __launch_bounds__ only: the grid is not capped by it here
    t.programmatic_first = false;
    t.programmatic_second = true;
    return t;
  }();
};

// Whether a reduce of T asked for `d` runs in the device-independent order: non-integer
// items asked for gpu_to_gpu. run_to_run is the fast path's own promise (a fixed grid on
// one GPU model, no atomics), and integers are exact on every path.
template <class T>
constexpr bool reduce_in_fixed_order(determinism d) {
  return d == determinism::gpu_to_gpu && !std::is_integral_v<T>;
}

// DeviceGrid = false: the grid is blocks_for_size(n) alone (the deterministic reduce).
template <class T, class Op, class Tuning, int V, bool DeviceGrid = true>
void reduce_launch_with(const T* in, index_t n, T* out, T init, Op op, const workspace& ws,
                        cudaStream_t stream) {
  using plan = reduce_plan_for<T, Tuning>;
  constexpr int items = plan::tuning.items_per_thread;
  static_assert(items % V == 0, "tuning: items_per_thread must be a multiple of the vector width");
  constexpr auto kernel = reduce_kernel<T, Op, plan::threads, items, V, is_commutative_v<Op>,
                                       plan::tuning.blocks_per_sm, plan::tuning.programmatic_first,
                                       plan::tuning.programmatic_second>;
  index_t blocks = plan::blocks_for_size(n);
  if (DeviceGrid && blocks > 1) {
    const index_t by_tuning = static_cast<index_t>(multiprocessor_count()) * plan::tuning.blocks_per_sm;
    const index_t resident = resident_blocks<kernel>(plan::threads, 0);
    if (blocks > by_tuning) blocks = by_tuning;
    if (blocks > resident) blocks = resident;
  }
  auto* partials = static_cast<T*>(ws.data);
  const dim3 grid(static_cast<unsigned>(blocks));
  const segment_split split = split_segments(n / plan::segment_items, blocks * plan::warps);
  if (plan::tuning.programmatic_first) {
    launch_programmatic(kernel, grid, plan::threads, 0, stream, in, n, split, init, op, partials, out);
  } else {
    launch(kernel, grid, plan::threads, 0, stream, in, n, split, init, op, partials, out);
  }
  if (blocks == 1) return;
  constexpr auto combine =
      reduce_partials_kernel<T, Op, plan::partials_threads, plan::tuning.programmatic_second>;
  if (plan::tuning.programmatic_second) {
    launch_programmatic(combine, dim3(1), plan::partials_threads, 0, stream, partials, static_cast<int>(blocks),
                        init, op, out);
  } else {
    launch(combine, dim3(1), plan::partials_threads, 0, stream, partials, static_cast<int>(blocks), init, op, out);
  }
}

// The launch alone, for callers that have checked the arguments.
template <class Tuning = void, class T, class Op>
void reduce_launch(const T* in, index_t n, T* out, T init, Op op, const workspace& ws,
                   cudaStream_t stream) {
  // 128-bit loads need a 16-byte aligned input; otherwise coalesced scalars.
  if (is_vector_aligned(in)) {
    reduce_launch_with<T, Op, Tuning, vector_width<T>>(in, n, out, init, op, ws, stream);
  } else {
    reduce_launch_with<T, Op, Tuning, 1>(in, n, out, init, op, ws, stream);
  }
}

// The launch for a determinism choice (the fast path unless reduce_in_fixed_order).
template <class Tuning = void, class T, class Op>
void reduce_launch_for(const T* in, index_t n, T* out, T init, Op op, const workspace& ws, cudaStream_t stream,
                       determinism d) {
  if constexpr (!std::is_integral_v<T>) {  // (integers never run it: not instantiated for them)
    if (reduce_in_fixed_order<T>(d)) {
      reduce_launch_with<T, Op, deterministic_reduce_tuning<T>, 1, false>(in, n, out, init, op, ws, stream);
      return;
    }
  }
  reduce_launch<Tuning>(in, n, out, init, op, ws, stream);
}

template <class T>
std::size_t reduce_workspace_bytes_for(index_t n, determinism d) {
  return reduce_in_fixed_order<T>(d) ? reduce_plan<T, deterministic_reduce_tuning<T>>::workspace_bytes(n)
                                     : reduce_plan<T>::workspace_bytes(n);
}

template <class Tuning = void, class T, class Op>
void reduce_dispatch(const T* in, index_t n, T* out, T init, Op op, const workspace& ws,
                     cudaStream_t stream, determinism d = determinism::not_guaranteed) {
  check_reduce_args(in, n, out);
  check_workspace(ws, reduce_in_fixed_order<T>(d) ? reduce_workspace_bytes_for<T>(n, d)
                                                  : reduce_plan_for<T, Tuning>::workspace_bytes(n));
  check_reduce_memory(in, n, out);
  reduce_launch_for<Tuning>(in, n, out, init, op, ws, stream, d);
}

// Simple call style: stream-ordered scratch allocation around the workspace call (none
// when the input is small enough for one block).
template <class T, class Op>
void reduce_allocating(const T* in, index_t n, T* out, T init, Op op, cudaStream_t stream,
                       determinism d = determinism::not_guaranteed) {
  check_reduce_args(in, n, out);
  check_reduce_memory(in, n, out);
  workspace ws{nullptr, reduce_workspace_bytes_for<T>(n, d)};
  if (ws.bytes == 0) {
    reduce_launch_for(in, n, out, init, op, ws, stream, d);
    return;
  }
  ONEPASS_CUDA_TRY(cudaMallocAsync(&ws.data, ws.bytes, stream));
  try {
    reduce_launch_for(in, n, out, init, op, ws, stream, d);
  } catch (...) {
    (void)cudaFreeAsync(ws.data, stream);
    throw;
  }
  ONEPASS_CUDA_TRY(cudaFreeAsync(ws.data, stream));
}

}  // namespace onepass::detail
