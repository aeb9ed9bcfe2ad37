// The CPU side of every check: the non-commutative test operator, random inputs whose
// exact answer is the only right one, the CPU reference scan, and exact comparison.
// No GoogleTest and no GPU here, so onepass-bench uses the same reference as the tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "onepass/functional.cuh"

namespace onepass::test {

// --- the non-commutative test operator -------------------------------------------------
// An affine map x -> a*x + b over the integers mod 2^32. Composition is associative and
// not commutative, exact in any grouping, and with odd `a` the maps never collapse to a
// constant, so any reordering of operands shows up in the result.
struct affine {
  std::uint32_t a, b;
  friend bool operator==(const affine& x, const affine& y) { return x.a == y.a && x.b == y.b; }
  friend std::ostream& operator<<(std::ostream& os, const affine& x) {
    return os << "{" << x.a << "," << x.b << "}";
  }
};
// compose(f, g) = "f, then g": g(f(x)) = g.a*(f.a*x + f.b) + g.b.
struct compose {
  ONEPASS_HD affine operator()(const affine& f, const affine& g) const {
    return {g.a * f.a, g.a * f.b + g.b};
  }
};

// --- random inputs ---------------------------------------------------------------------
// Chosen so that the exact answer is the only right answer (all comparisons are exact):
//  * unsigned integers: full range; sums wrap mod 2^k, which is exact in any order;
//  * int32 in [-1000, 1000], int64 in [-2^40, 2^40]: no partial sum of up to 2^31 items
//    can overflow in practice (a random walk of 2^25 steps stays ~1e3x below the limits);
//  * float / double: multiples of 1/256 in [-4, 4]. Every partial sum of a contiguous
//    range is a multiple of 2^-8; while its magnitude stays below 2^15 it needs at most
//    23 significant bits, so float (24) and double (53) represent it exactly and every
//    summation order gives identical bits. The random walk of 2^24 such steps has a
//    standard deviation of ~9.5e3 < 2^15 (the test asserts the bound on its data).
//    Hence the tolerance for floats is zero — any difference is a real error.
template <class T>
T random_value(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<T, affine>) {
    return {static_cast<std::uint32_t>(rng()) | 1u, static_cast<std::uint32_t>(rng())};
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(static_cast<int>(rng() % 2049) - 1024) / static_cast<T>(256);
  } else if constexpr (std::is_unsigned_v<T>) {
    return static_cast<T>(rng());
  } else if constexpr (sizeof(T) == 4) {
    return static_cast<T>(static_cast<long long>(rng() % 2001) - 1000);
  } else {
    return static_cast<T>(static_cast<long long>(rng() % ((1ull << 41) + 1)) - (1ll << 40));
  }
}

template <class T>
std::vector<T> random_vector(long long n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = random_value<T>(rng);
  return v;
}

// --- the CPU reference -----------------------------------------------------------------
enum class kind { inclusive, exclusive };
inline const char* kind_name(kind k) { return k == kind::inclusive ? "inclusive" : "exclusive"; }

template <class T, class Op>
std::vector<T> reference_scan(const std::vector<T>& in, kind k, T init, Op op) {
  std::vector<T> out(in.size());
  if (in.empty()) return out;
  if (k == kind::inclusive) {
    T acc = in[0];
    out[0] = acc;
    for (std::size_t i = 1; i < in.size(); ++i) out[i] = acc = op(acc, in[i]);
  } else {
    T acc = init;
    for (std::size_t i = 0; i < in.size(); ++i) {
      out[i] = acc;
      acc = op(acc, in[i]);
    }
  }
  return out;
}

// Float inputs must keep every partial sum below 2^15 for exact comparison (see above).
template <class T>
bool exactly_representable_sums(const std::vector<T>& in) {
  if constexpr (std::is_floating_point_v<T>) {
    double s = 0, lo = 0, hi = 0;
    for (const T& x : in) {
      s += static_cast<double>(x);
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
    return hi - lo < 32768.0;  // any contiguous range sum is a difference of two prefixes
  }
  return true;
}

// --- reductions --------------------------------------------------------------------
// A reduction's variants combine in their own order — thread-major, block by block, or
// in whatever order atomics happen to land — so a partial result is the combination of
// some subset of the items, not of a contiguous range as in a scan. The inputs are chosen
// so that every subset sum is exact too, and integer results are exact in any order:
//  * floats and doubles are k/256 with k in [-16, 16]: a subset sum is a multiple of 2^-8
//    and is exact in float while below 2^16 in magnitude. That is guaranteed while
//    sum |x| < 2^16, i.e. up to ~2 million items (E|k| = 8.2); beyond, a subset sum is a
//    random walk with a standard deviation of 0.037 * sqrt(items): ~150 at 2^24 items,
//    ~1200 at 2^30, hundreds of standard deviations below 2^16. So comparisons are exact
//    and any difference is a real error (a lost, doubled or misplaced item);
//  * integers as for scans (random_value): unsigned sums wrap exactly; signed partial
//    sums stay far from overflow.
template <class T>
T random_reduce_value(std::mt19937_64& rng) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(static_cast<int>(rng() % 33) - 16) / static_cast<T>(256);
  } else {
    return random_value<T>(rng);
  }
}

template <class T>
std::vector<T> random_reduce_vector(long long n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = random_reduce_value<T>(rng);
  return v;
}

// init op in[0] op ... op in[n-1], in element order.
template <class T, class Op>
T reference_reduce(const std::vector<T>& in, T init, Op op) {
  T acc = init;
  for (const T& x : in) acc = op(acc, x);
  return acc;
}

// Returns "" when equal, else a description of the first difference.
template <class T>
std::string first_difference(const std::vector<T>& expected, const std::vector<T>& actual) {
  if (expected.size() != actual.size())
    return "size " + std::to_string(actual.size()) + " != " + std::to_string(expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (std::memcmp(&expected[i], &actual[i], sizeof(T)) != 0) {
      std::ostringstream os;
      os << "first difference at index " << i << " of " << expected.size() << ": expected "
         << expected[i] << ", got " << actual[i];
      return os.str();
    }
  }
  return "";
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, int>) return "int32";
  else if constexpr (std::is_same_v<T, unsigned>) return "uint32";
  else if constexpr (std::is_same_v<T, long long>) return "int64";
  else if constexpr (std::is_same_v<T, unsigned long long>) return "uint64";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, affine>) return "affine";
  else return "?";
}

}  // namespace onepass::test
