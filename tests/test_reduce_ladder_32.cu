// Every reduce variant of the registry on the 32-bit types: sum, max, min.
#include "support/reduce_checks.cuh"

namespace onepass::test {
TEST(ReduceLadder, int32_plus) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_registry<int, onepass::plus>(31);
}
TEST(ReduceLadder, int32_max) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_registry<int, onepass::maximum>(32);
}
TEST(ReduceLadder, uint32_plus) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_registry<unsigned, onepass::plus>(33);
}
TEST(ReduceLadder, float_plus) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_registry<float, onepass::plus>(34);
}
TEST(ReduceLadder, float_max) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_registry<float, onepass::maximum>(35);
}
TEST(ReduceLadder, float_min) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_registry<float, onepass::minimum>(36);
}
}  // namespace onepass::test
