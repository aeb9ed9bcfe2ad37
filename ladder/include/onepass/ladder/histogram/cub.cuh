// onepass/ladder/histogram/cub.cuh — cub::DeviceHistogram::HistogramEven from the CUDA
// toolkit, the peer, id "cub".
#pragma once

#include <cub/device/device_histogram.cuh>

#include <type_traits>

#include "onepass/ladder/histogram/common.cuh"

namespace onepass::ladder {

struct cub_histogram {
  static constexpr const char* id = "cub";
  static constexpr const char* summary = "cub::DeviceHistogram::HistogramEven (CUDA toolkit), the peer";

  // CUB's atomics take int, unsigned and unsigned long long: 64-bit counters of either
  // sign go through the unsigned one (same bits).
  template <class Counter>
  using cub_counter = std::conditional_t<sizeof(Counter) == 8, unsigned long long,
                                         std::conditional_t<std::is_signed_v<Counter>, int, unsigned>>;

  template <class Sample>
  static int max_bins() {
    return no_limit;
  }

  template <class Sample, class Counter>
  static std::size_t workspace_bytes(index_t n, int bins) {
    using level = histogram_level_t<Sample>;
    std::size_t bytes = 0;
    ONEPASS_CUDA_TRY(cub::DeviceHistogram::HistogramEven(nullptr, bytes, static_cast<const Sample*>(nullptr),
                                                         static_cast<cub_counter<Counter>*>(nullptr), bins + 1,
                                                         level{0}, level{1}, n));
    return bytes;
  }

  template <class Sample, class Counter>
  static void run_unchecked(const Sample* samples, index_t n, const onepass::detail::even_bins<Sample>& e,
                            Counter* counts, workspace ws, cudaStream_t stream) {
    using level = histogram_level_t<Sample>;
    level lower, upper;
    if constexpr (std::is_floating_point_v<Sample>) {
      lower = e.lower;
      upper = e.upper;
    } else {
      lower = e.lower;
      upper = static_cast<level>(static_cast<unsigned long long>(e.lower) + e.range);
    }
    std::size_t bytes = ws.bytes;
    ONEPASS_CUDA_TRY(cub::DeviceHistogram::HistogramEven(ws.data, bytes, samples,
                                                         reinterpret_cast<cub_counter<Counter>*>(counts),
                                                         static_cast<int>(e.bins) + 1, lower, upper, n, stream));
  }
};

}  // namespace onepass::ladder
