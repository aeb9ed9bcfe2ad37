// The CUDA runtime call counter (support/cuda_call_counter.hpp) counts what it claims to,
// with or without a GPU (without one the calls fail, and are counted all the same); and
// onepass's headers call no runtime function it leaves out, so none can escape it.
#include <gtest/gtest-spi.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "onepass/detail/launch.cuh"
#include "support/cuda_call_counter.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

__global__ void do_nothing(int) {}

TEST(CudaCallCounter, CountsADirectCall) {
  const auto before = cuda_call_counts();
  const long long calls = cuda_runtime_calls();
  int device = -1;
  (void)cudaGetDevice(&device);
  (void)cudaGetLastError();
  EXPECT_EQ(cuda_runtime_calls() - calls, 2);
  EXPECT_EQ(cuda_calls_since(before), "cudaGetDevice x1, cudaGetLastError x1");
  EXPECT_EQ(cuda_calls_since(before, true), "");
}

TEST(CudaCallCounter, CountsWhatEnqueues) {
  const long long enqueued = cuda_enqueuing_calls();
  (void)cudaMemsetAsync(nullptr, 0, 0, nullptr);
  EXPECT_EQ(cuda_enqueuing_calls() - enqueued, 1);
  (void)cudaGetLastError();
}

// onepass's own launch (cudaLaunchKernel), which throws without a GPU.
TEST(CudaCallCounter, CountsOnepassLaunches) {
  const auto before = cuda_call_counts();
  try {
    onepass::detail::launch(do_nothing, dim3(1), dim3(1), 0, nullptr, 7);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  } catch (const onepass::cuda_error&) {
    EXPECT_FALSE(gpu_available());
  }
  EXPECT_EQ(cuda_calls_since(before, true), "cudaLaunchKernel x1");
}

// <<< >>>: __cudaPushCallConfiguration in the caller; the kernel's stub then launches with
// __cudaLaunchKernel, which it reaches only where the configuration could be pushed.
TEST(CudaCallCounter, CountsTripleChevronLaunches) {
  const auto before = cuda_call_counts();
  do_nothing<<<1, 1>>>(7);
  const cudaError_t launched = cudaGetLastError();
  const std::string calls = cuda_calls_since(before);
  EXPECT_NE(calls.find("__cudaPushCallConfiguration x1"), std::string::npos) << calls;
  if (gpu_available()) {
    EXPECT_EQ(launched, cudaSuccess) << cudaGetErrorString(launched);
    EXPECT_EQ(cuda_calls_since(before, true), "__cudaLaunchKernel x1");
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  }
}

TEST(CudaCallCounter, ExpectationsSeeTheCalls) {
  expect_no_cuda_calls([] {});
  expect_nothing_enqueued([] { (void)cudaGetLastError(); });
  EXPECT_NONFATAL_FAILURE(expect_no_cuda_calls([] { (void)cudaGetLastError(); }), "cudaGetLastError x1");
  EXPECT_NONFATAL_FAILURE(expect_nothing_enqueued([] { (void)cudaMemsetAsync(nullptr, 0, 0, nullptr); }),
                          "cudaMemsetAsync x1");
  (void)cudaGetLastError();
}

// Every `cudaName(` in onepass's headers (comments too: cheap, and a comment that names a
// call usually sits next to one) must be a counted function.
TEST(CudaCallCounter, CountsEveryRuntimeFunctionTheHeadersCall) {
  std::set<std::string> counted;
  for (const auto& f : counted_cuda_functions()) counted.insert(f.name);
  const std::regex call(R"(\bcuda[A-Z]\w*(?=\s*\())");
  std::set<std::string> called;
  int headers = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(ONEPASS_INCLUDE_DIR)) {
    if (!entry.is_regular_file()) continue;
    ++headers;
    std::ifstream file(entry.path());
    std::stringstream text;
    text << file.rdbuf();
    const std::string s = text.str();
    for (auto m = std::sregex_iterator(s.begin(), s.end(), call); m != std::sregex_iterator(); ++m) {
      const std::string name = m->str();
      called.insert(name);
      const auto line = 1 + std::count(s.begin(), s.begin() + m->position(), '\n');
      EXPECT_TRUE(counted.count(name) == 1)
          << entry.path().string() << ":" << line << " calls " << name
          << ", which the counter does not wrap: add it to tests/support/cuda_call_counter.cpp";
    }
  }
  EXPECT_GT(headers, 20) << ONEPASS_INCLUDE_DIR;
  // What the scan must find, or it found nothing.
  for (const char* name : {"cudaLaunchKernel", "cudaMemsetAsync", "cudaGetDevice", "cudaPointerGetAttributes"})
    EXPECT_EQ(called.count(name), 1u) << name;
}

}  // namespace
}  // namespace onepass::test
