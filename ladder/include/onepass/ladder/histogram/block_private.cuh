// onepass/ladder/histogram/block_private.cuh — id "block_private": each block counts into
// a histogram of its own in shared memory (one shared atomic per sample), then adds it to
// the counts with one global atomic per non-empty bin.
//
// Privatisation moves the contention from L2 to the SM: a block's atomics queue only on
// each other. Within one warp instruction, distinct bins that share a bank are still
// serialised, and the bins must fit in shared memory.
#pragma once

#include "onepass/agent/histogram.cuh"
#include "onepass/ladder/histogram/common.cuh"

namespace onepass::ladder {
namespace detail {
template <class Sample, class Counter, class Bins>
__global__ void block_private_kernel(const Sample* samples, index_t n, Bins bin_of, int bins, Counter* counts) {
  extern __shared__ unsigned block_counts[];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) block_counts[b] = 0;
  __syncthreads();
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int b = bin_of(samples[i]);
    if (b >= 0) atomicAdd(block_counts + b, 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    if (block_counts[b] != 0) onepass::detail::add_count(counts + b, block_counts[b]);
}
}  // namespace detail

struct block_private : needs_no_workspace_for_bins {
  static constexpr const char* id = "block_private";
  static constexpr const char* summary = "a shared-memory histogram per block, merged with global atomics";
  static constexpr int threads = 256;

  template <class Sample>
  static int max_bins() {
    return onepass::detail::max_shared_bytes_per_block() / 4;
  }

  template <class Sample, class Counter>
  static void run_unchecked(const Sample* samples, index_t n, const onepass::detail::even_bins<Sample>& e,
                            Counter* counts, workspace, cudaStream_t stream) {
    const int bins = static_cast<int>(e.bins);
    detail::zero_then_count(n, e, counts, stream, [&](auto bin_of) {
      detail::launch_counting<detail::block_private_kernel<Sample, Counter, decltype(bin_of)>>(n, threads, bins * 4, stream, samples, n, bin_of,
                                  bins, counts);
    });
  }
};

}  // namespace onepass::ladder
