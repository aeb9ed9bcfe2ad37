// The production segmented scan's public API on one value type: every form (head flags, CSR
// offsets, scan by key), inclusive and exclusive, sum and maximum, every segment-length
// distribution and size. A type-parameterized suite, instantiated for the 4-byte types in
// test_segmented_scan_4byte.cu and for the 8-byte ones in test_segmented_scan_8byte.cu, so
// that the two halves compile in parallel (they were most of test_segmented_scan.cu).
// Include it in exactly the files that instantiate it: gtest reports a suite defined but
// not instantiated as a failure.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "onepass/segmented_scan.cuh"
#include "support/segmented_scan_checks.cuh"
#include "support/segmented_scan_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

template <class T>
class SegmentedScanPublic : public ::testing::Test {};
TYPED_TEST_SUITE_P(SegmentedScanPublic);

TYPED_TEST_P(SegmentedScanPublic, EveryFormDistributionAndSizeAgainstTheReference) {
  ONEPASS_REQUIRE_GPU();
  using T = TypeParam;
  std::uint64_t seed = 100;
  for (long long n : segmented_sizes<T>())
    for (segment_distribution d : all_segment_distributions()) {
      if (!worth_running(n, d)) continue;
      check_all_forms<T>(n, d, kind::inclusive, T{}, plus{}, ++seed);
      check_all_forms<T>(n, d, kind::exclusive, static_cast<T>(3), plus{}, ++seed);
    }
}

TYPED_TEST_P(SegmentedScanPublic, MaximumInclusiveAndExclusive) {
  ONEPASS_REQUIRE_GPU();
  using T = TypeParam;
  const long long n = std::min<long long>(300007, max_test_items());
  check_all_forms<T>(n, segment_distribution::uniform_1_1000, kind::inclusive, T{}, maximum{}, 7);
  check_all_forms<T>(n, segment_distribution::with_empty, kind::exclusive, std::numeric_limits<T>::lowest(),
                     maximum{}, 8);
}

REGISTER_TYPED_TEST_SUITE_P(SegmentedScanPublic, EveryFormDistributionAndSizeAgainstTheReference,
                            MaximumInclusiveAndExclusive);

}  // namespace
}  // namespace onepass::test
