// onepass/ladder/radix_sort/common.cuh — what every variant of the radix sort teaching
// ladder shares.
//
// A variant is a struct with
//   static constexpr const char* id;       // the registry name, e.g. "split_1bit"
//   static constexpr const char* summary;  // one line for --list and the docs
//   template <class Key, class Value>
//   static std::size_t workspace_bytes(index_t n);   // enough for any order and bit range
//   template <class Key, class Value>
//   static void sort_unchecked(const Key* keys_in, Key* keys_out, const Value* values_in,
//                              Value* values_out, index_t n,
//                              onepass::detail::radix_bit_range bits, bool descending,
//                              workspace ws, cudaStream_t stream);
// Value is onepass::detail::keys_only for a sort of keys alone (values_in and values_out
// are then null); otherwise any trivially copyable type of 4 or 8 bytes.
//
// Semantics are those of the production sort (onepass/radix_sort_options.cuh): keys_out
// receives keys_in sorted stably on bits [bits.begin, bits.end) of their ordered patterns
// (onepass/detail/radix_key.cuh), ascending or descending, and values_out the values in
// the same permutation. keys_out == keys_in (and values_out == values_in) sorts in place
// and every variant must accept it; otherwise keys_in and values_in are never written.
// An empty bit range (bits.begin == bits.end) compares nothing: the outputs are copies
// of the inputs. Variants are workspace-style: they never allocate or synchronise, and
// sort_unchecked may assume n > 0 and checked arguments.
//
// Variants are called through run_radix_sort<Variant>(...), which checks what the
// production onepass::radix_sort_keys / radix_sort_pairs check, in the same order — the
// options, the arguments, the workspace, then the memory (which needs the runtime) — all
// before anything is enqueued; n == 0 then does nothing.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "onepass/detail/launch.cuh"
#include "onepass/device/dispatch_radix_sort.cuh"
#include "onepass/ladder/common.cuh"
#include "onepass/radix_sort_options.cuh"

namespace onepass::ladder {
namespace detail {
using onepass::detail::check_radix_sort_memory;  // the production API's checks and copy
using onepass::detail::copy_unless_same;
}  // namespace detail

template <class Variant, class Key, class Value>
void run_radix_sort(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, index_t n,
                    const radix_sort_options& options, workspace ws, cudaStream_t stream) {
  const onepass::detail::radix_bit_range bits = onepass::detail::check_radix_options<Key>(options);
  onepass::detail::check_radix_sort_args(keys_in, keys_out, values_in, values_out, n);
  onepass::detail::check_workspace(ws, Variant::template workspace_bytes<Key, Value>(n));
  detail::check_radix_sort_memory(keys_in, keys_out, values_in, values_out, n);
  if (n == 0) return;
  Variant::template sort_unchecked<Key, Value>(keys_in, keys_out, values_in, values_out, n, bits,
                                               options.order == sort_order::descending, ws, stream);
}

}  // namespace onepass::ladder
