// onepass/functional.cuh — the binary operators onepass names.
//
// Any associative functor `T op(T, T)` callable on the device works with every scan and
// reduction; it need not be commutative. These are the common ones.
#pragma once

#include "onepass/detail/config.cuh"

namespace onepass {

struct plus {
  template <class T>
  ONEPASS_HD ONEPASS_FORCEINLINE T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

struct maximum {
  template <class T>
  ONEPASS_HD ONEPASS_FORCEINLINE T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

struct minimum {
  template <class T>
  ONEPASS_HD ONEPASS_FORCEINLINE T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};

}  // namespace onepass
