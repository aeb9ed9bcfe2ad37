// onepass/device/dispatch_histogram.cuh — checks a histogram's arguments, chooses where
// blocks count (agent/histogram.cuh) and launches: a one-block kernel that zeroes the
// counts, then the counting kernel, launched programmatically so that it starts at once
// and waits for the zeroing only when it adds its counts. No workspace for even bins; for
// custom boundaries, the workspace holds them.
#pragma once

#include <cuda_runtime_api.h>
#include <algorithm>

#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "onepass/agent/histogram.cuh"
#include "onepass/detail/histogram_bins.cuh"
#include "onepass/detail/launch.cuh"
#include "onepass/tuning/histogram_tuning.cuh"

namespace onepass::detail {

template <class Counter>
inline constexpr bool is_histogram_counter_v =
    std::is_integral_v<Counter> && !std::is_same_v<Counter, bool> && (sizeof(Counter) == 4 || sizeof(Counter) == 8);

// Checks everything about the samples, the count and the counts that needs no GPU.
template <class Sample, class Counter>
void check_histogram_common(const Sample* samples, index_t n, int bins, Counter* counts) {
  static_assert(is_histogram_sample_v<Sample>, "histogram samples are 8/16/32-bit integers or float");
  static_assert(is_histogram_counter_v<Counter>, "histogram counters are 32- or 64-bit integers");
  check_count(n);
  check_pointer(samples, n, "samples");
  if (counts == nullptr) throw invalid_argument("counts", "is null; it must hold 'bins' counters");
  check_pointer(counts, bins, "counts");
  // Even a one-bin histogram of n samples may count n: the counter must hold it.
  if (static_cast<unsigned long long>(n) > static_cast<unsigned long long>(std::numeric_limits<Counter>::max()))
    throw invalid_argument("n", "is " + std::to_string(n) + ", more than a " + std::to_string(8 * sizeof(Counter)) +
                                    "-bit counter holds (" + std::to_string(std::numeric_limits<Counter>::max()) +
                                    "); use 64-bit counters");
  if (n > 0) {
    const auto s = reinterpret_cast<std::uintptr_t>(samples), c = reinterpret_cast<std::uintptr_t>(counts);
    if (c < s + static_cast<std::uintptr_t>(n) * sizeof(Sample) && s < c + static_cast<std::uintptr_t>(bins) * sizeof(Counter))
      throw invalid_argument("counts", "overlaps 'samples'");
  }
}

template <class Sample, class Counter>
even_bins<Sample> check_histogram_even_args(const Sample* samples, index_t n, int bins, histogram_level_t<Sample> lower,
                                            histogram_level_t<Sample> upper, Counter* counts) {
  const even_bins<Sample> e = make_even_bins<Sample>(bins, lower, upper);  // checks bins first
  check_histogram_common(samples, n, bins, counts);
  return e;
}

template <class Sample, class Counter>
void check_histogram_memory(const Sample* samples, index_t n, Counter* counts, int bins) {
  check_device_accessible(samples, n, "samples");
  check_device_accessible(counts, bins, "counts");
}

// The custom boundaries must be readable by the host: they are checked there.
inline void check_host_readable(const void* p, const char* name) {
  cudaPointerAttributes attr{};
  const cudaError_t e = cudaPointerGetAttributes(&attr, p);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw cuda_error(e, std::string("cudaPointerGetAttributes('") + name + "')");
  }
  if (attr.type == cudaMemoryTypeDevice)
    throw invalid_argument(name, "points to device memory; pass a host array (it is checked on the host "
                                 "before anything is enqueued)");
}

template <class Sample>
constexpr std::size_t boundaries_bytes(int num_boundaries) {
  return (static_cast<std::size_t>(num_boundaries) * sizeof(histogram_level_t<Sample>) + 15) / 16 * 16;
}

template <class Sample, class Counter>
std::size_t histogram_workspace_bytes(index_t /*n*/, int /*bins*/, int num_boundaries) {
  return num_boundaries > 0 ? boundaries_bytes<Sample>(num_boundaries) : 0;
}

// Blocks of Kernel resident per SM with `shared_bytes` of dynamic shared memory, asked once
// per device, kernel and size. Raises the kernel's dynamic shared memory limit to the
// device's maximum the first time.
template <auto Kernel>
int blocks_per_sm_with(int threads, int shared_bytes) {
  static std::mutex lock;
  static std::map<std::pair<int, int>, int> known;  // (device, shared bytes) -> blocks per SM
  int device = 0;
  ONEPASS_CUDA_TRY(cudaGetDevice(&device));
  std::lock_guard<std::mutex> guard(lock);
  if (const auto it = known.find({device, shared_bytes}); it != known.end()) return it->second;
  ONEPASS_CUDA_TRY(
      cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, max_shared_bytes_per_block()));
  int per_sm = 0;
  ONEPASS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, threads, shared_bytes));
  known[{device, shared_bytes}] = per_sm;
  return per_sm;
}

template <class Tuning = tuning::default_histogram_tuning>
histogram_layout histogram_layout_for(int bins) {
  if (bins <= Tuning::value.column_max_bins) return histogram_layout::columns;
  if ((static_cast<long long>(bins) + 1) * 4 <= max_shared_bytes_per_block()) return histogram_layout::shared;
  return histogram_layout::global;
}

template <class Sample, class Counter, class Bins, histogram_layout Layout, class Tuning>
void histogram_launch_with(const Sample* samples, index_t n, const Bins& bin_of, int bins, Counter* counts,
                           cudaStream_t stream) {
  constexpr tuning::histogram_tuning t = Tuning::value;
  constexpr auto kernel = histogram_kernel<Sample, Counter, Bins, Layout, t.block_threads, t.vectors_per_thread>;
  // One spare counter (per lane) past the bins takes the samples not counted.
  const int shared_bytes = Layout == histogram_layout::columns ? (bins + 1) * 32 * 4
                           : Layout == histogram_layout::shared ? (bins + 1) * 4
                                                                : 0;
  int per_sm = blocks_per_sm_with<kernel>(t.block_threads, shared_bytes);
  if (per_sm < 1) throw invalid_argument("bins", "needs more shared memory than a block may have");
  if (per_sm > t.blocks_per_sm) per_sm = t.blocks_per_sm;
  // At least one round of loads per thread in every block; no block past 2^31 samples
  // (its counters are 32-bit).
  const index_t round = static_cast<index_t>(t.block_threads) * t.vectors_per_thread * (16 / sizeof(Sample));
  index_t blocks = static_cast<index_t>(per_sm) * multiprocessor_count();
  const index_t by_size = (n + round - 1) / round;
  if (blocks > by_size) blocks = by_size < 1 ? 1 : by_size;
  const index_t needed = n / (1ll << 31) + 1;
  if (blocks < needed) blocks = needed;
  launch_programmatic(kernel, dim3(static_cast<unsigned>(blocks)), t.block_threads, static_cast<std::size_t>(shared_bytes),
                      stream, samples, n, bin_of, bins, counts);
}

// Zeroes the counts, then counts n samples with `bin_of` (arguments already checked).
template <class Tuning = tuning::default_histogram_tuning, class Sample, class Counter, class Bins>
void histogram_launch(const Sample* samples, index_t n, const Bins& bin_of, int bins, Counter* counts,
                      cudaStream_t stream) {
  const int zero_blocks = static_cast<int>(std::min<long long>((bins + 1023) / 1024, 1024));
  launch(zero_counts_kernel<Counter>, dim3(zero_blocks), 1024, 0, stream, counts, bins);
  if (n == 0) return;
  switch (histogram_layout_for<Tuning>(bins)) {
    case histogram_layout::columns:
      return histogram_launch_with<Sample, Counter, Bins, histogram_layout::columns, Tuning>(samples, n, bin_of, bins,
                                                                                             counts, stream);
    case histogram_layout::shared:
      return histogram_launch_with<Sample, Counter, Bins, histogram_layout::shared, Tuning>(samples, n, bin_of, bins,
                                                                                            counts, stream);
    case histogram_layout::global:
      return histogram_launch_with<Sample, Counter, Bins, histogram_layout::global, Tuning>(samples, n, bin_of, bins,
                                                                                            counts, stream);
  }
}

// Even bins: the 32-bit shift form where it applies, the exact general form otherwise.
template <class Tuning = tuning::default_histogram_tuning, class Sample, class Counter>
void histogram_even_launch(const Sample* samples, index_t n, const even_bins<Sample>& e, int bins, Counter* counts,
                           cudaStream_t stream) {
  with_fastest_bins(e, [&](const auto& bin_of) { histogram_launch<Tuning>(samples, n, bin_of, bins, counts, stream); });
}

template <class Sample, class Counter>
void histogram_even_dispatch(const Sample* samples, index_t n, int bins, histogram_level_t<Sample> lower,
                             histogram_level_t<Sample> upper, Counter* counts, const workspace* ws,
                             cudaStream_t stream) {
  const even_bins<Sample> e = check_histogram_even_args(samples, n, bins, lower, upper, counts);
  if (ws) check_workspace(*ws, 0);  // even bins need none
  check_histogram_memory(samples, n, counts, bins);
  histogram_even_launch(samples, n, e, bins, counts, stream);
}

// Copies the host boundaries into `to` (device memory) through kernel parameters.
template <class Level>
void upload_levels(const Level* from, int count, Level* to, cudaStream_t stream) {
  // A few KiB under the 32 KiB of kernel parameters sm_70+ take with CUDA 12.1 and newer.
  constexpr int chunk = 28 * 1024 / static_cast<int>(sizeof(Level));
  for (int first = 0; first < count; first += chunk) {
    const int here = std::min(chunk, count - first);
    level_chunk<Level, chunk> values{};
    for (int i = 0; i < here; ++i) values.values[i] = from[first + i];
    launch(store_levels_kernel<Level, chunk>, dim3(1), 256, 0, stream, values, here, to + first);
  }
}

template <class Sample, class Counter>
void histogram_range_dispatch(const Sample* samples, index_t n, const histogram_level_t<Sample>* boundaries,
                              int num_boundaries, Counter* counts, const workspace* ws, cudaStream_t stream) {
  using level = histogram_level_t<Sample>;
  static_assert(is_histogram_sample_v<Sample>, "histogram samples are 8/16/32-bit integers or float");
  if (num_boundaries < 2)
    throw invalid_argument("num_boundaries", "is " + std::to_string(num_boundaries) +
                                                 "; at least 2 boundaries (1 bin) are needed");
  if (boundaries == nullptr) throw invalid_argument("boundaries", "is null");
  const int bins = num_boundaries - 1;
  check_histogram_common(samples, n, bins, counts);
  const std::size_t needed = boundaries_bytes<Sample>(num_boundaries);
  if (ws) check_workspace(*ws, needed);
  check_host_readable(boundaries, "boundaries");
  check_boundaries<Sample>(boundaries, num_boundaries);
  check_histogram_memory(samples, n, counts, bins);

  workspace scratch = ws ? *ws : workspace{nullptr, needed};
  if (!ws) ONEPASS_CUDA_TRY(cudaMallocAsync(&scratch.data, needed, stream));
  try {
    auto* device_boundaries = static_cast<level*>(scratch.data);
    upload_levels(boundaries, num_boundaries, device_boundaries, stream);
    histogram_launch(samples, n, range_bins<Sample>{device_boundaries, bins}, bins, counts, stream);
  } catch (...) {
    if (!ws) (void)cudaFreeAsync(scratch.data, stream);
    throw;
  }
  if (!ws) ONEPASS_CUDA_TRY(cudaFreeAsync(scratch.data, stream));
}

}  // namespace onepass::detail
