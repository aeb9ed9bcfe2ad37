// onepass/ladder/histogram/common.cuh — what every variant of the histogram teaching ladder
// shares.
//
// A variant is a struct with
//   static constexpr const char* id;       // the registry name, e.g. "block_private"
//   static constexpr const char* summary;  // one line for --list and the docs
//   template <class Sample> static int max_bins();  // the most bins it takes on the current
//                                                    // GPU (shared memory), or no_limit
//   template <class Sample, class Counter> static std::size_t workspace_bytes(index_t n, int bins);
//   template <class Sample, class Counter>
//   static void run_unchecked(const Sample* samples, index_t n, const onepass::detail::even_bins<Sample>& bin_of,
//                             Counter* counts, workspace ws, cudaStream_t stream);
// and is called through onepass::ladder::run_histogram<Variant>(...), which checks the
// arguments (those of onepass::histogram_even), the bin limit and the workspace first.
//
// Every variant computes what onepass::histogram_even computes: counts[0, bins) is
// overwritten with the counts of samples[0, n) in `bins` even bins over [lower, upper).
// Which bin a sample falls in is the one definition in onepass/detail/histogram_bins.cuh;
// the ladder teaches where the counting happens, not how the bin is found.
#pragma once

#include <string>

#include "onepass/agent/histogram.cuh"
#include "onepass/detail/histogram_bins.cuh"
#include "onepass/detail/launch.cuh"
#include "onepass/device/dispatch_histogram.cuh"
#include "onepass/ladder/common.cuh"

namespace onepass::ladder {

template <class Variant, class Sample, class Counter>
void run_histogram(const Sample* samples, index_t n, int bins, histogram_level_t<Sample> lower,
                   histogram_level_t<Sample> upper, Counter* counts, workspace ws, cudaStream_t stream) {
  const auto bin_of = onepass::detail::check_histogram_even_args(samples, n, bins, lower, upper, counts);
  const int most = Variant::template max_bins<Sample>();
  if (most != no_limit && bins > most)
    throw invalid_argument("bins", "is " + std::to_string(bins) + "; the " + Variant::id +
                                       " variant holds at most " + std::to_string(most) +
                                       " bins in shared memory on this GPU");
  onepass::detail::check_workspace(ws, Variant::template workspace_bytes<Sample, Counter>(n, bins));
  onepass::detail::check_histogram_memory(samples, n, counts, bins);
  Variant::run_unchecked(samples, n, bin_of, counts, ws, stream);
}

// Base of the variants that need no scratch memory.
struct needs_no_workspace_for_bins {
  template <class Sample, class Counter>
  static std::size_t workspace_bytes(index_t /*n*/, int /*bins*/) {
    return 0;
  }
};

namespace detail {
// The ladder's grid: one thread per sample, at most `per_sm` blocks per SM (the kernels
// loop over the rest).
inline unsigned ladder_blocks(index_t n, int threads, int per_sm) {
  const index_t by_size = (n + threads - 1) / threads;
  const index_t most = static_cast<index_t>(per_sm) * onepass::detail::multiprocessor_count();
  return static_cast<unsigned>(by_size < 1 ? 1 : by_size < most ? by_size : most);
}

// What the atomic rungs share: zero counts[0, bins), then, unless there is nothing to
// count, call launch(bin_of) with the fastest form of the even bins `e` (the library's
// 32-bit shift form where it applies). Every rung pays the same for finding a bin, so the
// ladder compares where the counting happens.
template <class Sample, class Counter, class Launch>
void zero_then_count(index_t n, const onepass::detail::even_bins<Sample>& e, Counter* counts, cudaStream_t stream,
                     Launch&& launch) {
  ONEPASS_CUDA_TRY(cudaMemsetAsync(counts, 0, static_cast<std::size_t>(e.bins) * sizeof(Counter), stream));
  if (n == 0) return;
  onepass::detail::with_fastest_bins(e, launch);
}

// Launches a rung's counting kernel with `shared` bytes of dynamic shared memory per
// block, as many blocks as fit per SM.
template <auto Kernel, class... Args>
void launch_counting(index_t n, int threads, int shared, cudaStream_t stream, Args... args) {
  const int per_sm = onepass::detail::blocks_per_sm_with<Kernel>(threads, shared);
  onepass::detail::launch(Kernel, ladder_blocks(n, threads, per_sm), threads, shared, stream, args...);
}
}  // namespace detail

}  // namespace onepass::ladder
