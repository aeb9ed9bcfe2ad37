// onepass/ladder/scan/blelloch.cuh — ids "blelloch" and "blelloch_bcf": one block, two
// items per thread, Blelloch's work-efficient scan in shared memory.
//
// An up-sweep builds a reduction tree over the next power of two m >= n, the root is
// replaced by the seed, and a down-sweep pushes prefixes back to the leaves: O(n) work
// instead of Hillis–Steele's O(n log n), but twice as many barrier-separated steps, with
// most threads idle near the root. Tree strides are powers of two, so without padding the
// threads of a warp hit the same shared-memory bank; "blelloch_bcf" skips one slot per
// 128-byte bank row (i + i/32 for 4-byte items), which spreads them over the banks.
// Both take a batch of independent arrays too, one block per array (run_batch_unchecked).
#pragma once

#include "onepass/functional.cuh"
#include "onepass/ladder/scan/common.cuh"

namespace onepass::ladder {

namespace detail {

template <class T, bool Padded>
struct blelloch_layout {
  static constexpr int max_items = 2048;
  static constexpr int row = sizeof(T) >= 128 ? 1 : static_cast<int>(128 / sizeof(T));
  static __device__ ONEPASS_FORCEINLINE int slot(int i) { return Padded ? i + i / row : i; }
  static constexpr int slots = Padded ? max_items + max_items / row : max_items;
};

// blockDim.x == m / 2 threads for a power of two m >= max(n, 2).
//
// No identity is needed. The root is set to the seed, so leaf j receives
// seed op slot_0 op ... op slot_{j-1}. Exclusive: slots hold in[0..], seed = init.
// Inclusive: slots hold in[1..] (shifted by one) and seed = in[0], so leaf j receives
// in[0] op ... op in[j]. Slots past the input hold a copy of the seed; they only reach
// leaves past n.
template <class T, class Op, bool Padded>
__global__ void __launch_bounds__(1024)
    blelloch_kernel(const T* in, int n, T* out, bool exclusive, T init, Op op) {
  using layout = blelloch_layout<T, Padded>;
  __shared__ T a[layout::slots];
  // Block b scans array b of a batch; 64-bit, as b * n passes 2^31 in a large batch.
  const index_t array_start = static_cast<index_t>(blockIdx.x) * n;
  in += array_start;
  out += array_start;
  const int t = static_cast<int>(threadIdx.x);
  const int half = static_cast<int>(blockDim.x);
  const int m = 2 * half;
  const int shift = exclusive ? 0 : 1;
  // Every read of `in` precedes the first barrier, every write follows the last: in == out works.
  const T seed = exclusive ? init : in[0];
  for (int j = t; j < m; j += half) a[layout::slot(j)] = j + shift < n ? in[j + shift] : seed;

  int offset = 1;
  for (int d = half; d > 0; d >>= 1, offset <<= 1) {  // up-sweep: node = left op right
    __syncthreads();
    if (t < d) {
      const int left = layout::slot(offset * (2 * t + 1) - 1);
      const int right = layout::slot(offset * (2 * t + 2) - 1);
      a[right] = op(a[left], a[right]);
    }
  }
  // Thread 0 did the last up-sweep step, on the root, itself: no barrier needed here.
  if (t == 0) a[layout::slot(m - 1)] = seed;
  for (int d = 1; d < m; d <<= 1) {  // down-sweep: left gets the prefix, right prefix op left
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      const int left = layout::slot(offset * (2 * t + 1) - 1);
      const int right = layout::slot(offset * (2 * t + 2) - 1);
      const T left_sum = a[left];
      a[left] = a[right];
      a[right] = op(a[right], left_sum);
    }
  }
  __syncthreads();
  for (int j = t; j < n; j += half) out[j] = a[layout::slot(j)];
}

template <bool Padded>
struct blelloch_variant : needs_no_workspace {
  static constexpr index_t max_items = 2048;
  static constexpr double passes = 1.0;

  template <class T, class Op>
  static void run_batch_unchecked(const T* in, index_t n, index_t batch, T* out, scan_kind kind,
                                  T init, Op op, cudaStream_t stream) {
    const int items = static_cast<int>(n);
    int m = 2;
    while (m < items) m <<= 1;
    onepass::detail::launch(blelloch_kernel<T, Op, Padded>, static_cast<unsigned>(batch), m / 2, 0,
                            stream, in, items, out, kind == scan_kind::exclusive, init, op);
  }

  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, scan_kind kind, T init, Op op,
                            workspace /*ws*/, cudaStream_t stream) {
    run_batch_unchecked(in, n, 1, out, kind, init, op, stream);
  }
};

}  // namespace detail

struct blelloch : detail::blelloch_variant<false> {
  static constexpr const char* id = "blelloch";
  static constexpr const char* summary =
      "one block, Blelloch up-sweep/down-sweep in shared memory: O(n) work, bank conflicts";
};

struct blelloch_bcf : detail::blelloch_variant<true> {
  static constexpr const char* id = "blelloch_bcf";
  static constexpr const char* summary =
      "Blelloch with one padding slot per bank row: the same sweeps without bank conflicts";
};

}  // namespace onepass::ladder
