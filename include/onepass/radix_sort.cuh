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
// Contract of every call in this file:
//   Parameters:   Keys: uint32, int32, float, uint64, int64, double. Values: any trivially
//                 copyable type of 4 or 8 bytes (both checked at compile time). Order and
//                 bit ranges: onepass/radix_sort_options.cuh (numbers in numeric order;
//                 -0.0 before +0.0; NaNs after +inf or before -inf by their sign).
//                 options: {sort_order::ascending | descending, begin_bit, end_bit}
//                 (default: ascending, every bit); stable either way. n: 64-bit; n == 0
//                 does nothing. Key and value arrays: n items each, device or managed
//                 memory, aligned to their types; keys and values must not overlap each
//                 other. stream: the stream the work is ordered on (the simple style
//                 defaults to the legacy default stream).
//   Errors:       onepass::invalid_argument names the argument and is thrown before
//                 anything is enqueued (nothing written, nothing allocated):
//                 "options.order" / "options.begin_bit" / "options.end_bit" (outside the
//                 key's bits), "n" (negative), each array by its parameter name (null while
//                 n > 0, not aligned, host memory, or an overlap the call refuses), for the
//                 double-buffer calls "keys" / "values" (a selector other than 0 or 1, the
//                 same buffer twice) and "keys.current()" / "keys.alternate()" (likewise
//                 "values..."), "workspace" (below). onepass::cuda_error when a CUDA
//                 runtime call fails (an allocation, a launch, a sticky error left by
//                 earlier work; work enqueued before such a failure is not undone), and
//                 cudaErrorNotSupported, before anything is enqueued, where the GPU gives
//                 a block too little shared memory for a kernel (no GPU of compute
//                 capability 8.0 or newer does).
//   Determinism:  keys and values are moved, never combined, and the sort is stable: the
//                 output is the same every run.
//   Stream order: the work is enqueued on `stream` and the call returns without waiting
//                 for it; no host synchronisation. The outputs are ready once the stream
//                 has run it; the inputs must stay unchanged until then. (The double-buffer
//                 calls update the selectors on the host before returning.)
//   Call styles:  simple: allocates its scratch with cudaMallocAsync on `stream` and frees
//                 it the same way. workspace: never allocates; safe inside CUDA-graph
//                 capture.
//   Workspace:    ws = {data, bytes} with bytes >= radix_sort_workspace_bytes<Key,
//                 Value>(n) (copy style) or radix_sort_double_buffer_workspace_bytes<Key,
//                 Value>(n) (double-buffer style), sizes that depend on the types and n
//                 only, not on the options or the GPU (0 for n == 0: then any ws, even
//                 {nullptr, 0}, is accepted). Checked: data not null, bytes large enough,
//                 data 16-byte aligned; each failure throws invalid_argument("workspace").
//                 It must be device memory (not checked). Its contents on entry do not
//                 matter (the call clears or writes what it uses) and are not preserved.
//                 The enqueued work uses it until it completes: a later call may reuse it
//                 once ordered after this one (the next call on the same stream, for
//                 instance), but two calls that may run at the same time must not share
//                 one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "onepass/device/dispatch_radix_sort.cuh"

namespace onepass {

// radix_sort_workspace_bytes, radix_sort_double_buffer_workspace_bytes: the bytes of
// workspace a copy-style or a double-buffer sort of n keys (with values of type Value)
// needs (0 for n == 0); Value = void: a sort of keys alone. Throws invalid_argument("n")
// for a negative n. Host only; no CUDA call.
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
// radix_sort_keys (copy style): keys_out[0, n) = keys_in[0, n) sorted by options; keys_in
// is left unchanged unless keys_out == keys_in (in place).
//   keys_in, keys_out, n, options, stream: see the contract above. ws: this overload's
//   workspace (radix_sort_workspace_bytes<Key>(n)).
//   Throws: invalid_argument naming "options.*", "n", "keys_in", "keys_out" or
//   "workspace"; cuda_error.
//   Same output every run. Stream-ordered, no host synchronisation; workspace contract
//   above.
template <class Key>
void radix_sort_keys(const Key* keys_in, Key* keys_out, index_t n, const radix_sort_options& options, workspace ws,
                     cudaStream_t stream) {
  detail::radix_sort_copy_dispatch<void, Key, detail::keys_only>(keys_in, keys_out, nullptr, nullptr, n, options,
                                                                 &ws, stream);
}

// radix_sort_pairs (copy style): keys_out = keys_in sorted, values_out[i] = the value that
// came with keys_out[i]; the inputs are left unchanged unless sorted in place.
//   values_in, values_out: as keys_in and keys_out, and no key array may overlap a value
//   array. keys_in, keys_out, n, options, stream: see the contract above. ws: this
//   overload's workspace (radix_sort_workspace_bytes<Key, Value>(n)).
//   Throws: invalid_argument naming "options.*", "n", "keys_in", "keys_out",
//   "values_in", "values_out" or "workspace"; cuda_error.
//   Same output every run. Stream-ordered, no host synchronisation; workspace contract
//   above.
template <class Key, class Value>
void radix_sort_pairs(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, index_t n,
                      const radix_sort_options& options, workspace ws, cudaStream_t stream) {
  detail::radix_sort_copy_dispatch(keys_in, keys_out, values_in, values_out, n, options, &ws, stream);
}

// radix_sort_keys (double-buffer style): sorts keys.current() between the two buffers;
// on return keys.selector names the buffer that holds the result, and both buffers' old
// contents are gone.
//   keys: two distinct, non-overlapping buffers of n keys, selector 0 or 1. n, options,
//   stream: see the contract above. ws: this overload's workspace
//   (radix_sort_double_buffer_workspace_bytes<Key>(n)).
//   Throws: invalid_argument naming "options.*", "n", "keys", "keys.current()",
//   "keys.alternate()", "keys_in" / "keys_out" (current / alternate in host memory) or
//   "workspace"; cuda_error.
//   Same output every run. Stream-ordered, no host synchronisation; workspace contract
//   above.
template <class Key>
void radix_sort_keys(double_buffer<Key>& keys, index_t n, const radix_sort_options& options, workspace ws,
                     cudaStream_t stream) {
  detail::radix_sort_double_buffer_dispatch<void, Key, detail::keys_only>(keys, nullptr, n, options, &ws, stream);
}

// radix_sort_pairs (double-buffer style): as radix_sort_keys above, the values following
// their keys; on return both selectors name the buffers that hold the result.
//   values: as keys, and no key buffer may overlap a value buffer. ws: this overload's
//   workspace (radix_sort_double_buffer_workspace_bytes<Key, Value>(n)).
//   Throws: invalid_argument naming "options.*", "n", "keys", "values", their
//   ".current()" / ".alternate()", "keys_in" / "keys_out" / "values_in" / "values_out"
//   (current / alternate buffers in host memory, or a key buffer overlapping a value
//   buffer) or "workspace"; cuda_error.
//   Same output every run. Stream-ordered, no host synchronisation; workspace contract
//   above.
template <class Key, class Value>
void radix_sort_pairs(double_buffer<Key>& keys, double_buffer<Value>& values, index_t n,
                      const radix_sort_options& options, workspace ws, cudaStream_t stream) {
  detail::radix_sort_double_buffer_dispatch(keys, &values, n, options, &ws, stream);
}

// --- simple style ---
// The simple style of each sort: as above, without ws; options default to ascending
// over every bit, stream to the legacy default stream; scratch from cudaMallocAsync on
// `stream`, freed the same way. Throws as above, without "workspace".
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

// --- the sorting permutation ---
// radix_sort_permutation: permutation[i] = the index in keys of the key at sorted
// position i (stable, so equal keys keep their input order); keys are left unchanged.
//   keys: n keys, device or managed memory. permutation: n Index values, device or
//   managed memory, not overlapping keys; Index a 4- or 8-byte integer type (checked at
//   compile time) that holds n - 1. n, options, stream: see the contract above.
//   Throws: invalid_argument naming "options.*", "n", "keys" or "permutation" (also for
//   an Index too small for n); cuda_error.
//   Same output every run. Stream-ordered, no host synchronisation. Simple style only:
//   allocates its scratch (sorted keys, the identity permutation and a pair sort's
//   workspace) with cudaMallocAsync on `stream` and frees it the same way.
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
