// The CPU reference that every GPU path is checked against, checked by hand-worked cases,
// and the random-input generators' promises (ranges, exactness bound).
#include "support/histogram_reference.hpp"
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

}  // namespace
}  // namespace onepass::test
