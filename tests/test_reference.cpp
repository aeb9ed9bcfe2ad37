// The CPU reference that every GPU path is checked against, checked by hand-worked cases,
// and the random-input generators' promises (ranges, exactness bound).
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

}  // namespace
}  // namespace onepass::test
