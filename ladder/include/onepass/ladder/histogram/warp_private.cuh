// onepass/ladder/histogram/warp_private.cuh — id "warp_private": every warp counts into a
// histogram of its own in shared memory; the block adds its warps' histograms together
// and then to the counts with one global atomic per non-empty bin.
//
// A warp's atomics no longer meet other warps' on a skewed bin, at the price of one copy
// of the bins per warp: a shared-memory budget 8 times the block_private one, so fewer
// bins fit and fewer blocks stay resident.
#pragma once

#include "onepass/agent/histogram.cuh"
#include "onepass/ladder/histogram/common.cuh"

namespace onepass::ladder {
namespace detail {
template <class Sample, class Counter, class Bins, int Threads>
__global__ void __launch_bounds__(Threads)
    warp_private_kernel(const Sample* samples, index_t n, Bins bin_of, int bins, Counter* counts) {
  constexpr int warps = Threads / 32;
  extern __shared__ unsigned warp_counts[];  // warps x bins
  for (int i = threadIdx.x; i < warps * bins; i += Threads) warp_counts[i] = 0;
  __syncthreads();
  unsigned* mine = warp_counts + (threadIdx.x / 32) * bins;
  const index_t stride = static_cast<index_t>(gridDim.x) * Threads;
  for (index_t i = static_cast<index_t>(blockIdx.x) * Threads + threadIdx.x; i < n; i += stride) {
    const int b = bin_of(samples[i]);
    if (b >= 0) atomicAdd(mine + b, 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += Threads) {
    unsigned total = 0;
    for (int w = 0; w < warps; ++w) total += warp_counts[w * bins + b];
    if (total != 0) onepass::detail::add_count(counts + b, total);
  }
}
}  // namespace detail

struct warp_private : needs_no_workspace_for_bins {
  static constexpr const char* id = "warp_private";
  static constexpr const char* summary = "a shared-memory histogram per warp, summed per block, merged with global atomics";
  static constexpr int threads = 256;

  template <class Sample>
  static int max_bins() {
    return onepass::detail::max_shared_bytes_per_block() / (4 * (threads / 32));
  }

  template <class Sample, class Counter>
  static void run_unchecked(const Sample* samples, index_t n, const onepass::detail::even_bins<Sample>& e,
                            Counter* counts, workspace, cudaStream_t stream) {
    const int bins = static_cast<int>(e.bins);
    detail::zero_then_count(n, e, counts, stream, [&](auto bin_of) {
      detail::launch_counting<detail::warp_private_kernel<Sample, Counter, decltype(bin_of), threads>>(n, threads, bins * 4 * (threads / 32), stream, samples, n, bin_of,
                                  bins, counts);
    });
  }
};

}  // namespace onepass::ladder
