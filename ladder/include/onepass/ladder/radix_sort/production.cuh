// onepass/ladder/radix_sort/production.cuh — the production radix sort
// (onepass::radix_sort_keys / radix_sort_pairs, copy and workspace style) as the
// ladder's top rung, id "onepass".
#pragma once

#include "onepass/device/dispatch_radix_sort.cuh"
#include "onepass/ladder/radix_sort/common.cuh"

namespace onepass::ladder {

struct radix_sort_production {
  static constexpr const char* id = "onepass";
  static constexpr const char* summary =
      "production: 8-bit digits, one histogram pass, then one pass per digit with a per-digit decoupled lookback";

  template <class Key, class Value>
  static std::size_t workspace_bytes(index_t n) {
    return onepass::detail::radix_sort_plan<Key, Value>::workspace_bytes(n, false);
  }

  // run_radix_sort has checked everything the production API checks: launch without
  // checking again.
  template <class Key, class Value>
  static void sort_unchecked(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, index_t n,
                             onepass::detail::radix_bit_range bits, bool descending, workspace ws,
                             cudaStream_t stream) {
    onepass::detail::radix_sort_copy_launch(keys_in, keys_out, values_in, values_out, n, bits, descending, ws,
                                            stream);
  }
};

}  // namespace onepass::ladder
