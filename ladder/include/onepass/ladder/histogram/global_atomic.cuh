// onepass/ladder/histogram/global_atomic.cuh — id "global_atomic": one global atomic per
// sample on the counts themselves.
//
// The naive histogram. Every increment is a read-modify-write at L2; samples in the same
// bin queue on one address, so skewed data is the slowest (the atomics table of the
// reduce ladder measures the same queue).
#pragma once

#include "onepass/agent/histogram.cuh"
#include "onepass/ladder/histogram/common.cuh"

namespace onepass::ladder {
namespace detail {
template <class Sample, class Counter, class Bins>
__global__ void global_atomic_kernel(const Sample* samples, index_t n, Bins bin_of, Counter* counts) {
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int b = bin_of(samples[i]);
    if (b >= 0) onepass::detail::add_count(counts + b, 1u);
  }
}
}  // namespace detail

struct global_atomic : needs_no_workspace_for_bins {
  static constexpr const char* id = "global_atomic";
  static constexpr const char* summary = "one global atomic per sample on the counts";
  static constexpr int threads = 256;

  template <class Sample>
  static int max_bins() {
    return no_limit;
  }

  template <class Sample, class Counter>
  static void run_unchecked(const Sample* samples, index_t n, const onepass::detail::even_bins<Sample>& e,
                            Counter* counts, workspace, cudaStream_t stream) {
    detail::zero_then_count(n, e, counts, stream, [&](auto bin_of) {
      detail::launch_counting<detail::global_atomic_kernel<Sample, Counter, decltype(bin_of)>>(
          n, threads, 0, stream, samples, n, bin_of, counts);
    });
  }
};

}  // namespace onepass::ladder
