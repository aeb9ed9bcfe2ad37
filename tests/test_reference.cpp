// The CPU reference that every GPU path is checked against, checked by hand-worked cases,
// and the random-input generators' promises (ranges, exactness bound).
#include <climits>

#include "support/histogram_reference.hpp"
#include "support/radix_sort_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

TEST(Reference, InclusiveAndExclusiveSum) {
  const std::vector<int> in = {3, 1, 4, 1, 5, 9, 2, 6};
  EXPECT_EQ(reference_scan(in, kind::inclusive, 0, onepass::plus{}), (std::vector<int>{3, 4, 8, 9, 14, 23, 25, 31}));
  EXPECT_EQ(reference_scan(in, kind::exclusive, 10, onepass::plus{}), (std::vector<int>{10, 13, 14, 18, 19, 24, 33, 35}));
  EXPECT_EQ(reference_scan(in, kind::inclusive, 0, onepass::maximum{}), (std::vector<int>{3, 3, 4, 4, 5, 9, 9, 9}));
  EXPECT_EQ(reference_scan(std::vector<int>{}, kind::inclusive, 0, onepass::plus{}).size(), 0u);
}

TEST(Reference, AffineCompositionIsOrderedAndNotCommutative) {
  const affine f{3, 1}, g{5, 4};  // f(x) = 3x + 1, g(x) = 5x + 4
  EXPECT_EQ(compose{}(f, g), (affine{15, 9}));   // f, then g: 5(3x + 1) + 4
  EXPECT_EQ(compose{}(g, f), (affine{15, 13}));  // g, then f: 3(5x + 4) + 1
  const affine h{7, 3};
  EXPECT_EQ(compose{}(compose{}(f, g), h), compose{}(f, compose{}(g, h)));  // associative
  const std::vector<affine> in = {f, g, h};
  const auto incl = reference_scan(in, kind::inclusive, affine{1, 0}, compose{});
  EXPECT_EQ(incl[2], compose{}(compose{}(f, g), h));
}

TEST(Reference, RandomInputsKeepTheirPromises) {
  const auto ints = random_vector<int>(100000, 1);
  for (int x : ints) ASSERT_TRUE(x >= -1000 && x <= 1000);
  const auto floats = random_vector<float>(1 << 20, 2);
  for (float x : floats) ASSERT_EQ(x * 256.0f, static_cast<float>(static_cast<int>(x * 256.0f)));
  EXPECT_TRUE(exactly_representable_sums(floats));
  const std::vector<float> drifting(70000, 1.0f);  // prefix reaches 70000 > 2^15
  EXPECT_FALSE(exactly_representable_sums(drifting));
  for (const affine& a : random_vector<affine>(1000, 3)) ASSERT_EQ(a.a % 2, 1u);
}

TEST(Reference, FirstDifferenceReportsIndexAndValues) {
  EXPECT_EQ(first_difference(std::vector<int>{1, 2, 3}, std::vector<int>{1, 2, 3}), "");
  EXPECT_EQ(first_difference(std::vector<int>{1, 2, 3}, std::vector<int>{1, 5, 3}),
            "first difference at index 1 of 3: expected 2, got 5");
}

// --- the histogram reference and its sample distributions ------------------------------
TEST(HistogramReference, EvenBinsByHand) {
  // Width 10: two values in each bin; 30 and 255 are past the upper level.
  const std::vector<std::uint8_t> bytes = {0, 9, 10, 19, 20, 29, 30, 255};
  EXPECT_EQ(reference_histogram_even(bytes, 3, 0ll, 30ll), (std::vector<std::uint64_t>{2, 2, 2}));
  // Width 10/3: bin = floor(s * 3 / 10).
  const std::vector<std::uint8_t> thirds = {0, 3, 4, 6, 7, 9, 10};
  EXPECT_EQ(reference_histogram_even(thirds, 3, 0ll, 10ll), (std::vector<std::uint64_t>{2, 2, 2}));
  // A negative lower level, width 3: -7 -> 0, -1 -> 2, 0 -> 2 (7 * 4 / 12); 5 is out.
  const std::vector<int> ints = {-8, -7, -1, 0, 5};
  EXPECT_EQ(reference_histogram_even(ints, 4, -7ll, 5ll), (std::vector<std::uint64_t>{1, 0, 2, 0}));
  // Levels wider than the type: 4 bins of 128 over [-256, 256).
  EXPECT_EQ(reference_histogram_even(std::vector<std::int8_t>{-128, -1, 0, 127}, 4, -256ll, 256ll),
            (std::vector<std::uint64_t>{0, 2, 2, 0}));
  // Floats: NaN, infinities and the upper level are not counted.
  const std::vector<float> floats = {0.0f, 0.25f, 0.5f, 0.75f, 0.999f, 1.0f, NAN, INFINITY, -INFINITY, -0.0f};
  EXPECT_EQ(reference_histogram_even(floats, 4, 0.0f, 1.0f), (std::vector<std::uint64_t>{2, 1, 1, 2}));
  EXPECT_EQ(reference_even_bin(std::nextafter(1.0f, 0.0f), 10, 0.0f, 1.0f), 9);
  EXPECT_EQ(reference_even_bin(2u, 1, 0ll, 1ll << 32), 0);
  EXPECT_EQ(reference_even_bin(4294967295u, 2, 0ll, 1ll << 32), 1);
}

TEST(HistogramReference, RangeBinsByHand) {
  // [0,2) [2,3) [3,10) [10,50): -5 and 100 are out, each boundary opens its bin.
  const std::vector<int> ints = {-5, 0, 1, 2, 3, 9, 10, 11, 49, 50, 100};
  EXPECT_EQ(reference_histogram_range(ints, std::vector<long long>{0, 2, 3, 10, 50}),
            (std::vector<std::uint64_t>{2, 1, 2, 3}));
  const std::vector<float> floats = {0.5f, NAN, 1.0f, 1.5f, 2.0f, -INFINITY, INFINITY, 0.4999f};
  EXPECT_EQ(reference_histogram_range(floats, std::vector<float>{0.5f, 1.0f, 2.0f}), (std::vector<std::uint64_t>{1, 2}));
  // One bin; levels beyond the sample type.
  EXPECT_EQ(reference_histogram_range(std::vector<std::uint8_t>{0, 128, 255}, std::vector<long long>{-1000, 1000}),
            (std::vector<std::uint64_t>{3}));
}

TEST(HistogramReference, NaturalLevels) {
  EXPECT_EQ(natural_levels<std::uint8_t>(), (std::pair<double, double>{0.0, 256.0}));
  EXPECT_EQ(natural_levels<std::int8_t>(), (std::pair<double, double>{-128.0, 128.0}));
  EXPECT_EQ(natural_levels<std::uint16_t>(), (std::pair<double, double>{0.0, 65536.0}));
  EXPECT_EQ(natural_levels<int>(), (std::pair<double, double>{-2147483648.0, 2147483648.0}));
  EXPECT_EQ(natural_levels<unsigned>(), (std::pair<double, double>{0.0, 4294967296.0}));
  EXPECT_EQ(natural_levels<float>(), (std::pair<double, double>{0.0, 1.0}));
}

TEST(HistogramSamples, DistributionNames) {
  for (distribution d : all_distributions) EXPECT_EQ(parse_distribution(distribution_name(d)), d);
  EXPECT_THROW(parse_distribution("zipf"), std::invalid_argument);
}

TEST(HistogramSamples, OneBinGivesOneValue) {
  for (std::uint8_t s : histogram_samples<std::uint8_t>(70000, distribution::one_bin, 0, 256, 1)) ASSERT_EQ(s, 128);
  for (float s : histogram_samples<float>(1000, distribution::one_bin, 0.0f, 1.0f, 2)) ASSERT_EQ(s, 0.5f);
  const auto ints = histogram_samples<int>(1000, distribution::one_bin, -2147483648.0, 2147483648.0, 3);
  for (int s : ints) ASSERT_EQ(s, ints[0]);
  EXPECT_EQ(reference_histogram_even(ints, 4096, -(1ll << 31), 1ll << 31)[2048], 1000u);
}

TEST(HistogramSamples, SortedIsNonDecreasingAndCoversTheRange) {
  const auto shorts = histogram_samples<std::uint16_t>(100000, distribution::sorted, 0, 65536, 4);
  EXPECT_TRUE(std::is_sorted(shorts.begin(), shorts.end()));
  EXPECT_EQ(shorts.front(), 0);
  EXPECT_EQ(shorts.back(), 65535);
  for (std::uint64_t c : reference_histogram_even(shorts, 256, 0ll, 65536ll)) ASSERT_TRUE(c == 390 || c == 391) << c;
  const auto floats = histogram_samples<float>(4097, distribution::sorted, -2.0f, 3.0f, 5);
  EXPECT_TRUE(std::is_sorted(floats.begin(), floats.end()));
  EXPECT_EQ(floats.front(), -2.0f);
  EXPECT_GT(floats.back(), 2.99f);
  EXPECT_LT(floats.back(), 3.0f);
  // Clipped to the type: int8 over [-1000, 1000) stays within [-128, 127] and reaches both ends.
  const auto bytes = histogram_samples<std::int8_t>(5000, distribution::sorted, -1000, 1000, 6);
  EXPECT_TRUE(std::is_sorted(bytes.begin(), bytes.end()));
  EXPECT_EQ(bytes.front(), -128);
  EXPECT_EQ(bytes.back(), 127);
}

TEST(HistogramSamples, SkewedConcentratesNearTheMiddle) {
  const auto bytes = histogram_samples<std::uint8_t>(1 << 16, distribution::skewed, 0, 256, 7);
  long long near = 0;
  for (std::uint8_t s : bytes) near += std::abs(static_cast<int>(s) - 128) <= 16;
  EXPECT_GT(near, (1 << 16) * 9 / 10);
  // ... but is not one value: a few bins share it.
  const auto counts = reference_histogram_even(bytes, 256, 0ll, 256ll);
  EXPECT_GE(std::count_if(counts.begin(), counts.end(), [](std::uint64_t c) { return c > 100; }), 8);
  const auto floats = histogram_samples<float>(1 << 16, distribution::skewed, 0.0f, 1.0f, 8);
  long long near_f = 0;
  for (float s : floats) {
    ASSERT_TRUE(s >= 0.0f && s < 1.0f);
    near_f += std::abs(s - 0.5f) <= 1.0f / 16;
  }
  EXPECT_GT(near_f, (1 << 16) * 9 / 10);
}

TEST(HistogramSamples, UniformTouchesEveryBin) {
  const auto bytes = histogram_samples<std::uint8_t>(1 << 16, distribution::uniform, 0, 256, 9);
  for (std::uint64_t c : reference_histogram_even(bytes, 256, 0ll, 256ll)) ASSERT_TRUE(c >= 128 && c <= 384) << c;
  const auto floats = histogram_samples<float>(1 << 16, distribution::uniform, 0.0f, 1.0f, 10);
  for (std::uint64_t c : reference_histogram_even(floats, 256, 0.0f, 1.0f)) ASSERT_TRUE(c >= 128 && c <= 384) << c;
  const auto words = histogram_samples<unsigned>(1 << 16, distribution::uniform, 0.0, 4294967296.0, 11);
  for (std::uint64_t c : reference_histogram_even(words, 256, 0ll, 1ll << 32)) ASSERT_TRUE(c >= 128 && c <= 384) << c;
}

TEST(HistogramSamples, SameSeedSameSamplesAtAnyLength) {
  for (distribution d : {distribution::uniform, distribution::skewed, distribution::one_bin}) {
    SCOPED_TRACE(distribution_name(d));
    // 1000 on one thread, 200000 on several: the same first 1000.
    const auto short_run = histogram_samples<int>(1000, d, -5000, 5000, 12);
    const auto long_run = histogram_samples<int>(200000, d, -5000, 5000, 12);
    EXPECT_TRUE(std::equal(short_run.begin(), short_run.end(), long_run.begin()));
    EXPECT_EQ(histogram_samples<int>(1000, d, -5000, 5000, 12), short_run);
    if (d != distribution::one_bin) {
      EXPECT_NE(histogram_samples<int>(1000, d, -5000, 5000, 13), short_run);
    }
  }
}

// --- the radix sort reference, and the key order it takes from radix_key.cuh ------------
// Compares keys by their bits, so -0.0 vs +0.0 and NaN payloads count.
template <class Key>
std::vector<radix_detail::bits_of<Key>> bits_of_keys(const std::vector<Key>& keys) {
  std::vector<radix_detail::bits_of<Key>> out;
  for (Key k : keys) out.push_back(key_bits(k));
  return out;
}

TEST(RadixSortReference, NegativeIntegersFirst) {
  const std::vector<int> keys = {3, -1, INT_MIN, 0, -7, INT_MAX, 1};
  EXPECT_EQ(reference_radix_sort(keys, false), (std::vector<int>{INT_MIN, -7, -1, 0, 1, 3, INT_MAX}));
  EXPECT_EQ(reference_radix_sort(keys, true), (std::vector<int>{INT_MAX, 3, 1, 0, -1, -7, INT_MIN}));
  const std::vector<long long> wide = {-(1ll << 40), 5, LLONG_MIN, -1, LLONG_MAX};
  EXPECT_EQ(reference_radix_sort(wide, false), (std::vector<long long>{LLONG_MIN, -(1ll << 40), -1, 5, LLONG_MAX}));
  const std::vector<unsigned> u = {0x80000000u, 1, 0xFFFFFFFFu, 0};
  EXPECT_EQ(reference_radix_sort(u, false), (std::vector<unsigned>{0, 1, 0x80000000u, 0xFFFFFFFFu}));
}

template <class Key>
void check_float_placement() {
  using lim = std::numeric_limits<Key>;
  using B = radix_detail::bits_of<Key>;
  const B sign = B{1} << (8 * sizeof(Key) - 1);
  const Key nan = lim::quiet_NaN();
  const Key negative_nan = radix_detail::key_from_bits<Key>(key_bits(nan) | sign);
  const std::vector<Key> keys = {Key(0.0), nan, Key(1), -lim::infinity(), Key(-0.0), negative_nan,
                                 lim::infinity(), Key(-1), lim::denorm_min(), -lim::denorm_min()};
  // -NaN < -inf < -1 < -denormal < -0.0 < +0.0 < denormal < 1 < +inf < NaN.
  const std::vector<Key> ascending = {negative_nan, -lim::infinity(), Key(-1), -lim::denorm_min(), Key(-0.0),
                                      Key(0.0),     lim::denorm_min(), Key(1),  lim::infinity(),    nan};
  EXPECT_EQ(bits_of_keys(reference_radix_sort(keys, false)), bits_of_keys(ascending));
  std::vector<Key> descending(ascending.rbegin(), ascending.rend());
  EXPECT_EQ(bits_of_keys(reference_radix_sort(keys, true)), bits_of_keys(descending));
  // NaNs of one sign sort by payload.
  const Key nan_payload = radix_detail::key_from_bits<Key>(key_bits(nan) | 3);
  EXPECT_EQ(bits_of_keys(reference_radix_sort(std::vector<Key>{nan_payload, nan}, false)),
            bits_of_keys(std::vector<Key>{nan, nan_payload}));
}

TEST(RadixSortReference, SignedZerosAndNaNPlacementFloat) { check_float_placement<float>(); }
TEST(RadixSortReference, SignedZerosAndNaNPlacementDouble) { check_float_placement<double>(); }

// CUB's order, made explicit for its ladder entry: the two zeros are one key.
TEST(RadixSortReference, SignedZerosAsOneKey) {
  const std::vector<float> zeros = {0.0f, -0.0f, 0.0f, -0.0f};
  const std::vector<std::uint64_t> input_order = {0, 1, 2, 3};
  EXPECT_EQ(reference_radix_sort_order(zeros, false, 0, -1, signed_zeros::distinct),
            (std::vector<std::uint64_t>{1, 3, 0, 2}));
  EXPECT_EQ(reference_radix_sort_order(zeros, false, 0, -1, signed_zeros::as_positive_zero), input_order);
  EXPECT_EQ(reference_radix_sort_order(zeros, true, 0, -1, signed_zeros::as_negative_zero), input_order);
  // With a bit range the chosen zero's digits decide where both go: bits [0, 8) of +0.0's
  // ordered pattern (0x80000000) are 0x00, of -0.0's (0x7FFFFFFF) 0xFF; 1.0f's are 0x00 too.
  const std::vector<float> keys = {-0.0f, 1.0f, 0.0f, std::nextafter(1.0f, 2.0f)};  // ..., 0x3F800001 -> 0x01
  EXPECT_EQ(reference_radix_sort_order(keys, false, 0, 8, signed_zeros::as_positive_zero),
            (std::vector<std::uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(reference_radix_sort_order(keys, false, 0, 8, signed_zeros::as_negative_zero),
            (std::vector<std::uint64_t>{1, 3, 0, 2}));
  EXPECT_EQ(reference_radix_sort_order(keys, false, 0, 8, signed_zeros::distinct),
            (std::vector<std::uint64_t>{1, 2, 3, 0}));
}

TEST(RadixSortReference, StableInBothOrders) {
  const std::vector<int> keys = {2, 1, 2, 1, 3, 2};
  EXPECT_EQ(reference_radix_sort_order(keys, false), (std::vector<std::uint64_t>{1, 3, 0, 2, 5, 4}));
  EXPECT_EQ(reference_radix_sort_order(keys, true), (std::vector<std::uint64_t>{4, 0, 2, 5, 1, 3}));
  // At scale: equal keys (16 distinct) keep increasing indices in both orders.
  const auto many = make_sort_keys<unsigned>(100000, key_distribution::range16, 1);
  for (const bool descending : {false, true}) {
    const auto perm = reference_radix_sort_order(many, descending);
    for (std::size_t j = 1; j < perm.size(); ++j) {
      const unsigned a = many[perm[j - 1]], b = many[perm[j]];
      ASSERT_TRUE(descending ? a >= b : a <= b) << j;
      if (a == b) {
        ASSERT_LT(perm[j - 1], perm[j]) << j;
      }
    }
  }
}

TEST(RadixSortReference, BitRangeOfOrderedBits) {
  // Bits [4, 12): 0x1234 -> 0x23, 0xF0F0 -> 0x0F, 0x0005 -> 0x00, 0xABC0 -> 0xBC, 0x7777 -> 0x77.
  const std::vector<unsigned> keys = {0x1234, 0xF0F0, 0x0005, 0xABC0, 0x7777};
  EXPECT_EQ(reference_radix_sort(keys, false, 4, 12), (std::vector<unsigned>{0x0005, 0xF0F0, 0x1234, 0x7777, 0xABC0}));
  EXPECT_EQ(reference_radix_sort(keys, true, 4, 12), (std::vector<unsigned>{0xABC0, 0x7777, 0x1234, 0xF0F0, 0x0005}));
  // The range is on ordered bits: the top byte of int32 is the sign-flipped one.
  const std::vector<int> ints = {1, -1, INT_MIN, 0x01000000};
  EXPECT_EQ(reference_radix_sort(ints, false, 24, 32), (std::vector<int>{INT_MIN, -1, 1, 0x01000000}));
  // Keys equal on the range keep their order: 0x100 and 0x200 agree on [0, 8).
  EXPECT_EQ(reference_radix_sort(std::vector<unsigned>{0x200, 0x101, 0x100}, false, 0, 8),
            (std::vector<unsigned>{0x200, 0x100, 0x101}));
  // Bits of 64-bit keys above 32.
  const std::vector<unsigned long long> wide = {3ull << 40, 1ull << 40, 2ull << 40 | 5};
  EXPECT_EQ(reference_radix_sort(wide, false, 36, 44),
            (std::vector<unsigned long long>{1ull << 40, 2ull << 40 | 5, 3ull << 40}));
}

TEST(RadixSortReference, EmptyBitRangeKeepsInputOrder) {
  const auto keys = make_sort_keys<double>(1000, key_distribution::specials, 2);
  for (const int bit : {0, 17, 64}) {
    for (const bool descending : {false, true}) {
      EXPECT_EQ(reference_radix_sort_order(keys, descending, bit, bit), iota_values<std::uint64_t>(1000)) << bit;
    }
  }
  EXPECT_THROW(reference_radix_digits(keys, false, 8, 4), std::invalid_argument);
  EXPECT_THROW(reference_radix_digits(keys, false, 0, 65), std::invalid_argument);
}

// The reference agrees with a sort by value (an order written without radix_key) where
// values decide: integers, and finite floats with -0.0 before +0.0.
template <class Key>
void check_against_value_order(std::uint64_t seed) {
  const auto keys = make_sort_keys<Key>(50000, key_distribution::low_entropy, seed);
  auto less = [](Key a, Key b) {
    if constexpr (std::is_floating_point_v<Key>) {
      if (a == b) return std::signbit(a) && !std::signbit(b);
    }
    return a < b;
  };
  auto by_value = keys;
  std::stable_sort(by_value.begin(), by_value.end(), less);
  EXPECT_EQ(bits_of_keys(reference_radix_sort(keys, false)), bits_of_keys(by_value)) << type_name<Key>();
  std::stable_sort(by_value.begin(), by_value.end(), [&](Key a, Key b) { return less(b, a); });
  EXPECT_EQ(bits_of_keys(reference_radix_sort(keys, true)), bits_of_keys(by_value)) << type_name<Key>();
}

TEST(RadixSortReference, AgreesWithValueOrder) {
  check_against_value_order<unsigned>(3);
  check_against_value_order<int>(4);
  check_against_value_order<unsigned long long>(5);
  check_against_value_order<long long>(6);
  check_against_value_order<float>(7);
  check_against_value_order<double>(8);
}

// radix_key: from_ordered undoes to_ordered bit for bit (NaN payloads and denormals too),
// in both directions, and to_ordered increases with the value.
template <class Key>
void check_radix_key_round_trip(std::uint64_t seed) {
  using rk = onepass::detail::radix_key<Key>;
  static_assert(rk::supported && rk::bits == 8 * sizeof(Key));
  auto keys = radix_detail::edge_keys<Key>();
  const auto more = make_sort_keys<Key>(20000, key_distribution::specials, seed);
  keys.insert(keys.end(), more.begin(), more.end());
  for (Key k : keys) {
    ASSERT_EQ(key_bits(rk::from_ordered(rk::to_ordered(k))), key_bits(k)) << +k;
    for (const bool descending : {false, true}) {
      ASSERT_EQ(key_bits(onepass::detail::key_from_ordered_bits<Key>(onepass::detail::ordered_bits(k, descending),
                                                                     descending)),
                key_bits(k))
          << +k;
    }
    ASSERT_EQ(onepass::detail::ordered_bits(k, true), static_cast<radix_detail::bits_of<Key>>(~rk::to_ordered(k)));
  }
  // Every pattern is some key's: from_ordered then to_ordered is the identity too.
  for (Key k : more) {
    const auto b = key_bits(k);  // any pattern, read as ordered bits
    ASSERT_EQ(rk::to_ordered(rk::from_ordered(b)), b);
  }
  using lim = std::numeric_limits<Key>;
  std::vector<Key> increasing = {lim::lowest(), Key(-1), Key(0), Key(1), lim::max()};
  if constexpr (std::is_floating_point_v<Key>) {
    increasing = {-lim::infinity(), lim::lowest(), Key(-1), -lim::min(), -lim::denorm_min(), Key(-0.0), Key(0.0),
                  lim::denorm_min(), lim::min(), Key(1), lim::max(), lim::infinity()};
  } else if constexpr (std::is_unsigned_v<Key>) {
    increasing = {Key(0), Key(1), Key(lim::max() / 2), Key(lim::max() / 2 + 1), lim::max()};
  }
  for (std::size_t i = 1; i < increasing.size(); ++i)
    EXPECT_LT(rk::to_ordered(increasing[i - 1]), rk::to_ordered(increasing[i])) << i;
  EXPECT_EQ(rk::to_ordered(lim::lowest()) == 0, !std::is_floating_point_v<Key>);
  EXPECT_EQ(rk::to_ordered(lim::max()) == static_cast<radix_detail::bits_of<Key>>(~radix_detail::bits_of<Key>{0}),
            !std::is_floating_point_v<Key>);
}

TEST(RadixKey, RoundTripEveryKeyType) {
  check_radix_key_round_trip<unsigned>(11);
  check_radix_key_round_trip<int>(12);
  check_radix_key_round_trip<unsigned long long>(13);
  check_radix_key_round_trip<long long>(14);
  check_radix_key_round_trip<float>(15);
  check_radix_key_round_trip<double>(16);
  EXPECT_FALSE(onepass::detail::radix_key<bool>::supported);
  EXPECT_FALSE(onepass::detail::radix_key<short>::supported);
}

TEST(RadixKey, DigitsOfOrderedBits) {
  EXPECT_EQ(onepass::detail::radix_digit(0x12345678u, 0, 8), 0x78u);
  EXPECT_EQ(onepass::detail::radix_digit(0x12345678u, 4, 8), 0x67u);
  EXPECT_EQ(onepass::detail::radix_digit(0x12345678u, 28, 4), 0x1u);
  EXPECT_EQ(onepass::detail::radix_digit(0xABCD000000000000ull, 56, 8), 0xABu);
}

TEST(RadixSortKeys, DistributionsKeepTheirPromises) {
  for (key_distribution d : all_key_distributions) EXPECT_EQ(parse_key_distribution(key_distribution_name(d)), d);
  EXPECT_THROW(parse_key_distribution("zipf"), std::invalid_argument);
  const long long n = 70000;
  for (float k : make_sort_keys<float>(n, key_distribution::random, 21)) ASSERT_TRUE(std::isfinite(k));
  for (double k : make_sort_keys<double>(n, key_distribution::low_entropy, 22)) ASSERT_TRUE(std::isfinite(k));
  for (int k : make_sort_keys<int>(n, key_distribution::range16, 23)) ASSERT_TRUE(k >= 0 && k < 16);
  const auto same = make_sort_keys<long long>(n, key_distribution::all_equal, 24);
  for (long long k : same) ASSERT_EQ(k, same[0]);
  const auto up = make_sort_keys<double>(n, key_distribution::sorted, 25);
  EXPECT_TRUE(std::is_sorted(up.begin(), up.end()));
  const auto down = make_sort_keys<int>(n, key_distribution::reverse, 26);
  EXPECT_TRUE(std::is_sorted(down.rbegin(), down.rend()));
  EXPECT_NE(up.front(), up.back());
  // low_entropy: each bit set with probability 1/8.
  long long ones = 0;
  for (unsigned long long k : make_sort_keys<unsigned long long>(n, key_distribution::low_entropy, 27))
    ones += __builtin_popcountll(k);
  EXPECT_NEAR(static_cast<double>(ones) / (64.0 * n), 0.125, 0.01);
  // specials holds both zeros and NaNs of both signs.
  const auto specials = make_sort_keys<float>(n, key_distribution::specials, 28);
  auto has = [&](auto pred) { return std::any_of(specials.begin(), specials.end(), pred); };
  EXPECT_TRUE(has([](float k) { return k == 0.0f && std::signbit(k); }));
  EXPECT_TRUE(has([](float k) { return k == 0.0f && !std::signbit(k); }));
  EXPECT_TRUE(has([](float k) { return std::isnan(k) && std::signbit(k); }));
  EXPECT_TRUE(has([](float k) { return std::isnan(k) && !std::signbit(k); }));
  EXPECT_TRUE(has([](float k) { return std::isinf(k); }));
  // The same seed gives the same keys at any length.
  const auto a = make_sort_keys<unsigned>(1000, key_distribution::random, 29);
  const auto b = make_sort_keys<unsigned>(300000, key_distribution::random, 29);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
  EXPECT_NE(make_sort_keys<unsigned>(1000, key_distribution::random, 30), a);
}

// The parallel merge path (inputs of 2^18 and more) is as stable as the single-thread one.
TEST(RadixSortReference, LargeInputsStable) {
  const long long n = (1 << 20) + 3;
  const auto keys = make_sort_keys<unsigned>(n, key_distribution::range16, 31);
  const auto perm = reference_radix_sort_order(keys, false);
  for (std::size_t j = 1; j < perm.size(); ++j) {
    ASSERT_LE(keys[perm[j - 1]], keys[perm[j]]) << j;
    if (keys[perm[j - 1]] == keys[perm[j]]) {
      ASSERT_LT(perm[j - 1], perm[j]) << j;
    }
  }
}

}  // namespace
}  // namespace onepass::test
