// The CPU side of every radix sort check: the key distributions the tests and
// onepass-bench draw, and the reference sort. No GoogleTest and no GPU here.
//
// The reference is a stable comparison sort (std::stable_sort) on the digit that the
// sort's options select: (ordered_bits(key, descending) >> begin_bit) masked to
// end_bit - begin_bit bits, with ordered_bits from onepass/detail/radix_key.cuh, so the
// order of keys has one definition for the library and its checks. Being a comparison
// sort, it shares none of a radix sort's machinery (digits, passes, scatter): a radix
// sort that is wrong in either gets caught.
//
//   const auto keys = make_sort_keys<float>(n, key_distribution::specials, seed);
//   const auto perm = reference_radix_sort_order(keys, descending, 4, 20);
//   const auto want = apply_permutation(keys, perm);        // the sorted keys
//   const auto vals = apply_permutation(iota_values<std::uint32_t>(n), perm);  // == perm
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "onepass/detail/radix_key.cuh"
#include "support/histogram_reference.hpp"  // histogram_detail::mix and parallel_for

namespace onepass::test {

// --- the key distributions -------------------------------------------------------------
// random:      uniformly random bit patterns; for float and double the non-finite ones
//              (exponent all ones) are drawn again, so the peers, which place NaN their
//              own way, sort the same keys;
// low_entropy: the AND of three random words (each bit set with probability 1/8), as
//              random otherwise: few distinct digits per pass, long runs of equal digits;
// all_equal:   one random key everywhere (every digit of every pass the same);
// sorted:      random keys in ascending order; reverse: in descending order;
// range16:     keys % 16: sixteen distinct keys 0..15 (for floats 0.0f..15.0f), so every
//              bit above the fourth is the same in every key (a bit range above them
//              sees all keys equal: the stability check);
// specials:    half random, half the edge values: for integers min, max, 0, 1 (and -1
//              for signed); for floats -0.0, +0.0, +-inf, NaNs of both signs with several
//              payloads, denormals, the smallest and largest finite numbers.
enum class key_distribution { random, low_entropy, all_equal, sorted, reverse, range16, specials };
inline constexpr key_distribution all_key_distributions[] = {
    key_distribution::random,  key_distribution::low_entropy, key_distribution::all_equal,
    key_distribution::sorted,  key_distribution::reverse,     key_distribution::range16,
    key_distribution::specials};

inline const char* key_distribution_name(key_distribution d) {
  switch (d) {
    case key_distribution::random: return "random";
    case key_distribution::low_entropy: return "low_entropy";
    case key_distribution::all_equal: return "all_equal";
    case key_distribution::sorted: return "sorted";
    case key_distribution::reverse: return "reverse";
    case key_distribution::range16: return "range16";
    case key_distribution::specials: return "specials";
  }
  return "?";
}

inline key_distribution parse_key_distribution(const std::string& name) {
  for (key_distribution d : all_key_distributions)
    if (name == key_distribution_name(d)) return d;
  throw std::invalid_argument("no key distribution '" + name +
                              "' (random, low_entropy, all_equal, sorted, reverse, range16, specials)");
}

namespace radix_detail {
template <class Key>
using bits_of = typename onepass::detail::radix_key<Key>::bits_type;
}  // namespace radix_detail

// The bit pattern of a key (floats: their IEEE bits).
template <class Key>
radix_detail::bits_of<Key> key_bits(Key k) {
  radix_detail::bits_of<Key> b;
  std::memcpy(&b, &k, sizeof b);
  return b;
}

namespace radix_detail {
template <class Key>
Key key_from_bits(bits_of<Key> b) {
  Key k;
  std::memcpy(&k, &b, sizeof k);
  return k;
}

template <class Key>
bool finite_bits(bits_of<Key> b) {
  if constexpr (std::is_floating_point_v<Key>) {
    return std::isfinite(key_from_bits<Key>(b));
  } else {
    (void)b;
    return true;
  }
}

// The edge values of a key type, for the specials distribution and the tests.
template <class Key>
std::vector<Key> edge_keys() {
  using lim = std::numeric_limits<Key>;
  if constexpr (std::is_floating_point_v<Key>) {
    using B = bits_of<Key>;
    constexpr int width = 8 * static_cast<int>(sizeof(Key));
    constexpr B sign = B{1} << (width - 1);
    const B quiet_nan = key_bits(lim::quiet_NaN());
    return {Key(-0.0), Key(0.0), lim::infinity(), -lim::infinity(),
            key_from_bits<Key>(quiet_nan), key_from_bits<Key>(quiet_nan | sign),
            key_from_bits<Key>(quiet_nan | 1),                  // another payload
            key_from_bits<Key>((quiet_nan | 5) | sign),         // negative, another payload
            key_from_bits<Key>(key_bits(lim::infinity()) | 1),  // a signalling NaN
            lim::denorm_min(), -lim::denorm_min(), key_from_bits<Key>(key_bits(lim::min()) - 1),  // largest denormal
            lim::min(), -lim::min(), lim::max(), lim::lowest(), Key(1), Key(-1)};
  } else if constexpr (std::is_signed_v<Key>) {
    return {lim::min(), lim::max(), Key(0), Key(1), Key(-1), Key(lim::min() + 1), Key(lim::max() - 1)};
  } else {
    return {lim::min(), lim::max(), Key(0), Key(1), Key(lim::max() - 1)};
  }
}
}  // namespace radix_detail

// How a sort orders -0.0 and +0.0. onepass: as distinct keys, -0.0 first (radix_key.cuh).
// CUB's DeviceRadixSort makes them one key before taking digits (its
// BaseDigitExtractor::ProcessFloatMinusZero), whose digits are +0.0's, or -0.0's in its
// descending onesweep path. With every bit compared that is only a tie (the two zeros
// keep their input order); with a bit range, the zeros' digits are the chosen zero's.
enum class signed_zeros { distinct, as_positive_zero, as_negative_zero };

// perm[j] = the input index of the item that a stable sort of `keys` puts at position j
// (defined below; the distributions use it for sorted and reverse).
template <class Key>
std::vector<std::uint64_t> reference_radix_sort_order(const std::vector<Key>& keys, bool descending,
                                                      int begin_bit = 0, int end_bit = -1,
                                                      signed_zeros zeros = signed_zeros::distinct);

template <class T>
std::vector<T> apply_permutation(const std::vector<T>& items, const std::vector<std::uint64_t>& perm) {
  std::vector<T> out(perm.size());
  histogram_detail::parallel_for(static_cast<long long>(perm.size()), [&](long long begin, long long end) {
    for (long long j = begin; j < end; ++j)
      out[static_cast<std::size_t>(j)] = items[static_cast<std::size_t>(perm[static_cast<std::size_t>(j)])];
  });
  return out;
}

// n keys of distribution d. Counter-based, so the same seed gives the same keys at any n
// (except sorted and reverse, which are the same multiset in order) and on any number of
// threads.
template <class Key>
std::vector<Key> make_sort_keys(long long n, key_distribution d, std::uint64_t seed) {
  using histogram_detail::mix;
  using B = radix_detail::bits_of<Key>;
  if (n < 0) throw std::invalid_argument("make_sort_keys: n must be >= 0");
  // A random pattern from a counter; non-finite floats are drawn again (a different
  // counter) so `random` holds finite keys only.
  auto word = [seed](std::uint64_t i, int k) {
    return static_cast<B>(mix(seed * 0xD1B54A32D192ED03ull + i * 8 + static_cast<std::uint64_t>(k)));
  };
  auto random_key = [&](std::uint64_t i, bool and3) {
    for (int attempt = 0;; attempt += 3) {
      B b = word(i, attempt);
      if (and3) b &= word(i, attempt + 1) & word(i, attempt + 2);
      if (radix_detail::finite_bits<Key>(b)) return radix_detail::key_from_bits<Key>(b);
    }
  };
  const std::vector<Key> edges = radix_detail::edge_keys<Key>();
  const Key one = random_key(~std::uint64_t{0}, false);
  std::vector<Key> out(static_cast<std::size_t>(n));
  histogram_detail::parallel_for(n, [&](long long begin, long long end) {
    for (long long i = begin; i < end; ++i) {
      const auto u = static_cast<std::uint64_t>(i);
      Key k{};
      switch (d) {
        case key_distribution::random:
        case key_distribution::sorted:
        case key_distribution::reverse: k = random_key(u, false); break;
        case key_distribution::low_entropy: k = random_key(u, true); break;
        case key_distribution::all_equal: k = one; break;
        case key_distribution::range16: k = static_cast<Key>(word(u, 0) % 16); break;
        case key_distribution::specials: {
          const B w = word(u, 1);
          k = (w & 1) ? edges[static_cast<std::size_t>((w >> 1) % edges.size())] : random_key(u, (w & 2) != 0);
          break;
        }
      }
      out[static_cast<std::size_t>(i)] = k;
    }
  });
  if (d == key_distribution::sorted || d == key_distribution::reverse)
    out = apply_permutation(out, reference_radix_sort_order(out, d == key_distribution::reverse));
  return out;
}

// 0, 1, ..., n - 1 as Value: the values that show where each key came from (stability).
template <class Value>
std::vector<Value> iota_values(long long n) {
  std::vector<Value> v(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<Value>(i);
  return v;
}

// --- the reference --------------------------------------------------------------------

// The keys' digits under the options: (ordered_bits >> begin_bit) masked to
// end_bit - begin_bit bits (end_bit -1: the key's width). begin_bit == end_bit compares
// nothing: every key is equal and the input order is kept.
template <class Key>
std::vector<radix_detail::bits_of<Key>> reference_radix_digits(const std::vector<Key>& keys, bool descending,
                                                               int begin_bit, int end_bit,
                                                               signed_zeros zeros = signed_zeros::distinct) {
  using B = radix_detail::bits_of<Key>;
  constexpr int width = onepass::detail::radix_key<Key>::bits;
  if (end_bit == -1) end_bit = width;
  if (begin_bit < 0 || end_bit < begin_bit || end_bit > width)
    throw std::invalid_argument("reference_radix_digits: bit range outside [0, key width]");
  const int bits = end_bit - begin_bit;
  const B mask = bits == width ? ~B{0} : (B{1} << bits) - 1;  // (a shift by the width is undefined)
  std::vector<B> digits(keys.size());
  histogram_detail::parallel_for(static_cast<long long>(keys.size()), [&](long long begin, long long end) {
    for (long long i = begin; i < end; ++i) {
      Key k = keys[static_cast<std::size_t>(i)];
      if constexpr (std::is_floating_point_v<Key>) {
        if (zeros != signed_zeros::distinct && k == Key(0))
          k = zeros == signed_zeros::as_positive_zero ? Key(0.0) : Key(-0.0);
      }
      digits[static_cast<std::size_t>(i)] =
          bits == 0 ? B{0} : (onepass::detail::ordered_bits(k, descending) >> begin_bit) & mask;
    }
  });
  return digits;
}

namespace radix_detail {
template <class B>
struct digit_at {
  B digit;
  std::uint64_t index;
};

// A stable sort of items by digit: chunks sorted by threads, then merged pairwise, left
// chunk first (std::inplace_merge is stable), so equal digits keep their input order.
template <class B>
void stable_sort_by_digit(std::vector<digit_at<B>>& items) {
  const auto by_digit = [](const digit_at<B>& a, const digit_at<B>& b) { return a.digit < b.digit; };
  const std::size_t n = items.size();
  const std::size_t chunks =
      n < (1u << 18) ? 1 : std::max<std::size_t>(1, std::min<std::size_t>(16, std::thread::hardware_concurrency()));
  std::vector<std::size_t> bounds;
  for (std::size_t c = 0; c <= chunks; ++c) bounds.push_back(n * c / chunks);
  std::vector<std::thread> threads;
  for (std::size_t c = 0; c < chunks; ++c)
    threads.emplace_back([&, c] { std::stable_sort(items.begin() + bounds[c], items.begin() + bounds[c + 1], by_digit); });
  for (auto& t : threads) t.join();
  for (std::size_t step = 1; step < chunks; step *= 2) {
    threads.clear();
    for (std::size_t c = 0; c + step < chunks; c += 2 * step) {
      const std::size_t first = bounds[c], middle = bounds[c + step], last = bounds[std::min(c + 2 * step, chunks)];
      threads.emplace_back([&, first, middle, last] {
        std::inplace_merge(items.begin() + first, items.begin() + middle, items.begin() + last, by_digit);
      });
    }
    for (auto& t : threads) t.join();
  }
}
}  // namespace radix_detail

template <class Key>
std::vector<std::uint64_t> reference_radix_sort_order(const std::vector<Key>& keys, bool descending, int begin_bit,
                                                      int end_bit, signed_zeros zeros) {
  using B = radix_detail::bits_of<Key>;
  const std::vector<B> digits = reference_radix_digits(keys, descending, begin_bit, end_bit, zeros);
  std::vector<radix_detail::digit_at<B>> items(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) items[i] = {digits[i], i};
  radix_detail::stable_sort_by_digit(items);
  std::vector<std::uint64_t> perm(keys.size());
  for (std::size_t j = 0; j < keys.size(); ++j) perm[j] = items[j].index;
  return perm;
}

// The sorted keys (and, with apply_permutation, values) in onepass's order.
template <class Key>
std::vector<Key> reference_radix_sort(const std::vector<Key>& keys, bool descending, int begin_bit = 0,
                                      int end_bit = -1, signed_zeros zeros = signed_zeros::distinct) {
  return apply_permutation(keys, reference_radix_sort_order(keys, descending, begin_bit, end_bit, zeros));
}

}  // namespace onepass::test
