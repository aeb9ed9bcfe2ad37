// onepass/detail/atomic.cuh — `*address = op(*address, value)` as one atomic step, for the
// atomic rungs of the reduce ladder.
//
// plus, maximum and minimum map to the hardware's atomicAdd / atomicMax / atomicMin where
// one exists for the type (int64 adds through the unsigned 64-bit instruction: two's
// complement addition is the same bit operation). Everything else — float and double
// max/min, any other operator — is a compare-and-swap loop on the value's bits, so T must
// be 4 or 8 bytes. Works on global and shared memory alike.
#pragma once

#include <cstring>
#include <type_traits>

#include "onepass/functional.cuh"

namespace onepass::detail {

template <class T>
inline constexpr bool atomic_sized = sizeof(T) == 4 || sizeof(T) == 8;

#if defined(__CUDACC__)
template <class T, class Op>
__device__ ONEPASS_FORCEINLINE void atomic_combine_cas(T* address, T value, Op op) {
  static_assert(atomic_sized<T> && std::is_trivially_copyable_v<T>,
                "atomic reduction needs a 4- or 8-byte trivially copyable type");
  using word = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;
  word* w = reinterpret_cast<word*>(address);
  word seen = *reinterpret_cast<volatile word*>(w);
  for (;;) {
    T current;
    std::memcpy(&current, &seen, sizeof(T));
    const T next = op(current, value);
    word desired;
    std::memcpy(&desired, &next, sizeof(T));
    const word before = atomicCAS(w, seen, desired);
    if (before == seen) return;
    seen = before;
  }
}

template <class T, class Op>
__device__ ONEPASS_FORCEINLINE void atomic_combine(T* address, T value, Op op) {
  constexpr bool native_int = std::is_same_v<T, int> || std::is_same_v<T, unsigned> ||
                              std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long>;
  if constexpr (std::is_same_v<Op, plus> && std::is_same_v<T, long long>) {
    atomicAdd(reinterpret_cast<unsigned long long*>(address), static_cast<unsigned long long>(value));
  } else if constexpr (std::is_same_v<Op, plus> && (native_int || std::is_same_v<T, float> ||
                                                    std::is_same_v<T, double>)) {
    atomicAdd(address, value);
  } else if constexpr (std::is_same_v<Op, maximum> && native_int) {
    atomicMax(address, value);
  } else if constexpr (std::is_same_v<Op, minimum> && native_int) {
    atomicMin(address, value);
  } else {
    atomic_combine_cas(address, value, op);
  }
}
#endif

}  // namespace onepass::detail
