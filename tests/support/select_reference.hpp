// The CPU side of every stream-compaction check (select, unique, partition): the inputs
// the tests and onepass-bench draw, the predicates they use, and the references. No
// GoogleTest and no GPU here; the predicates are host-and-device functors, so the same
// object is handed to the GPU and to the reference.
//
//   const auto in = keep_fraction_values<float>(n, 0.5, seed);   // ~half below the threshold
//   const auto want = reference_select_if(in, select_less_than<float>{});
//   const auto runs = run_length_values<int>(n, 4, seed);        // runs of 4 equal items
//   const auto first_of_each = reference_unique(runs);           // n / 4 items (rounded up)
#pragma once

#include <cstdint>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "onepass/detail/config.cuh"
#include "onepass/functional.cuh"

namespace onepass::test {

// --- the values ------------------------------------------------------------------------
// Every input is drawn from two disjoint intervals split at select_threshold<T>() = R:
//   kept:     [-R, R) for signed and floating-point types, [0, R) for unsigned ones;
//   rejected: [R, 2R).
// R is a quarter of the signed range (half of the unsigned one), so 64-bit items differ in
// their high words and a truncated or half-moved item shows. Floats step by 1/4 (R = 2^20)
// and doubles by 1/256 (R = 2^40): every value is exact, none is -0 or NaN, and equality
// is the bitwise one.
template <class T>
constexpr T select_threshold() {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "select inputs are numbers");
  if constexpr (std::is_same_v<T, float>) {
    return T(1 << 20);
  } else if constexpr (std::is_floating_point_v<T>) {
    return T(1ll << 40);
  } else {
    return static_cast<T>(std::uint64_t{1} << (8 * sizeof(T) - (std::is_signed_v<T> ? 2 : 1)));
  }
}

// "Keep the items below the threshold": the predicate of every select and partition check.
template <class T>
struct select_less_than {
  T threshold = select_threshold<T>();
  ONEPASS_HD bool operator()(const T& x) const { return x < threshold; }
};

// An index-reading predicate: keeps items 0, 3, 6, ... whatever their values.
struct keep_every_third {
  template <class T>
  ONEPASS_HD bool operator()(const T& /*item*/, index_t i) const {
    return i % 3 == 0;
  }
};

// One value from 64 random bits, on the kept (below the threshold) or the rejected side.
template <class T>
T select_value(std::uint64_t bits, bool kept) {
  const T r = select_threshold<T>();
  if constexpr (std::is_floating_point_v<T>) {
    const std::uint64_t steps = std::is_same_v<T, float> ? 4 : 256;  // per unit
    const auto range = static_cast<std::uint64_t>(r) * steps;        // R, in steps
    if (kept) return -r + static_cast<T>(bits % (2 * range)) / static_cast<T>(steps);
    return r + static_cast<T>(bits % range) / static_cast<T>(steps);
  } else {
    using U = std::make_unsigned_t<T>;
    const auto range = static_cast<std::uint64_t>(static_cast<U>(r));
    if (!kept) return static_cast<T>(static_cast<U>(range + bits % range));
    if constexpr (std::is_signed_v<T>)
      return static_cast<T>(static_cast<U>(bits % (2 * range)) - static_cast<U>(range));
    return static_cast<T>(bits % range);
  }
}

// n items, each kept by select_less_than<T> with probability keep_fraction (0 keeps none,
// 1 keeps all); the same seed gives the same items.
template <class T>
std::vector<T> keep_fraction_values(long long n, double keep_fraction, std::uint64_t seed) {
  if (n < 0 || !(keep_fraction >= 0.0 && keep_fraction <= 1.0))
    throw std::invalid_argument("keep_fraction_values: n must be >= 0 and keep_fraction in [0, 1]");
  std::mt19937_64 rng(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // uniform in [0, 1)
    x = select_value<T>(rng(), u < keep_fraction);
  }
  return v;
}

// run_length_values' run length for "random runs": lengths 1 to 1024, short ones most
// often (a length is 1 + a uniform draw below 2^k, k uniform in [0, 10]).
constexpr long long random_runs = 0;

// n items in runs of run_length equal items (the last run cut short at n), each run's value
// different from the one before; values on both sides of the threshold. run_length ==
// random_runs draws each run's length. The same seed gives the same items.
template <class T>
std::vector<T> run_length_values(long long n, long long run_length, std::uint64_t seed) {
  if (n < 0 || run_length < 0) throw std::invalid_argument("run_length_values: n and run_length must be >= 0");
  std::mt19937_64 rng(seed);
  std::vector<T> v;
  v.reserve(static_cast<std::size_t>(n));
  T value{};
  // One draw per statement: the order of a call's arguments is unspecified, and the same
  // seed must give the same items with every compiler.
  auto draw_value = [&rng] {
    const std::uint64_t bits = rng();
    const bool kept = (rng() & 1) != 0;
    return select_value<T>(bits, kept);
  };
  while (static_cast<long long>(v.size()) < n) {
    long long length = run_length;
    if (run_length == random_runs) {
      const unsigned k = static_cast<unsigned>(rng() % 11);
      length = 1 + static_cast<long long>(rng() % (1ull << k));
    }
    T next = draw_value();
    while (!v.empty() && next == value) next = draw_value();
    value = next;
    for (long long k = 0; k < length && static_cast<long long>(v.size()) < n; ++k) v.push_back(value);
  }
  return v;
}

// --- the references --------------------------------------------------------------------
namespace select_detail {
// pred(item, i) where it takes the index (as the library calls it), else pred(item).
template <class Pred, class T>
bool keeps(const Pred& pred, const T& item, long long i) {
  if constexpr (std::is_invocable_v<const Pred&, const T&, index_t>) {
    return static_cast<bool>(pred(item, static_cast<index_t>(i)));
  } else {
    return static_cast<bool>(pred(item));
  }
}
}  // namespace select_detail

// The items of `in` for which pred(item) (or pred(item, i)) holds, in order.
template <class T, class Pred>
std::vector<T> reference_select_if(const std::vector<T>& in, Pred pred) {
  std::vector<T> out;
  for (std::size_t i = 0; i < in.size(); ++i)
    if (select_detail::keeps(pred, in[i], static_cast<long long>(i))) out.push_back(in[i]);
  return out;
}

// The items in[i] whose flags[i] converts to true, in order (flags.size() == in.size()).
template <class T, class Flag>
std::vector<T> reference_select_flagged(const std::vector<T>& in, const std::vector<Flag>& flags) {
  if (flags.size() != in.size()) throw std::invalid_argument("reference_select_flagged: one flag per item");
  std::vector<T> out;
  for (std::size_t i = 0; i < in.size(); ++i)
    if (static_cast<bool>(flags[i])) out.push_back(in[i]);
  return out;
}

// The first item of every run of consecutive items equal under eq(previous, item).
template <class T, class Eq = onepass::equal_to>
std::vector<T> reference_unique(const std::vector<T>& in, Eq eq = {}) {
  std::vector<T> out;
  for (std::size_t i = 0; i < in.size(); ++i)
    if (i == 0 || !static_cast<bool>(eq(in[i - 1], in[i]))) out.push_back(in[i]);
  return out;
}

// Both sides of a stable partition, each in input order.
template <class T>
struct partition_result {
  std::vector<T> selected;
  std::vector<T> rejected;
};

template <class T, class Pred>
partition_result<T> reference_partition(const std::vector<T>& in, Pred pred) {
  partition_result<T> out;
  for (std::size_t i = 0; i < in.size(); ++i)
    (select_detail::keeps(pred, in[i], static_cast<long long>(i)) ? out.selected : out.rejected).push_back(in[i]);
  return out;
}

}  // namespace onepass::test
