// onepass/ladder/select/production.cuh — the production stream compaction
// (onepass::select_if / unique / partition, workspace style) as the ladder's top rung,
// id "onepass".
#pragma once

#include "onepass/ladder/select/common.cuh"

namespace onepass::ladder {

struct select_production {
  static constexpr const char* id = "onepass";
  static constexpr const char* summary =
      "production: one pass, decoupled lookback on 64-bit counts, 128-bit loads, packed coalesced writes";
  static constexpr bool in_place = true;
  static constexpr bool index_predicates = true;

  template <class T, class Pred = no_predicate>
  static std::size_t workspace_bytes(index_t n) {
    return onepass::detail::select_plan<T>::workspace_bytes(n);
  }

  // run_select has checked everything the production API checks: launch without
  // checking again.
  template <class Job>
  static void run_unchecked(const Job& job, index_t n, typename Job::value_type* out,
                            typename Job::value_type* out_rejected, index_t* count_out, workspace ws,
                            cudaStream_t stream) {
    onepass::detail::select_launch(job, n, out, out_rejected, count_out, ws, stream);
  }
};

}  // namespace onepass::ladder
