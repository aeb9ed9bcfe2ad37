// onepass/ladder/radix_sort/cub.cuh — cub::DeviceRadixSort from the CUDA toolkit, the
// peer, id "cub": SortKeys / SortKeysDescending for keys alone, SortPairs /
// SortPairsDescending for pairs, on the same bit range.
//
// CUB's bit range applies to its own "twiddled" key bits, which for these key types are
// onepass's ordered patterns (detail/radix_key.cuh: sign flipped for integers, sign or
// every bit flipped for floats), so the ranges mean the same thing. One difference: CUB
// makes -0.0 and +0.0 one key before it takes digits (ProcessFloatMinusZero in
// cub/block/radix_rank_sort_operations.cuh), where onepass puts -0.0 first. With every
// bit compared that only keeps the two zeros in input order; with a bit range, both
// zeros take the digits of +0.0 — or of -0.0 in CUB's descending passes that complement
// the keys (its onesweep path). NaNs are left alone, so they sort by their bits as in
// onepass. The ladder test expects exactly this of the cub entry.
//
// CUB's non-DoubleBuffer calls leave the input alone and write the result to keys_out,
// as onepass does, but they need keys_out != keys_in: in place, the input is first
// copied to a buffer in the workspace and sorted from there.
//
// Two entries, because the type of the item count picks CUB's code path: "cub" passes n
// as an int where it fits (CUB's examples do; 32-bit offsets), "cub_64bit_count" always
// as a 64-bit count (what a caller holding a size_t passes). Neither is faster for every
// sort: uint32 keys alone sort faster with the 64-bit count, uint32 pairs slower, uint64
// keys the same (docs/perf/radix_sort.md, "CUB is faster given a 64-bit count"). The bench
// shows both; onepass is compared with the faster.
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>

#include "onepass/ladder/cub_operator.cuh"
#include "onepass/ladder/radix_sort/common.cuh"

namespace onepass::ladder {

template <bool WideCount>
struct cub_radix_sort_with {
  static constexpr const char* id = WideCount ? "cub_64bit_count" : "cub";
  static constexpr const char* summary =
      WideCount ? "cub::DeviceRadixSort::SortKeys / SortPairs given a 64-bit item count (another CUB code path)"
                : "cub::DeviceRadixSort::SortKeys / SortPairs (CUDA toolkit), the peer, given an int item count";

  // n as an int where it fits (or always 64-bit: WideCount), as CUB's count type.
  template <class F>
  static void with_count(index_t n, F&& f) {
    if constexpr (WideCount)
      f(static_cast<long long>(n));
    else
      detail::with_cub_count(n, f);
  }

  // Workspace: [a copy of the keys][of the values, pairs only] (for in place) [CUB's
  // temporary storage] (CUB aligns its own pieces within it).
  template <class T>
  static std::size_t buffer_bytes(index_t n) {
    return detail::round_up_16(static_cast<std::size_t>(n) * sizeof(T));
  }
  template <class Key, class Value>
  static std::size_t copies_bytes(index_t n) {
    return buffer_bytes<Key>(n) + (onepass::detail::has_values<Value> ? buffer_bytes<Value>(n) : 0);
  }

  // One CUB call, or its size query when temp == nullptr: the same function, so the
  // query compiles nothing the call does not.
  template <class Key, class Value, class Count>
  static void call_cub(void* temp, std::size_t& bytes, const Key* keys_in, Key* keys_out, const Value* values_in,
                       Value* values_out, Count n, int begin_bit, int end_bit, bool descending, cudaStream_t stream) {
    using cub::DeviceRadixSort;
    if constexpr (onepass::detail::has_values<Value>) {
      if (descending) {
        ONEPASS_CUDA_TRY(DeviceRadixSort::SortPairsDescending(temp, bytes, keys_in, keys_out, values_in, values_out,
                                                              n, begin_bit, end_bit, stream));
      } else {
        ONEPASS_CUDA_TRY(DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in, values_out, n,
                                                    begin_bit, end_bit, stream));
      }
    } else {
      (void)values_in;
      (void)values_out;
      if (descending) {
        ONEPASS_CUDA_TRY(
            DeviceRadixSort::SortKeysDescending(temp, bytes, keys_in, keys_out, n, begin_bit, end_bit, stream));
      } else {
        ONEPASS_CUDA_TRY(DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, n, begin_bit, end_bit, stream));
      }
    }
  }

  // Sized for every bit range: the full range needs the most passes, hence the most
  // storage. (n items as a CUB user would pass them: an int when it fits.)
  template <class Key, class Value>
  static std::size_t workspace_bytes(index_t n) {
    if (n == 0) return 0;
    constexpr int width = onepass::detail::radix_key<Key>::bits;
    std::size_t ascending = 0, descending = 0;
    with_count(n, [&](auto items) {
      call_cub<Key, Value>(nullptr, ascending, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr),
                           static_cast<const Value*>(nullptr), static_cast<Value*>(nullptr), items, 0, width, false,
                           nullptr);
      call_cub<Key, Value>(nullptr, descending, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr),
                           static_cast<const Value*>(nullptr), static_cast<Value*>(nullptr), items, 0, width, true,
                           nullptr);
    });
    return copies_bytes<Key, Value>(n) + std::max(ascending, descending);
  }

  template <class Key, class Value>
  static void sort_unchecked(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, index_t n,
                             onepass::detail::radix_bit_range bits, bool descending, workspace ws,
                             cudaStream_t stream) {
    auto* base = static_cast<unsigned char*>(ws.data);
    if (keys_in == keys_out) {
      auto* copy = reinterpret_cast<Key*>(base);
      detail::copy_unless_same(keys_in, copy, n, stream);
      keys_in = copy;
    }
    if constexpr (onepass::detail::has_values<Value>) {
      if (values_in == values_out) {
        auto* copy = reinterpret_cast<Value*>(base + buffer_bytes<Key>(n));
        detail::copy_unless_same(values_in, copy, n, stream);
        values_in = copy;
      }
    }
    void* temp = base + copies_bytes<Key, Value>(n);
    std::size_t bytes = ws.bytes - copies_bytes<Key, Value>(n);
    with_count(n, [&](auto items) {
      call_cub<Key, Value>(temp, bytes, keys_in, keys_out, values_in, values_out, items, bits.begin, bits.end,
                           descending, stream);
    });
  }
};

using cub_radix_sort = cub_radix_sort_with<false>;
using cub_radix_sort_64bit_count = cub_radix_sort_with<true>;

}  // namespace onepass::ladder
