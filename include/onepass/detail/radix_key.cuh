// onepass/detail/radix_key.cuh — keys as unsigned bit patterns whose unsigned order is
// the keys' order, for every radix sort in onepass (production, ladder, CPU reference).
//
//   unsigned integers: the bits themselves;
//   signed integers:   the sign bit flipped (negative numbers below non-negative ones);
//   floating point:    negative numbers (sign bit set) have every bit flipped, the others
//                      only the sign bit: so -inf < ... < -0.0 < +0.0 < ... < +inf, and
//                      NaNs sort by their bits: those with the sign bit clear after +inf,
//                      those with it set before -inf. -0.0 and +0.0 are distinct keys
//                      (-0.0 first), as every IEEE bit-pattern radix sort does.
// A descending sort sorts the complemented bits ascending, which keeps equal keys in
// input order (stable) in both directions. A bit range [begin_bit, end_bit) selects bits
// of these ordered patterns, not of the keys' own representation.
//
// Host and device code: the CPU reference and the host-side checks use it too.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "onepass/detail/config.cuh"

namespace onepass::detail {

template <class Key, class = void>
struct radix_key {
  static constexpr bool supported = false;
};

template <class Key>
struct radix_key<Key, std::enable_if_t<std::is_integral_v<Key> && !std::is_same_v<Key, bool> &&
                                       (sizeof(Key) == 4 || sizeof(Key) == 8)>> {
  static constexpr bool supported = true;
  using bits_type = std::conditional_t<sizeof(Key) == 4, std::uint32_t, std::uint64_t>;
  static constexpr int bits = 8 * static_cast<int>(sizeof(Key));
  static constexpr bits_type sign = bits_type{1} << (bits - 1);

  ONEPASS_HD ONEPASS_FORCEINLINE static bits_type to_ordered(Key k) {
    const auto b = static_cast<bits_type>(k);
    return std::is_signed_v<Key> ? b ^ sign : b;
  }
  ONEPASS_HD ONEPASS_FORCEINLINE static Key from_ordered(bits_type b) {
    return static_cast<Key>(std::is_signed_v<Key> ? b ^ sign : b);
  }
};

template <class Key>
struct radix_key<Key, std::enable_if_t<std::is_floating_point_v<Key> && (sizeof(Key) == 4 || sizeof(Key) == 8)>> {
  static constexpr bool supported = true;
  using bits_type = std::conditional_t<sizeof(Key) == 4, std::uint32_t, std::uint64_t>;
  static constexpr int bits = 8 * static_cast<int>(sizeof(Key));
  static constexpr bits_type sign = bits_type{1} << (bits - 1);

  ONEPASS_HD ONEPASS_FORCEINLINE static bits_type to_ordered(Key k) {
    bits_type b;
    std::memcpy(&b, &k, sizeof b);
    return (b & sign) ? ~b : b ^ sign;
  }
  ONEPASS_HD ONEPASS_FORCEINLINE static Key from_ordered(bits_type b) {
    b = (b & sign) ? b ^ sign : ~b;
    Key k;
    std::memcpy(&k, &b, sizeof k);
    return k;
  }
};

// The ordered pattern of `k` for an ascending (descending == false) or descending sort.
template <class Key>
ONEPASS_HD ONEPASS_FORCEINLINE typename radix_key<Key>::bits_type ordered_bits(Key k, bool descending) {
  const auto b = radix_key<Key>::to_ordered(k);
  return descending ? ~b : b;
}

template <class Key>
ONEPASS_HD ONEPASS_FORCEINLINE Key key_from_ordered_bits(typename radix_key<Key>::bits_type b, bool descending) {
  return radix_key<Key>::from_ordered(descending ? ~b : b);
}

// The digit of ordered bits `b` at [shift, shift + digit_bits), digit_bits < 32.
template <class Bits>
ONEPASS_HD ONEPASS_FORCEINLINE unsigned radix_digit(Bits b, int shift, int digit_bits) {
  return static_cast<unsigned>(b >> shift) & ((1u << digit_bits) - 1u);
}

}  // namespace onepass::detail
