// onepass/histogram.cuh — device-wide histograms.
//
//   onepass::histogram_even(samples, n, bins, lower, upper, counts[, ws], stream)
//       `bins` bins of equal width over [lower, upper)
//   onepass::histogram_range(samples, n, boundaries, num_boundaries, counts[, ws], stream)
//       bin i counts boundaries[i] <= s < boundaries[i + 1] (num_boundaries - 1 bins)
//   The workspace overloads are sized by histogram_even_workspace_bytes (always 0) and
//   histogram_range_workspace_bytes.
//
// Contract of every call in this file:
//   Parameters:   samples: n items of Sample, device or managed memory, aligned to Sample;
//                 uint8, int8, uint16, int16, int32, uint32 or float. n: 64-bit; n == 0
//                 gives all-zero counts. counts: bins Counters in device or managed memory,
//                 aligned, not overlapping the samples; counts[0, bins) is overwritten
//                 (not added to). Counter: int32, uint32, int64 or uint64; a count never
//                 overflows silently: with a 32-bit Counter, n must not exceed its maximum
//                 (2^31 - 1 for int32, 2^32 - 1 for uint32); 64-bit counters take any n.
//                 Levels (lower, upper, boundaries) are histogram_level_t<Sample>: long
//                 long for integer samples, so uint8's 256 and uint32's 2^32 can be upper
//                 bounds; float for float samples. Which bin a sample falls in, exactly, is
//                 defined in onepass/detail/histogram_bins.cuh: integer samples in exact
//                 integer arithmetic, float samples as floor((s - lower) * (bins / (upper -
//                 lower))) in single precision. Not counted: samples outside [lower, upper)
//                 (outside [boundaries[0], boundaries[num_boundaries-1])) and NaN. stream:
//                 the stream the work is ordered on (the simple style defaults to the
//                 legacy default stream).
//   Errors:       onepass::invalid_argument names the argument and is thrown before
//                 anything is enqueued (nothing written, nothing allocated): "n" (negative,
//                 or more than a 32-bit Counter holds), "samples" (null while n > 0, not
//                 aligned, or host memory), "counts" (null, not aligned, host memory, or
//                 overlapping the samples), "bins", "lower", "upper", "num_boundaries",
//                 "boundaries" as each call says, "workspace" (below). onepass::cuda_error
//                 when a CUDA runtime call fails (an allocation, a launch, a sticky error
//                 left by earlier work); work enqueued before the failure is not undone.
//   Determinism:  the counts are exact integers: the same every run, whatever the order
//                 in which blocks add them.
//   Stream order: the work is enqueued on `stream` and the call returns without waiting
//                 for it; no host synchronisation. counts are ready once the stream has
//                 run it; samples must stay unchanged until then. (histogram_range reads
//                 its host boundaries during the call, so they may be freed on return.)
//   Call styles:  simple: allocates its scratch (histogram_range only) with
//                 cudaMallocAsync on `stream` and frees it the same way. workspace: never
//                 allocates; safe inside CUDA-graph capture.
//   Workspace:    ws = {data, bytes} with bytes >= the size query's answer, which depends
//                 on the types and num_boundaries only, not on n or the GPU (0 for even
//                 bins: then any ws, even {nullptr, 0}, is accepted). Checked: data not
//                 null, bytes large enough, data 16-byte aligned; each failure throws
//                 invalid_argument("workspace"). It must be device memory (not checked).
//                 Its contents on entry do not matter (the boundaries are written there
//                 first) and are not preserved. The enqueued work uses it until it
//                 completes: a later call may reuse it once ordered after this one (the
//                 next call on the same stream, for instance), but two calls that may run
//                 at the same time must not share one.
//
// bins: 1 and up. Up to a few hundred bins, each block keeps one counter per bin and
//   lane (conflict-free whatever the distribution); up to what shared memory holds
//   (tens of thousands), one per bin per block; beyond that, the counts are updated in
//   global memory directly. No bin count makes the workspace grow.
#pragma once

#include "onepass/device/dispatch_histogram.cuh"

namespace onepass {

// histogram_even_workspace_bytes: the bytes of workspace histogram_even needs: always 0
// (kept so that both calls have the same two styles). Throws invalid_argument("n") for a
// negative n. Host only; no CUDA call.
template <class Sample, class Counter>
std::size_t histogram_even_workspace_bytes(index_t n, int bins) {
  detail::check_count(n);
  return detail::histogram_workspace_bytes<Sample, Counter>(n, bins, /*boundaries=*/0);
}

// histogram_range_workspace_bytes: the bytes of workspace histogram_range needs for
// num_boundaries boundaries (room for a device copy of them; n does not change it).
// Throws invalid_argument naming "n" (negative) or "num_boundaries" (below 2). Host only.
template <class Sample, class Counter>
std::size_t histogram_range_workspace_bytes(index_t n, int num_boundaries) {
  detail::check_count(n);
  if (num_boundaries < 2)
    throw invalid_argument("num_boundaries", "is " + std::to_string(num_boundaries) +
                                                 "; at least 2 boundaries (1 bin) are needed");
  return detail::histogram_workspace_bytes<Sample, Counter>(n, num_boundaries - 1, num_boundaries);
}

// --- workspace style ---
// histogram_even: counts[b] = the number of samples in bin b of `bins` bins of equal
// width over [lower, upper).
//   bins: at least 1. lower, upper: finite, lower < upper (float samples: upper - lower
//   and bins / (upper - lower) must not overflow float; integer samples: (upper - lower)
//   * bins must stay below 2^63). samples, n, counts, stream: see the contract above.
//   ws: this overload's workspace (none is needed).
//   Throws: invalid_argument naming "bins", "lower", "upper", "n", "samples", "counts" or
//   "workspace"; cuda_error.
//   Exact counts. Stream-ordered, no host synchronisation; workspace contract above.
template <class Sample, class Counter>
void histogram_even(const Sample* samples, index_t n, int bins, histogram_level_t<Sample> lower,
                    histogram_level_t<Sample> upper, Counter* counts, workspace ws, cudaStream_t stream) {
  detail::histogram_even_dispatch(samples, n, bins, lower, upper, counts, &ws, stream);
}

// histogram_range: counts[i] = the number of samples s with boundaries[i] <= s <
// boundaries[i + 1], for the num_boundaries - 1 bins.
//   boundaries: a HOST array of num_boundaries (at least 2) levels, strictly increasing,
//   no NaN; checked on the host, then passed to the GPU in kernel parameters, so the call
//   stays asynchronous and the array may be freed as soon as the call returns. samples,
//   n, counts, stream: see the contract above. ws: this overload's workspace.
//   Throws: invalid_argument naming "num_boundaries", "boundaries" (null, device memory,
//   NaN, not increasing), "n", "samples", "counts" or "workspace"; cuda_error.
//   Exact counts. Stream-ordered, no host synchronisation; workspace contract above.
template <class Sample, class Counter>
void histogram_range(const Sample* samples, index_t n, const histogram_level_t<Sample>* boundaries,
                     int num_boundaries, Counter* counts, workspace ws, cudaStream_t stream) {
  detail::histogram_range_dispatch(samples, n, boundaries, num_boundaries, counts, &ws, stream);
}

// --- simple style ---
// histogram_even, simple style: as above, without ws (none is allocated); stream defaults
// to the legacy default stream.
template <class Sample, class Counter>
void histogram_even(const Sample* samples, index_t n, int bins, histogram_level_t<Sample> lower,
                    histogram_level_t<Sample> upper, Counter* counts, cudaStream_t stream = nullptr) {
  detail::histogram_even_dispatch(samples, n, bins, lower, upper, counts, nullptr, stream);
}

// histogram_range, simple style: as above, with the boundaries' device copy allocated
// with cudaMallocAsync on `stream` and freed the same way; stream defaults to the legacy
// default stream. Throws as above, without "workspace".
template <class Sample, class Counter>
void histogram_range(const Sample* samples, index_t n, const histogram_level_t<Sample>* boundaries,
                     int num_boundaries, Counter* counts, cudaStream_t stream = nullptr) {
  detail::histogram_range_dispatch(samples, n, boundaries, num_boundaries, counts, nullptr, stream);
}

}  // namespace onepass
