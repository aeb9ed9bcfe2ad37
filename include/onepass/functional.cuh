// onepass/functional.cuh — the binary operators onepass names, and equal_to (unique's default).
//
// Any associative functor `T op(T, T)` callable on the device works with every scan and
// with onepass::reduce; it need not be commutative. These are the common ones.
//
// is_commutative<Op> says whether op(a, b) == op(b, a) for every a, b. Reductions use it
// to pick a faster order of combination (onepass::reduce) or to refuse an operator whose
// result would depend on the order atomics happen to run in (the atomic rungs of the
// reduce ladder). It is true for plus, maximum and minimum; specialise it for your own
// commutative functor.
#pragma once

#include "onepass/detail/config.cuh"

namespace onepass {

// plus: a + b. Commutative.
struct plus {
  template <class T>
  ONEPASS_HD ONEPASS_FORCEINLINE T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

// maximum: the larger of a and b (b where a < b, else a). Commutative.
struct maximum {
  template <class T>
  ONEPASS_HD ONEPASS_FORCEINLINE T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

// minimum: the smaller of a and b (b where b < a, else a). Commutative.
struct minimum {
  template <class T>
  ONEPASS_HD ONEPASS_FORCEINLINE T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};

// equal_to: a == b; the default equality of onepass::unique and of the scans by key.
struct equal_to {
  template <class T>
  ONEPASS_HD ONEPASS_FORCEINLINE bool operator()(const T& a, const T& b) const {
    return a == b;
  }
};

// is_commutative<Op>: false unless specialised (true for plus, maximum and minimum).
template <class Op>
struct is_commutative {
  static constexpr bool value = false;
};
template <>
struct is_commutative<plus> {
  static constexpr bool value = true;
};
template <>
struct is_commutative<maximum> {
  static constexpr bool value = true;
};
template <>
struct is_commutative<minimum> {
  static constexpr bool value = true;
};
template <class Op>
inline constexpr bool is_commutative_v = is_commutative<Op>::value;

}  // namespace onepass
