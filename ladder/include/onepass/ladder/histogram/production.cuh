// onepass/ladder/histogram/production.cuh — the production histogram
// (onepass::histogram_even, workspace style) as the ladder's top rung, id "onepass".
#pragma once

#include "onepass/ladder/histogram/common.cuh"

namespace onepass::ladder {

struct histogram_production : needs_no_workspace_for_bins {
  static constexpr const char* id = "onepass";
  static constexpr const char* summary =
      "production: conflict-free per-lane counters (or one per bin), 128-bit loads, zeroing overlapped";

  template <class Sample>
  static int max_bins() {
    return no_limit;
  }

  // run_histogram has checked everything: launch without checking again.
  template <class Sample, class Counter>
  static void run_unchecked(const Sample* samples, index_t n, const onepass::detail::even_bins<Sample>& e,
                            Counter* counts, workspace, cudaStream_t stream) {
    onepass::detail::histogram_even_launch(samples, n, e, static_cast<int>(e.bins), counts, stream);
  }
};

}  // namespace onepass::ladder
