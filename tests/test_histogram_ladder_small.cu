// Every histogram variant of the registry on the 8- and 16-bit sample types.
#include "support/histogram_checks.cuh"

namespace onepass::test {
TEST(HistogramLadder, uint8) {
  ONEPASS_REQUIRE_GPU();
  check_histogram_ladder<std::uint8_t>(201);
}
TEST(HistogramLadder, uint16) {
  ONEPASS_REQUIRE_GPU();
  check_histogram_ladder<std::uint16_t>(202);
}
}  // namespace onepass::test
