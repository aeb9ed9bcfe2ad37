// onepass/ladder/radix_sort/split_1bit.cuh — id "split_1bit": the textbook radix sort,
// one bit at a time, built on scan (Blelloch's "split" primitive).
//
// For each bit of the range, least significant first:
//   1. a kernel writes flags[i] = 1 where key i's bit is 0, else 0 (64-bit, so the
//      positions below cannot overflow);
//   2. the library's exclusive scan turns the flags, in place, into zeros_before[i]: the
//      number of keys with a 0 bit before key i;
//   3. a kernel moves key i (and its value) to zeros_before[i] if its bit is 0, else to
//      total_zeros + (i - zeros_before[i]), i.e. after every 0 and after the 1s before it.
//      It reads the bit again rather than keeping the flags (the scan overwrote them).
// Each step keeps the order of keys with equal bits, so after the last bit the keys are
// sorted on the whole range and equal keys are in input order: stable by construction,
// in either direction, because the bits are those of the ordered patterns
// (detail/radix_key.cuh), complemented for a descending sort.
//
// The cost is the lesson: every bit moves every key, and its 8-byte flag crosses memory
// four times (written; read and written by the scan; read), so a 32-bit key sort makes
// 32 passes of ~40 bytes per key where an 8-bit-digit radix sort makes 4 passes of ~8,
// plus three launches per bit.
//
// Keys and values ping-pong between keys_out/values_out and a buffer in the workspace,
// the passes arranged so that the last one writes keys_out. In place with an odd number
// of bits, the first pass would scatter keys_out onto itself (a thread can overwrite a
// key another thread has not read yet): the input is copied to the buffer first.
#pragma once

#include <climits>

#include "onepass/detail/radix_key.cuh"
#include "onepass/device/dispatch_scan.cuh"
#include "onepass/functional.cuh"
#include "onepass/ladder/radix_sort/common.cuh"

namespace onepass::ladder {
namespace detail {
constexpr int split_1bit_threads = 256;

// One thread per item; past 2^31 - 1 blocks the kernels loop over the rest.
inline unsigned split_1bit_blocks(index_t n) {
  const index_t blocks = (n + split_1bit_threads - 1) / split_1bit_threads;
  return static_cast<unsigned>(blocks < INT_MAX ? blocks : INT_MAX);
}

template <class Key>
__device__ ONEPASS_FORCEINLINE bool split_1bit_is_zero(const Key& key, int bit, bool descending) {
  return ((onepass::detail::ordered_bits(key, descending) >> bit) & 1u) == 0;
}

template <class Key>
__global__ void __launch_bounds__(split_1bit_threads)
    split_1bit_flags(const Key* keys, index_t n, int bit, bool descending, index_t* flags) {
  const index_t stride = static_cast<index_t>(gridDim.x) * split_1bit_threads;
  for (index_t i = static_cast<index_t>(blockIdx.x) * split_1bit_threads + threadIdx.x; i < n; i += stride)
    flags[i] = split_1bit_is_zero(keys[i], bit, descending) ? 1 : 0;
}

template <class Key, class Value>
__global__ void __launch_bounds__(split_1bit_threads)
    split_1bit_scatter(const Key* keys, Key* keys_out, const Value* values, Value* values_out, index_t n, int bit,
                       bool descending, const index_t* zeros_before) {
  // The exclusive scan leaves out the last flag: add it back.
  const index_t total_zeros = zeros_before[n - 1] + (split_1bit_is_zero(keys[n - 1], bit, descending) ? 1 : 0);
  const index_t stride = static_cast<index_t>(gridDim.x) * split_1bit_threads;
  for (index_t i = static_cast<index_t>(blockIdx.x) * split_1bit_threads + threadIdx.x; i < n; i += stride) {
    const Key key = keys[i];
    const index_t before = zeros_before[i];
    const index_t to = split_1bit_is_zero(key, bit, descending) ? before : total_zeros + (i - before);
    keys_out[to] = key;
    if constexpr (onepass::detail::has_values<Value>) values_out[to] = values[i];
  }
}
}  // namespace detail

struct split_1bit {
  static constexpr const char* id = "split_1bit";
  static constexpr const char* summary =
      "one bit per pass: flags, the library's exclusive scan of them, a stable scatter (three steps per bit)";

  // Workspace: [keys buffer: n Key][values buffer: n Value, pairs only][zeros_before: n
  // index_t][the scan's workspace], each piece 16-byte aligned.
  template <class T>
  static std::size_t buffer_bytes(index_t n) {
    return detail::round_up_16(static_cast<std::size_t>(n) * sizeof(T));
  }
  template <class Key, class Value>
  static std::size_t values_bytes(index_t n) {
    return onepass::detail::has_values<Value> ? buffer_bytes<Value>(n) : 0;
  }
  template <class Key, class Value>
  static std::size_t workspace_bytes(index_t n) {
    if (n == 0) return 0;
    return buffer_bytes<Key>(n) + values_bytes<Key, Value>(n) + buffer_bytes<index_t>(n) +
           onepass::detail::scan_plan<index_t>::workspace_bytes(n);
  }

  template <class Key, class Value>
  static void sort_unchecked(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, index_t n,
                             onepass::detail::radix_bit_range bits, bool descending, workspace ws,
                             cudaStream_t stream) {
    constexpr bool pairs = onepass::detail::has_values<Value>;
    const int passes = bits.bits();
    if (passes == 0 || n == 0) {  // nothing compared: the input order is the answer
      detail::copy_unless_same(keys_in, keys_out, n, stream);
      if constexpr (pairs) detail::copy_unless_same(values_in, values_out, n, stream);
      return;
    }
    auto* base = static_cast<unsigned char*>(ws.data);
    Key* keys_buffer = reinterpret_cast<Key*>(base);
    base += buffer_bytes<Key>(n);
    Value* values_buffer = pairs ? reinterpret_cast<Value*>(base) : nullptr;
    base += values_bytes<Key, Value>(n);
    auto* zeros_before = reinterpret_cast<index_t*>(base);
    base += buffer_bytes<index_t>(n);
    const workspace scan_ws{base, ws.bytes - static_cast<std::size_t>(base - static_cast<unsigned char*>(ws.data))};

    // Pass p writes keys_out when passes - 1 - p is even: the last pass does.
    const bool first_writes_out = (passes - 1) % 2 == 0;
    const Key* keys_src = keys_in;
    const Value* values_src = values_in;
    if (first_writes_out && keys_in == keys_out) {
      detail::copy_unless_same(keys_in, keys_buffer, n, stream);
      keys_src = keys_buffer;
    }
    if constexpr (pairs) {
      if (first_writes_out && values_in == values_out) {
        detail::copy_unless_same(values_in, values_buffer, n, stream);
        values_src = values_buffer;
      }
    }
    const unsigned blocks = detail::split_1bit_blocks(n);
    for (int p = 0; p < passes; ++p) {
      const bool to_out = (passes - 1 - p) % 2 == 0;
      Key* keys_dst = to_out ? keys_out : keys_buffer;
      Value* values_dst = to_out ? values_out : values_buffer;
      const int bit = bits.begin + p;
      onepass::detail::launch(detail::split_1bit_flags<Key>, blocks, detail::split_1bit_threads, 0, stream, keys_src,
                              n, bit, descending, zeros_before);
      onepass::detail::scan_launch</*Exclusive=*/true>(static_cast<const index_t*>(zeros_before), n, zeros_before,
                                                       index_t{0}, plus{}, scan_ws, stream);
      onepass::detail::launch(detail::split_1bit_scatter<Key, Value>, blocks, detail::split_1bit_threads, 0, stream,
                              keys_src, keys_dst, values_src, values_dst, n, bit, descending,
                              static_cast<const index_t*>(zeros_before));
      keys_src = keys_dst;
      values_src = values_dst;
    }
  }
};

}  // namespace onepass::ladder
