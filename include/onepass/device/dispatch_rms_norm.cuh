// onepass/device/dispatch_rms_norm.cuh — checks the fused RMSNorm's arguments, picks the
// shape for the row width from the tuning table and launches one kernel.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "onepass/agent/rms_norm.cuh"
#include "onepass/block/block_load_store.cuh"
#include "onepass/detail/launch.cuh"
#include "onepass/tuning/rms_norm_tuning.cuh"

namespace onepass::detail {

template <class T>
constexpr bool is_rms_norm_type = std::is_same_v<T, float> || std::is_same_v<T, __nv_bfloat16>;

// Host-only checks: no CUDA call, so they run (and fail) the same without a GPU.
template <class T>
void check_rms_norm_args(const T* x, const T* weight, const T* y, index_t rows, index_t width,
                         float eps) {
  check_count(rows, "rows");
  check_count(width, "width");
  if (rows > 0 && width == 0) throw invalid_argument("width", "is 0 but rows is " + std::to_string(rows));
  // Every byte offset into x and y must fit in a signed 64-bit integer.
  if (width > 0 && rows > std::numeric_limits<index_t>::max() / static_cast<index_t>(sizeof(T)) / width)
    throw invalid_argument("rows", "times width (" + std::to_string(rows) + " x " + std::to_string(width) +
                                       ") overflows a 64-bit byte count");
  if (!(eps >= 0.f) || !std::isfinite(eps))
    throw invalid_argument("eps", "is " + std::to_string(eps) + "; a finite eps >= 0 is needed");
  const index_t n = rows * width;
  check_pointer(x, n, "x");
  check_pointer(weight, rows > 0 ? width : 0, "weight");
  check_pointer(y, n, "y");
  check_no_partial_overlap(x, y, n, "x", "y");
  // Every row reads the whole weight: a y that overlaps it would change it under later rows.
  if (n > 0) {
    const auto w = reinterpret_cast<std::uintptr_t>(weight);
    const auto out = reinterpret_cast<std::uintptr_t>(y);
    if (w < out + static_cast<std::uintptr_t>(n) * sizeof(T) && out < w + static_cast<std::uintptr_t>(width) * sizeof(T))
      throw invalid_argument("y", "overlaps 'weight'");
  }
}

// The pointers must be usable by the GPU (needs the runtime, so it runs after the
// host-side checks).
template <class T>
void check_rms_norm_memory(const T* x, const T* weight, const T* y, index_t rows, index_t width) {
  const index_t n = rows * width;
  check_device_accessible(x, n, "x");
  check_device_accessible(weight, rows > 0 ? width : 0, "weight");
  check_device_accessible(y, n, "y");
}

// The kernels loop over row groups, so a 64-bit row count needs no more than 2^31 - 1
// blocks (or the tuning's max_blocks).
inline unsigned rms_norm_grid(index_t groups, int max_blocks) {
  const index_t cap = max_blocks > 0 ? max_blocks : std::numeric_limits<int>::max();
  return static_cast<unsigned>(groups < cap ? groups : cap);
}

template <class T, int V, class Tuning, int I>
void rms_norm_launch_shape(const T* x, const T* weight, T* y, index_t rows, index_t width, float eps,
                           cudaStream_t stream) {
  constexpr tuning::rms_norm_tuning t = Tuning::value;
  if constexpr (I < t.shape_count) {
    constexpr tuning::rms_norm_shape s = t.shapes[I];
    static_assert(s.row_threads == 32 || s.row_threads == s.block_threads,
                  "tuning: a warp or the whole block per row");
    static_assert(s.items_per_thread % vector_width<T> == 0 && s.items_per_thread <= 4 * vector_width<T>,
                  "tuning: items_per_thread must be a multiple of the vector width, at most four vectors");
    static_assert(I == 0 || t.shapes[I - 1].max_width() < s.max_width(), "tuning: shapes must grow");
    if (width <= s.max_width()) {
      const index_t groups = (rows + s.rows_per_block() - 1) / s.rows_per_block();
      launch(rms_norm_rows_kernel<T, s.block_threads, s.row_threads, s.items_per_thread, V, s.min_blocks_per_sm,
                                  t.weight_early, t.streaming_stores>,
             dim3(rms_norm_grid(groups, t.max_blocks)), dim3(s.block_threads), 0, stream, x, weight, y, rows,
             static_cast<int>(width), eps);
      return;
    }
    rms_norm_launch_shape<T, V, Tuning, I + 1>(x, weight, y, rows, width, eps, stream);
  } else {
    launch(rms_norm_two_pass_kernel<T, t.two_pass_threads, V, t.two_pass_unroll, t.streaming_stores>, dim3(rms_norm_grid(rows, t.max_blocks)),
           dim3(t.two_pass_threads), 0, stream, x, weight, y, rows, width, eps);
  }
}

// Tuning: a type holding `static constexpr tuning::rms_norm_tuning value` (tests and
// bench/rms_norm_tuning_sweep.cu pass their own); void takes the default table.
template <class T, class Tuning>
using rms_norm_tuning_or_default =
    std::conditional_t<std::is_void_v<Tuning>, tuning::default_rms_norm_tuning<T>, Tuning>;

// The launch alone, for callers that have checked the arguments (requires rows > 0).
template <class T, class Tuning = void>
void rms_norm_launch(const T* x, const T* weight, T* y, index_t rows, index_t width, float eps,
                     cudaStream_t stream) {
  constexpr int V = vector_width<T>;
  // 128-bit accesses need every row to start on a 16-byte boundary: aligned bases and a
  // width that is a multiple of V. Otherwise coalesced scalar accesses, same shapes.
  const bool vectors = width % V == 0 && is_vector_aligned(x) && is_vector_aligned(weight) && is_vector_aligned(y);
  using table = rms_norm_tuning_or_default<T, Tuning>;
  if (vectors) rms_norm_launch_shape<T, V, table, 0>(x, weight, y, rows, width, eps, stream);
  else rms_norm_launch_shape<T, 1, table, 0>(x, weight, y, rows, width, eps, stream);
}

template <class T, class Tuning = void>
void rms_norm_dispatch(const T* x, const T* weight, T* y, index_t rows, index_t width, float eps,
                       cudaStream_t stream) {
  check_rms_norm_args(x, weight, y, rows, width, eps);
  check_rms_norm_memory(x, weight, y, rows, width);
  if (rows == 0) return;
  rms_norm_launch<T, Tuning>(x, weight, y, rows, width, eps, stream);
}

}  // namespace onepass::detail
