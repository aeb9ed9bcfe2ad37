// Every scan variant of the registry with a non-commutative operator (affine-map
// composition on an 8-byte struct): any operand reordering changes the result.
#include "support/scan_checks.cuh"

namespace onepass::test {
TEST(ScanLadder, affine_compose) {
  ONEPASS_REQUIRE_GPU();
  check_scan_registry<affine, compose>(33);
}
}  // namespace onepass::test
