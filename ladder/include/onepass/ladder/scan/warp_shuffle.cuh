// onepass/ladder/scan/warp_shuffle.cuh — id "warp_shuffle": one block of 1024 threads
// walks the array in chunks of 1024 items, scanning each chunk with warp shuffles.
//
// Within a warp, Kogge–Stone steps move values through registers (shuffles) instead of
// shared memory and need no barrier; only the 32 warp totals go through shared memory
// (onepass::block_scan). Fast per chunk, but one block uses one SM of the GPU, and the
// running total makes the chunks strictly sequential: any n works, slowly.
#pragma once

#include "onepass/block/block_scan.cuh"
#include "onepass/functional.cuh"
#include "onepass/ladder/scan/common.cuh"

namespace onepass::ladder {

namespace detail {

constexpr int warp_shuffle_threads = 1024;

template <class T, class Op>
__global__ void __launch_bounds__(warp_shuffle_threads)
    warp_shuffle_kernel(const T* in, index_t n, T* out, bool exclusive, T init, Op op) {
  using scan_t = block_scan<T, warp_shuffle_threads>;
  __shared__ typename scan_t::storage storage;
  // The combination of all earlier chunks; for exclusive it starts as init.
  T carry = init;
  bool has_carry = exclusive;
  for (index_t base = 0; base < n; base += warp_shuffle_threads) {
    const index_t i = base + threadIdx.x;
    // Threads past the end repeat the last item; only the unused final total sees it.
    const T x = in[i < n ? i : n - 1];
    T y, total;
    if (exclusive) {
      y = scan_t(storage).exclusive(x, carry, op, total);
    } else {
      y = scan_t(storage).inclusive(x, op, total);
      if (has_carry) y = op(carry, y);
    }
    if (i < n) out[i] = y;  // each thread rewrites only the item it read: in == out works
    carry = has_carry ? op(carry, total) : total;
    has_carry = true;
    __syncthreads();  // the next chunk's scan reuses the storage
  }
}

}  // namespace detail

struct warp_shuffle : needs_no_workspace {
  static constexpr const char* id = "warp_shuffle";
  static constexpr const char* summary =
      "one block walks the array in chunks of 1024, each scanned with warp shuffles";
  static constexpr index_t max_items = no_limit;
  static constexpr double passes = 1.0;


  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, scan_kind kind, T init, Op op,
                            workspace /*ws*/, cudaStream_t stream) {
    onepass::detail::launch(detail::warp_shuffle_kernel<T, Op>, 1, detail::warp_shuffle_threads,
                            0, stream, in, n, out, kind == scan_kind::exclusive, init, op);
  }
};

}  // namespace onepass::ladder
