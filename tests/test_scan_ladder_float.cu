// Every scan variant of the registry on float: sum and max, inclusive and exclusive.
#include "support/scan_checks.cuh"

namespace onepass::test {
TEST(ScanLadder, float_plus) {
  ONEPASS_REQUIRE_GPU();
  check_scan_registry<float, onepass::plus>(11);
}
TEST(ScanLadder, float_max) {
  ONEPASS_REQUIRE_GPU();
  check_scan_registry<float, onepass::maximum>(22);
}
}  // namespace onepass::test
