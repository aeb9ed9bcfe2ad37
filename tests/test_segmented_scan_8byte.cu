// The production segmented scan's public API on int64, uint64 and double values
// (support/segmented_scan_public_typed.cuh; the 4-byte types: test_segmented_scan_4byte.cu).
#include "support/segmented_scan_public_typed.cuh"

namespace onepass::test {
namespace {

using EightByteTypes = ::testing::Types<long long, unsigned long long, double>;
INSTANTIATE_TYPED_TEST_SUITE_P(EightByte, SegmentedScanPublic, EightByteTypes);

}  // namespace
}  // namespace onepass::test
