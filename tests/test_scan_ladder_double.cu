// Every scan variant of the registry on double: sum and max, inclusive and exclusive.
#include "support/scan_checks.cuh"

namespace onepass::test {
TEST(ScanLadder, double_plus) {
  ONEPASS_REQUIRE_GPU();
  check_scan_registry<double, onepass::plus>(11);
}
TEST(ScanLadder, double_max) {
  ONEPASS_REQUIRE_GPU();
  check_scan_registry<double, onepass::maximum>(22);
}
}  // namespace onepass::test
