// Every reduce variant of the registry on the 64-bit types (sum, max, min) and on the
// non-commutative test operator, which only the order-preserving variants accept.
#include "support/reduce_checks.cuh"

namespace onepass::test {
TEST(ReduceLadder, int64_plus) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_registry<long long, onepass::plus>(61);
}
TEST(ReduceLadder, int64_min) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_registry<long long, onepass::minimum>(62);
}
TEST(ReduceLadder, uint64_plus) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_registry<unsigned long long, onepass::plus>(63);
}
TEST(ReduceLadder, double_plus) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_registry<double, onepass::plus>(64);
}
TEST(ReduceLadder, double_max) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_registry<double, onepass::maximum>(65);
}
TEST(ReduceLadder, affine_compose_in_order) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_registry<affine, compose>(66);
}
}  // namespace onepass::test
