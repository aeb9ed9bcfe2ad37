// onepass/agent/rms_norm.cuh — the fused RMSNorm kernels:
//   y[r, j] = x[r, j] * rsqrt(mean_j(x[r, :]^2) + eps) * weight[j], accumulated in float.
//
// rms_norm_rows_kernel: a group of threads (a warp, or the whole block) holds one row in
//   registers: load, sum of squares (warp_reduce, or block_reduce), scale, store. Global
//   memory is read once and written once.
// rms_norm_two_pass_kernel: rows too wide for registers; the block reads x twice.
//
// V is the number of items per access: 16 / sizeof(T) (128-bit accesses) when the width
// is a multiple of V and x, weight and y are 16-byte aligned, so every row starts on a
// 16-byte boundary and every vector is wholly inside or wholly past the row; 1 otherwise.
// Each element is read and then written by the same thread, and a row by one group only,
// so y == x (in place) is safe; y must not overlap weight, which is read through the
// read-only path (__ldg) by every row.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstring>

#include "onepass/block/block_reduce.cuh"
#include "onepass/detail/config.cuh"
#include "onepass/functional.cuh"
#include "onepass/warp/warp_reduce.cuh"

namespace onepass::detail {

template <class T>
struct rms_norm_value;  // float <-> T; the accumulation and the scaling are in float

template <>
struct rms_norm_value<float> {
  static __device__ ONEPASS_FORCEINLINE float to_float(float v) { return v; }
  static __device__ ONEPASS_FORCEINLINE float from_float(float v) { return v; }
};

template <>
struct rms_norm_value<__nv_bfloat16> {
  static __device__ ONEPASS_FORCEINLINE float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
  static __device__ ONEPASS_FORCEINLINE __nv_bfloat16 from_float(float v) { return __float2bfloat16_rn(v); }
};

// The unsigned type one access of `Bytes` moves: the accesses go through plain integer
// words so that a bfloat16 vector is one 128-bit load like a float4 is.
template <int Bytes>
struct access_word;
template <>
struct access_word<2> {
  using type = unsigned short;
};
template <>
struct access_word<4> {
  using type = unsigned int;
};
template <>
struct access_word<16> {
  using type = uint4;
};

// ReadOnly: through the non-coherent read-only path, for data that no thread writes
// during the kernel (the weight; not x, which y may alias).
template <class T, int V, bool ReadOnly = false>
__device__ ONEPASS_FORCEINLINE void load_items(const T* p, T* items) {
  using word = typename access_word<static_cast<int>(sizeof(T)) * V>::type;
  const word* src = reinterpret_cast<const word*>(p);
  word w;
  if constexpr (ReadOnly) w = __ldg(src);
  else w = *src;
  std::memcpy(items, &w, sizeof(w));
}

// Streaming: the evict-first hint (st.global.cs), for output nothing in the kernel reads.
template <class T, int V, bool Streaming = false>
__device__ ONEPASS_FORCEINLINE void store_items(T* p, const T* items) {
  using word = typename access_word<static_cast<int>(sizeof(T)) * V>::type;
  word w;
  std::memcpy(&w, items, sizeof(w));
  if constexpr (Streaming) __stcs(reinterpret_cast<word*>(p), w);
  else *reinterpret_cast<word*>(p) = w;
}

// rsqrt(sum / width + eps). The explicit _rn operations keep the rounding (and with it
// the tolerance the tests derive) independent of -use_fast_math and FMA contraction.
__device__ ONEPASS_FORCEINLINE float rms_norm_scale(float sum_of_squares, float width, float eps) {
  return rsqrtf(__fadd_rn(__fdiv_rn(sum_of_squares, width), eps));
}

// The block's sum of every thread's `x`. Two storages used alternately: the second use
// of one storage comes after the barrier inside the use of the other, which every thread
// reaches only after it has read the first, so a block looping over rows needs no
// barrier of its own between rows.
template <int Threads>
__device__ ONEPASS_FORCEINLINE float block_sum(float x, int& parity) {
  using reduce_t = block_reduce<float, Threads>;
  __shared__ typename reduce_t::storage storage[2];
  const float total = reduce_t(storage[parity]).reduce(x, plus{});
  parity ^= 1;
  return total;
}

// RowThreads threads share a row (32: a warp, Threads / 32 rows per block; Threads: the
// block). Thread `rank` of the group holds vectors rank, rank + RowThreads, ... of the
// row (vector-striped: each load instruction of a warp covers 32 consecutive vectors).
// Requires width <= RowThreads * Items.
// By default the weight is loaded after the reduction, a vector at a time, not held in
// registers with x: every block on an SM reads the same weight, so those loads mostly
// hit L1, while holding it would take 16 more registers per thread for float (48
// instead of 32 at 256 x 16: 5 resident blocks of 256 per SM instead of 8; measured with
// nvcc 13.0). WeightEarly loads it with x instead, before the reduction, so its latency
// overlaps the reduction, at that register cost. Streaming: y with the evict-first hint.
template <class T, int Threads, int RowThreads, int Items, int V, int MinBlocks, bool WeightEarly = false,
          bool Streaming = false>
__global__ void __launch_bounds__(Threads, MinBlocks)
    rms_norm_rows_kernel(const T* x, const T* __restrict__ weight, T* y, index_t rows, int width,
                         float eps) {
  static_assert(RowThreads == 32 || RowThreads == Threads, "a warp or the whole block per row");
  static_assert(Items % V == 0, "items per thread must be a multiple of the vector width");
  using value = rms_norm_value<T>;
  constexpr int vectors = Items / V;
  constexpr int rows_per_block = Threads / RowThreads;
  constexpr int stride = RowThreads * V;  // columns between a thread's consecutive vectors
  const int rank = static_cast<int>(threadIdx.x % RowThreads);
  const int slot = static_cast<int>(threadIdx.x / RowThreads);
  // Vector j of this thread starts at column rank * V + j * stride: one base per thread
  // and compile-time offsets, so the guards compare constants against one register.
  const int first = rank * V;
  const int avail = width - first;

  const index_t groups = (rows + rows_per_block - 1) / rows_per_block;
  int parity = 0;
  for (index_t g = blockIdx.x; g < groups; g += gridDim.x) {
    const index_t row = g * rows_per_block + slot;
    // Only a warp-per-row block has slots past the last row; a whole warp skips together,
    // so the shuffles below always see all 32 lanes. A block-per-row group never skips
    // (rows_per_block == 1), so its barriers are uniform.
    if (rows_per_block > 1 && row >= rows) continue;
    const T* xt = x + row * width + first;
    T* yt = y + row * width + first;

    T v[Items];
    T w[WeightEarly ? Items : V];  // the thread's whole share of the weight, or one vector
    float sum = 0.f;
#pragma unroll
    for (int j = 0; j < vectors; ++j) {
      if (j * stride < avail) {
        load_items<T, V>(xt + j * stride, v + j * V);
        if constexpr (WeightEarly) load_items<T, V, true>(weight + first + j * stride, w + j * V);
      } else {
#pragma unroll
        for (int k = 0; k < V; ++k) v[j * V + k] = value::from_float(0.f);
      }
    }
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      const float f = value::to_float(v[i]);
      sum = fmaf(f, f, sum);
    }
    if constexpr (RowThreads == 32) sum = warp_reduce<float>::reduce(sum, plus{});
    else sum = block_sum<Threads>(sum, parity);

    const float scale = rms_norm_scale(sum, static_cast<float>(width), eps);
#pragma unroll
    for (int j = 0; j < vectors; ++j) {
      if (j * stride < avail) {
        if constexpr (!WeightEarly) load_items<T, V, true>(weight + first + j * stride, w);
        const T* wj = WeightEarly ? w + j * V : w;
        T out[V];
#pragma unroll
        for (int k = 0; k < V; ++k)
          out[k] = value::from_float(value::to_float(v[j * V + k]) * scale * value::to_float(wj[k]));
        store_items<T, V, Streaming>(yt + j * stride, out);
      }
    }
  }
}

// One block per row, rows of any width. Pass 1 sums the squares with Unroll loads in
// flight per thread; pass 2 reads x again (a row of up to a few hundred KiB, read a
// moment ago, is mostly still in L2) with the weight, and writes y. The barrier inside
// the block reduction orders every thread's pass-1 reads before any pass-2 write, so
// in place stays safe.
template <class T, int Threads, int V, int Unroll, bool Streaming = false>
__global__ void __launch_bounds__(Threads)
    rms_norm_two_pass_kernel(const T* x, const T* __restrict__ weight, T* y, index_t rows,
                             index_t width, float eps) {
  using value = rms_norm_value<T>;
  const index_t vectors = width / V;
  constexpr index_t step = static_cast<index_t>(Threads) * Unroll;
  int parity = 0;
  for (index_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const T* xr = x + row * width;
    T* yr = y + row * width;

    float sum = 0.f;
    for (index_t base = threadIdx.x; base < vectors; base += step) {
      T v[Unroll][V];
#pragma unroll
      for (int u = 0; u < Unroll; ++u) {
        const index_t i = base + static_cast<index_t>(u) * Threads;
        if (i < vectors) {
          load_items<T, V>(xr + i * V, v[u]);
        } else {
#pragma unroll
          for (int k = 0; k < V; ++k) v[u][k] = value::from_float(0.f);
        }
      }
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
#pragma unroll
        for (int k = 0; k < V; ++k) {
          const float f = value::to_float(v[u][k]);
          sum = fmaf(f, f, sum);
        }
    }
    sum = block_sum<Threads>(sum, parity);
    const float scale = rms_norm_scale(sum, static_cast<float>(width), eps);

    for (index_t base = threadIdx.x; base < vectors; base += step) {
      T v[Unroll][V], w[Unroll][V];
#pragma unroll
      for (int u = 0; u < Unroll; ++u) {
        const index_t i = base + static_cast<index_t>(u) * Threads;
        if (i < vectors) {
          load_items<T, V>(xr + i * V, v[u]);
          load_items<T, V, true>(weight + i * V, w[u]);
        }
      }
#pragma unroll
      for (int u = 0; u < Unroll; ++u) {
        const index_t i = base + static_cast<index_t>(u) * Threads;
        if (i < vectors) {
          T out[V];
#pragma unroll
          for (int k = 0; k < V; ++k)
            out[k] = value::from_float(value::to_float(v[u][k]) * scale * value::to_float(w[u][k]));
          store_items<T, V, Streaming>(yr + i * V, out);
        }
      }
    }
  }
}

}  // namespace onepass::detail
