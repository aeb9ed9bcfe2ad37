// Every scan variant of the registry on int64: sum and max, inclusive and exclusive.
#include "support/scan_checks.cuh"

namespace onepass::test {
TEST(ScanLadder, int64_plus) {
  ONEPASS_REQUIRE_GPU();
  check_scan_registry<long long, onepass::plus>(11);
}
TEST(ScanLadder, int64_max) {
  ONEPASS_REQUIRE_GPU();
  check_scan_registry<long long, onepass::maximum>(22);
}
}  // namespace onepass::test
