// Counts the test binary's calls to the CUDA runtime, so a test can show that a call made
// none ("not even a CUDA call") or enqueued nothing. Every function that
// cuda_call_counter.cpp lists is wrapped at link time (GNU ld --wrap, tests/CMakeLists.txt)
// in every test binary: calls from onepass's headers, from CUB and from the launches that
// <<< >>> lowers to all pass through the counter. test_cuda_call_counter checks that the
// headers call no runtime function the list leaves out.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace onepass::test {

struct counted_cuda_function {
  const char* name;
  bool enqueues;  // gives a stream work: a launch, a copy, a memset, a stream-ordered allocation
};
// Every counted function, in the order of cuda_call_counts().
const std::vector<counted_cuda_function>& counted_cuda_functions();

// The calls so far to each counted function.
std::vector<long long> cuda_call_counts();
// All counted calls so far, and those that enqueue.
long long cuda_runtime_calls();
long long cuda_enqueuing_calls();
// The calls made since `before` (a cuda_call_counts()), as "cudaGetDevice x1, ...", or ""
// when there were none; only those that enqueue when `enqueuing_only`.
std::string cuda_calls_since(const std::vector<long long>& before, bool enqueuing_only = false);

// Runs f and expects it to have made no CUDA runtime call at all.
template <class F>
void expect_no_cuda_calls(F&& f) {
  const std::vector<long long> before = cuda_call_counts();
  std::forward<F>(f)();
  EXPECT_EQ(cuda_calls_since(before), "") << "expected no CUDA runtime call";
}

// Runs f and expects it to have given no stream any work (queries are allowed).
template <class F>
void expect_nothing_enqueued(F&& f) {
  const std::vector<long long> before = cuda_call_counts();
  std::forward<F>(f)();
  EXPECT_EQ(cuda_calls_since(before, true), "") << "expected nothing enqueued";
}

// Fixtures for a suite whose every test makes no CUDA runtime call at all, or enqueues
// nothing (queries allowed): `using SuiteName = no_cuda_calls;`, then TEST_F(SuiteName, ...).
class no_cuda_calls : public ::testing::Test {
 protected:
  void TearDown() override { EXPECT_EQ(cuda_calls_since(before_), "") << "expected no CUDA runtime call"; }

 private:
  const std::vector<long long> before_ = cuda_call_counts();
};
class nothing_enqueued : public ::testing::Test {
 protected:
  void TearDown() override { EXPECT_EQ(cuda_calls_since(before_, true), "") << "expected nothing enqueued"; }

 private:
  const std::vector<long long> before_ = cuda_call_counts();
};

}  // namespace onepass::test
