// The production segmented scan's public API on int32, uint32 and float values
// (support/segmented_scan_public_typed.cuh; the 8-byte types: test_segmented_scan_8byte.cu).
#include <cstdint>

#include "support/segmented_scan_public_typed.cuh"

namespace onepass::test {
namespace {

using FourByteTypes = ::testing::Types<std::int32_t, std::uint32_t, float>;
INSTANTIATE_TYPED_TEST_SUITE_P(FourByte, SegmentedScanPublic, FourByteTypes);

}  // namespace
}  // namespace onepass::test
