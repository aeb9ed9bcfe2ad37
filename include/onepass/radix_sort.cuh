// onepass/radix_sort.cuh — stable LSD radix sort of keys, or of keys with values.
//
//   onepass::radix_sort_keys(keys_in, keys_out, n[, options][, ws], stream)
//   onepass::radix_sort_pairs(keys_in, keys_out, values_in, values_out, n[, options][, ws], stream)
//       keys_out[0, n) = keys_in sorted; values_out[i] = the value that came with keys_out[i].
//       keys_in is left unchanged; keys_out == keys_in sorts in place (a partial overlap is
//       refused); values alike.
//   onepass::radix_sort_keys(double_buffer<Key>& keys, n[, options][, ws], stream)
//   onepass::radix_sort_pairs(double_buffer<Key>& keys, double_buffer<Value>& values, n, ...)
//       sorts keys.current() using keys.alternate() as the other buffer, with no copy at the
//       end: on return keys.current() (and values.current()) hold the result, both buffers'
//       old contents are gone. The workspace is smaller (no n-item buffers).
//   onepass::radix_sort_permutation(keys, n, permutation[, options], stream)
//       permutation[i] = the index in keys of the key at sorted position i (stable);
//       keys are left unchanged. Index: a 4- or 8-byte integer type that holds n - 1.
//
// Keys: uint32, int32, float, uint64, int64, double. Values: any trivially copyable type
//   of 4 or 8 bytes. Order and bit ranges: onepass/radix_sort_options.cuh (numbers in
//   numeric order; -0.0 before +0.0; NaNs after +inf or before -inf by their sign).
// options: {sort_order::ascending | descending, begin_bit, end_bit}; stable either way.
// n: 64-bit.
//
// Two call styles, as for scan and select:
//   simple:    allocates its scratch with cudaMallocAsync on `stream` and frees it the
//              same way. Asynchronous; never synchronises.
//   workspace: radix_sort_workspace_bytes<Key, Value>(n) (copy style) or
//              radix_sort_double_buffer_workspace_bytes<Key, Value>(n) first, then pass a
//              onepass::workspace of at least that many bytes (16-byte aligned). Never
//              allocates or synchronises; safe inside CUDA-graph capture.
// Errors: onepass::invalid_argument (naming the argument) before anything is enqueued;
//         onepass::cuda_error when the runtime reports a failure.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "onepass/device/dispatch_radix_sort.cuh"

namespace onepass {

// Value = void: a sort of keys alone.
template <class Key, class Value = void>
std::size_t radix_sort_workspace_bytes(index_t n) {
  detail::check_count(n);
  using V = std::conditional_t<std::is_void_v<Value>, detail::keys_only, Value>;
  return detail::radix_sort_plan<Key, V>::workspace_bytes(n, false);
}

template <class Key, class Value = void>
std::size_t radix_sort_double_buffer_workspace_bytes(index_t n) {
  detail::check_count(n);
  using V = std::conditional_t<std::is_void_v<Value>, detail::keys_only, Value>;
  return detail::radix_sort_plan<Key, V>::workspace_bytes(n, true);
}

// --- workspace style ---
template <class Key>
void radix_sort_keys(const Key* keys_in, Key* keys_out, index_t n, const radix_sort_options& options, workspace ws,
                     cudaStream_t stream) {
  detail::radix_sort_copy_dispatch<void, Key, detail::keys_only>(keys_in, keys_out, nullptr, nullptr, n, options,
                                                                 &ws, stream);
}

template <class Key, class Value>
void radix_sort_pairs(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, index_t n,
                      const radix_sort_options& options, workspace ws, cudaStream_t stream) {
  detail::radix_sort_copy_dispatch(keys_in, keys_out, values_in, values_out, n, options, &ws, stream);
}

template <class Key>
void radix_sort_keys(double_buffer<Key>& keys, index_t n, const radix_sort_options& options, workspace ws,
                     cudaStream_t stream) {
  detail::radix_sort_double_buffer_dispatch<void, Key, detail::keys_only>(keys, nullptr, n, options, &ws, stream);
}

template <class Key, class Value>
void radix_sort_pairs(double_buffer<Key>& keys, double_buffer<Value>& values, index_t n,
                      const radix_sort_options& options, workspace ws, cudaStream_t stream) {
  detail::radix_sort_double_buffer_dispatch(keys, &values, n, options, &ws, stream);
}

// --- simple style ---
template <class Key>
void radix_sort_keys(const Key* keys_in, Key* keys_out, index_t n, const radix_sort_options& options = {},
                     cudaStream_t stream = nullptr) {
  detail::radix_sort_copy_dispatch<void, Key, detail::keys_only>(keys_in, keys_out, nullptr, nullptr, n, options,
                                                                 nullptr, stream);
}

template <class Key, class Value>
void radix_sort_pairs(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, index_t n,
                      const radix_sort_options& options = {}, cudaStream_t stream = nullptr) {
  detail::radix_sort_copy_dispatch(keys_in, keys_out, values_in, values_out, n, options, nullptr, stream);
}

template <class Key>
void radix_sort_keys(double_buffer<Key>& keys, index_t n, const radix_sort_options& options = {},
                     cudaStream_t stream = nullptr) {
  detail::radix_sort_double_buffer_dispatch<void, Key, detail::keys_only>(keys, nullptr, n, options, nullptr,
                                                                          stream);
}

template <class Key, class Value>
void radix_sort_pairs(double_buffer<Key>& keys, double_buffer<Value>& values, index_t n,
                      const radix_sort_options& options = {}, cudaStream_t stream = nullptr) {
  detail::radix_sort_double_buffer_dispatch(keys, &values, n, options, nullptr, stream);
}

// --- the sorting permutation (simple style) ---
template <class Key, class Index>
void radix_sort_permutation(const Key* keys, index_t n, Index* permutation, const radix_sort_options& options = {},
                            cudaStream_t stream = nullptr) {
  static_assert(std::is_integral_v<Index> && (sizeof(Index) == 4 || sizeof(Index) == 8),
                "radix_sort_permutation: Index must be a 4- or 8-byte integer type");
  detail::static_check_radix_key<Key>();
  (void)detail::check_radix_options<Key>(options);
  detail::check_count(n);
  detail::check_pointer(keys, n, "keys");
  detail::check_pointer(permutation, n, "permutation");
  if (n > 0 && static_cast<unsigned long long>(n - 1) > static_cast<unsigned long long>(std::numeric_limits<Index>::max()))
    throw invalid_argument("permutation", "has an index type too small for " + std::to_string(n) + " items");
  const auto k = reinterpret_cast<std::uintptr_t>(keys), p = reinterpret_cast<std::uintptr_t>(permutation);
  if (n > 0 && k < p + n * sizeof(Index) && p < k + n * sizeof(Key))
    throw invalid_argument("permutation", "overlaps 'keys'");
  detail::check_device_accessible(keys, n, "keys");
  detail::check_device_accessible(permutation, n, "permutation");
  if (n == 0) return;
  // Scratch: the sorted keys (discarded) and the identity permutation sorted along.
  using plan = detail::radix_sort_plan<Key, Index>;
  const std::size_t key_bytes = plan::round_up(static_cast<std::size_t>(n) * sizeof(Key));
  const std::size_t index_bytes = plan::round_up(static_cast<std::size_t>(n) * sizeof(Index));
  const std::size_t ws_bytes = plan::workspace_bytes(n, false);
  void* scratch = nullptr;
  ONEPASS_CUDA_TRY(cudaMallocAsync(&scratch, key_bytes + index_bytes + ws_bytes, stream));
  try {
    auto* base = static_cast<unsigned char*>(scratch);
    Key* sorted_keys = reinterpret_cast<Key*>(base);
    Index* identity = reinterpret_cast<Index*>(base + key_bytes);
    const index_t blocks = std::min<index_t>((n + 255) / 256, 65535);
    detail::launch(detail::radix_iota_kernel<Index>, dim3(static_cast<unsigned>(blocks)), 256, 0, stream, identity, n);
    const workspace ws{base + key_bytes + index_bytes, ws_bytes};
    detail::radix_sort_copy_dispatch(keys, sorted_keys, static_cast<const Index*>(identity), permutation, n, options,
                                     &ws, stream);
  } catch (...) {
    (void)cudaFreeAsync(scratch, stream);
    throw;
  }
  ONEPASS_CUDA_TRY(cudaFreeAsync(scratch, stream));
}

}  // namespace onepass
