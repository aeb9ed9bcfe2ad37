// onepass/detail/maybe.cuh — a value that may be absent, and an operator over it.
//
// Reductions here take no identity element: a thread, warp or block that received no
// item has nothing to contribute, and "nothing" must vanish under the operator without
// being a value of T. maybe_op(op) extends any associative op to maybe<T> with the empty
// value as its identity; it stays associative, and commutative when op is.
#pragma once

#include "onepass/detail/config.cuh"

namespace onepass::detail {

template <class T>
struct maybe {
  T value;
  bool valid;
};

template <class T>
ONEPASS_HD ONEPASS_FORCEINLINE maybe<T> nothing() {
  return {T{}, false};  // value-initialised: no uninitialised bytes reach memory
}

template <class Op>
struct maybe_op {
  Op op;
  template <class T>
  ONEPASS_HD ONEPASS_FORCEINLINE maybe<T> operator()(const maybe<T>& a, const maybe<T>& b) const {
    if (!a.valid) return b;
    if (!b.valid) return a;
    return {op(a.value, b.value), true};
  }
};

}  // namespace onepass::detail
