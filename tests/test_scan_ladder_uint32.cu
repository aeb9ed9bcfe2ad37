// Every scan variant of the registry on uint32: sum and max, inclusive and exclusive.
#include "support/scan_checks.cuh"

namespace onepass::test {
TEST(ScanLadder, uint32_plus) {
  ONEPASS_REQUIRE_GPU();
  check_scan_registry<unsigned, onepass::plus>(11);
}
TEST(ScanLadder, uint32_max) {
  ONEPASS_REQUIRE_GPU();
  check_scan_registry<unsigned, onepass::maximum>(22);
}
}  // namespace onepass::test
