// onepass/detail/shuffle.cuh — warp shuffles for any trivially copyable type.
//
// __shfl_*_sync move 32-bit words; a wider or structured T is moved word by word.
#pragma once

#include <cstring>
#include <type_traits>

#include "onepass/detail/config.cuh"

namespace onepass::detail {

constexpr int warp_threads = 32;
constexpr unsigned full_warp_mask = 0xffffffffu;

template <class T>
constexpr int shuffle_words = static_cast<int>((sizeof(T) + 3) / 4);

#if defined(__CUDACC__)
// Applies `shfl(word)` to each 32-bit word of `value`.
template <class T, class Shfl>
__device__ ONEPASS_FORCEINLINE T shuffle_words_of(const T& value, Shfl shfl) {
  static_assert(std::is_trivially_copyable_v<T>, "shuffled types must be trivially copyable");
  if constexpr (sizeof(T) == 4 && std::is_arithmetic_v<T>) {
    return shfl(value);  // the intrinsics take int/unsigned/float natively
  } else {
    unsigned words[shuffle_words<T>] = {};
    std::memcpy(words, &value, sizeof(T));
#pragma unroll
    for (int i = 0; i < shuffle_words<T>; ++i) words[i] = shfl(words[i]);
    T result;
    std::memcpy(&result, words, sizeof(T));
    return result;
  }
}

template <class T>
__device__ ONEPASS_FORCEINLINE T shfl_up(const T& v, int delta, unsigned mask = full_warp_mask) {
  return shuffle_words_of(v, [&](auto w) { return __shfl_up_sync(mask, w, delta); });
}
template <class T>
__device__ ONEPASS_FORCEINLINE T shfl_down(const T& v, int delta, unsigned mask = full_warp_mask) {
  return shuffle_words_of(v, [&](auto w) { return __shfl_down_sync(mask, w, delta); });
}
template <class T>
__device__ ONEPASS_FORCEINLINE T shfl_xor(const T& v, int lane_mask, unsigned mask = full_warp_mask) {
  return shuffle_words_of(v, [&](auto w) { return __shfl_xor_sync(mask, w, lane_mask); });
}
template <class T>
__device__ ONEPASS_FORCEINLINE T shfl_idx(const T& v, int src_lane, unsigned mask = full_warp_mask) {
  return shuffle_words_of(v, [&](auto w) { return __shfl_sync(mask, w, src_lane); });
}

__device__ ONEPASS_FORCEINLINE int lane_id() { return static_cast<int>(threadIdx.x) & 31; }
__device__ ONEPASS_FORCEINLINE int warp_id() { return static_cast<int>(threadIdx.x) >> 5; }
#endif

}  // namespace onepass::detail
