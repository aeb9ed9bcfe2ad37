// Every scan variant of the registry on int32: sum and max, inclusive and exclusive.
#include "support/scan_checks.cuh"

namespace onepass::test {
TEST(ScanLadder, int32_plus) {
  ONEPASS_REQUIRE_GPU();
  check_scan_registry<int, onepass::plus>(11);
}
TEST(ScanLadder, int32_max) {
  ONEPASS_REQUIRE_GPU();
  check_scan_registry<int, onepass::maximum>(22);
}
}  // namespace onepass::test
