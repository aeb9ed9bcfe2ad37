// Every histogram variant of the registry on the 32-bit sample types.
#include "support/histogram_checks.cuh"

namespace onepass::test {
TEST(HistogramLadder, int32) {
  ONEPASS_REQUIRE_GPU();
  check_histogram_ladder<int>(203);
}
TEST(HistogramLadder, uint32) {
  ONEPASS_REQUIRE_GPU();
  check_histogram_ladder<unsigned>(204);
}
TEST(HistogramLadder, float) {
  ONEPASS_REQUIRE_GPU();
  check_histogram_ladder<float>(205);
}
}  // namespace onepass::test
