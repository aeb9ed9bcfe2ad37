// onepass/ladder/scan/hillis_steele.cuh — id "hillis_steele": one block, one item per
// thread, Hillis–Steele (Kogge–Stone) inclusive scan in shared memory.
//
// log2(n) steps; at step d every thread folds in the partial of the thread d below it.
// Few steps, but each step touches every item, so the work is O(n log n) instead of O(n),
// and every step ends in a block-wide barrier. Two shared buffers (read one, write the
// other) let a step run with one barrier instead of two. One block: at most 1024 items.
// A batch of independent arrays runs one block per array (run_batch_unchecked).
#pragma once

#include "onepass/functional.cuh"
#include "onepass/ladder/scan/common.cuh"

namespace onepass::ladder {

namespace detail {

template <class T, int MaxThreads>
struct hillis_steele_storage {
  T buffers[2][MaxThreads];
};

// Inclusive scan of one value per thread across the block (blockDim.x <= MaxThreads
// threads, all of which must call it). Returns the shared array holding every thread's
// inclusive result; it stays readable until the storage is reused after a __syncthreads.
// Combines as op(lower thread, higher thread): non-commutative operators work.
template <class T, int MaxThreads, class Op>
__device__ const T* hillis_steele_block_inclusive(T x, Op op,
                                                  hillis_steele_storage<T, MaxThreads>& s) {
  const int t = static_cast<int>(threadIdx.x);
  const int count = static_cast<int>(blockDim.x);
  int src = 0;
  s.buffers[src][t] = x;
  __syncthreads();
  for (int d = 1; d < count; d <<= 1) {
    // x is this thread's slot of the source buffer; only the neighbour is read.
    if (t >= d) x = op(s.buffers[src][t - d], x);
    s.buffers[src ^ 1][t] = x;
    // One barrier per step: the next step writes the buffer read here, and every read of
    // this step happens before this barrier.
    __syncthreads();
    src ^= 1;
  }
  return s.buffers[src];
}

template <class T, class Op>
__global__ void __launch_bounds__(1024)
    hillis_steele_kernel(const T* in, int n, T* out, bool exclusive, T init, Op op) {
  __shared__ hillis_steele_storage<T, 1024> storage;
  // Block b scans array b of a batch; 64-bit, as b * n passes 2^31 in a large batch.
  const index_t array_start = static_cast<index_t>(blockIdx.x) * n;
  in += array_start;
  out += array_start;
  const int t = static_cast<int>(threadIdx.x);
  // Threads past the end repeat the last item: a prefix never depends on later items,
  // so their results are never used. All reads of `in` happen before the first barrier
  // and all writes after it, so in == out works.
  const T* incl = hillis_steele_block_inclusive(in[t < n ? t : n - 1], op, storage);
  if (t < n) out[t] = !exclusive ? incl[t] : t == 0 ? init : op(init, incl[t - 1]);
}

}  // namespace detail

struct hillis_steele : needs_no_workspace {
  static constexpr const char* id = "hillis_steele";
  static constexpr const char* summary =
      "one block, Hillis-Steele scan in shared memory: log n steps, O(n log n) work";
  static constexpr index_t max_items = 1024;
  static constexpr double passes = 1.0;

  template <class T, class Op>
  static void run_batch_unchecked(const T* in, index_t n, index_t batch, T* out, scan_kind kind,
                                  T init, Op op, cudaStream_t stream) {
    const int items = static_cast<int>(n);
    const int threads = (items + 31) / 32 * 32;  // whole warps
    onepass::detail::launch(detail::hillis_steele_kernel<T, Op>, static_cast<unsigned>(batch),
                            threads, 0, stream, in, items, out, kind == scan_kind::exclusive,
                            init, op);
  }

  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, scan_kind kind, T init, Op op,
                            workspace /*ws*/, cudaStream_t stream) {
    run_batch_unchecked(in, n, 1, out, kind, init, op, stream);
  }
};

}  // namespace onepass::ladder
