// onepass/histogram.cuh — device-wide histograms.
//
//   onepass::histogram_even(samples, n, bins, lower, upper, counts[, ws], stream)
//       `bins` bins of equal width over [lower, upper)
//   onepass::histogram_range(samples, n, boundaries, num_boundaries, counts[, ws], stream)
//       bin i counts boundaries[i] <= s < boundaries[i + 1] (num_boundaries - 1 bins)
//
// counts[0, bins) is overwritten with the counts (not added to); n == 0 gives zeros.
// Samples: uint8, int8, uint16, int16, int32, uint32, float. Levels (lower, upper,
//   boundaries) are histogram_level_t<Sample>: long long for integer samples, so uint8's
//   256 and uint32's 2^32 can be upper bounds; float for float samples. Which bin a sample
//   falls in, exactly, is defined in onepass/detail/histogram_bins.cuh: integer samples in
//   exact integer arithmetic, float samples as floor((s - lower) * (bins / (upper -
//   lower))) in single precision.
// Not counted: samples outside [lower, upper) (outside [boundaries[0],
//   boundaries[num_boundaries-1])) and NaN.
// Counter: int32, uint32, int64 or uint64. A count never overflows silently: with a
//   32-bit Counter, n must not exceed its maximum (2^31 - 1 for int32, 2^32 - 1 for
//   uint32), checked before anything runs; 64-bit counters take any n.
// bins: 1 and up. Up to a few hundred bins, each block keeps one counter per bin and
//   lane (conflict-free whatever the distribution); up to what shared memory holds
//   (tens of thousands), one per bin per block; beyond that, the counts are updated in
//   global memory directly. No bin count makes the workspace grow past
//   onepass::histogram_even_workspace_bytes (a few MiB at most).
// boundaries: a HOST array, checked (at least 2, strictly increasing, no NaN) before
//   anything is enqueued; it is passed to the GPU in kernel parameters, so the call stays
//   asynchronous and may be captured in a CUDA graph, and the array may be freed as soon
//   as the call returns.
// n: 64-bit. Pointers: device or managed memory, aligned to their types.
//
// Two call styles, as for scan and reduce:
//   simple:    allocates its scratch with cudaMallocAsync on `stream` and frees it the
//              same way. Asynchronous; never synchronises.
//   workspace: histogram_even_workspace_bytes<Sample, Counter>(n, bins) (or _range_) first,
//              then pass a onepass::workspace of at least that many bytes (16-byte
//              aligned). Never allocates or synchronises; safe inside CUDA-graph capture.
// Errors: onepass::invalid_argument (naming the argument) before anything is enqueued;
//         onepass::cuda_error when the runtime reports a failure.
#pragma once

#include "onepass/device/dispatch_histogram.cuh"

namespace onepass {

template <class Sample, class Counter>
std::size_t histogram_even_workspace_bytes(index_t n, int bins) {
  detail::check_count(n);
  return detail::histogram_workspace_bytes<Sample, Counter>(n, bins, /*boundaries=*/0);
}

template <class Sample, class Counter>
std::size_t histogram_range_workspace_bytes(index_t n, int num_boundaries) {
  detail::check_count(n);
  if (num_boundaries < 2)
    throw invalid_argument("num_boundaries", "is " + std::to_string(num_boundaries) +
                                                 "; at least 2 boundaries (1 bin) are needed");
  return detail::histogram_workspace_bytes<Sample, Counter>(n, num_boundaries - 1, num_boundaries);
}

// --- workspace style ---
template <class Sample, class Counter>
void histogram_even(const Sample* samples, index_t n, int bins, histogram_level_t<Sample> lower,
                    histogram_level_t<Sample> upper, Counter* counts, workspace ws, cudaStream_t stream) {
  detail::histogram_even_dispatch(samples, n, bins, lower, upper, counts, &ws, stream);
}

template <class Sample, class Counter>
void histogram_range(const Sample* samples, index_t n, const histogram_level_t<Sample>* boundaries,
                     int num_boundaries, Counter* counts, workspace ws, cudaStream_t stream) {
  detail::histogram_range_dispatch(samples, n, boundaries, num_boundaries, counts, &ws, stream);
}

// --- simple style ---
template <class Sample, class Counter>
void histogram_even(const Sample* samples, index_t n, int bins, histogram_level_t<Sample> lower,
                    histogram_level_t<Sample> upper, Counter* counts, cudaStream_t stream = nullptr) {
  detail::histogram_even_dispatch(samples, n, bins, lower, upper, counts, nullptr, stream);
}

template <class Sample, class Counter>
void histogram_range(const Sample* samples, index_t n, const histogram_level_t<Sample>* boundaries,
                     int num_boundaries, Counter* counts, cudaStream_t stream = nullptr) {
  detail::histogram_range_dispatch(samples, n, boundaries, num_boundaries, counts, nullptr, stream);
}

}  // namespace onepass
