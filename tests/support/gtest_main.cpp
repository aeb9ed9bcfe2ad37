// The tests' main: gtest's own, except that a binary in which every test that ran was
// skipped (GPU tests on a machine without a GPU) exits with 77, which ctest reports as
// "skipped" (SKIP_RETURN_CODE 77 in tests/CMakeLists.txt) rather than "passed".
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  const ::testing::UnitTest& tests = *::testing::UnitTest::GetInstance();
  if (result == 0 && tests.test_to_run_count() > 0 && tests.skipped_test_count() == tests.test_to_run_count())
    return 77;
  return result;
}
