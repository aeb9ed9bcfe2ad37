// The production reduce through its public API: both call styles and reduce_to_host,
// every type, the aligned and unaligned paths, CUDA-graph capture, run-to-run
// reproducibility of float sums, more than 2^31 items, and the device-memory checks.
#include <cmath>
#include <thread>

#include "onepass/ladder/reduce/registry.cuh"
#include "onepass/reduce.cuh"
#include "support/reduce_checks.cuh"

namespace onepass::test {
namespace {

enum class style { simple, workspace, to_host };

template <class T, class Op>
T call_reduce(const T* in, long long n, T* out, T init, Op op, style s, cudaStream_t stream) {
  if (s == style::to_host) return onepass::reduce_to_host(in, n, init, op, stream);
  if (s == style::simple) {
    onepass::reduce(in, n, out, init, op, stream);
  } else {
    device_buffer<unsigned char> ws(static_cast<long long>(onepass::reduce_workspace_bytes<T>(n)));
    onepass::reduce(in, n, out, init, op, workspace{ws.get(), ws.bytes()}, stream);
    throw_if(cudaStreamSynchronize(stream), "sync");  // before ws is freed
  }
  throw_if(cudaStreamSynchronize(stream), "sync");
  T result;
  throw_if(cudaMemcpy(&result, out, sizeof(T), cudaMemcpyDeviceToHost), "download");
  return result;
}

// Offset 0: the 128-bit path; offset 1 (one item): the scalar path.
template <class T, class Op>
void check_public_api(std::uint64_t seed) {
  for (long long n : reduce_test_sizes<T>()) {
    if (n > (1 << 21)) continue;  // the registry sweep covers 2^24 + 7
    const std::vector<T> host_in = random_reduce_vector<T>(n + 1, seed + n);
    device_buffer<T> in(host_in);
    device_buffer<T> out(1);
    std::mt19937_64 rng(seed * 7 + n);
    const T init = random_reduce_value<T>(rng);
    for (int offset : {0, 1}) {
      const std::vector<T> src(host_in.begin() + offset, host_in.begin() + offset + n);
      const T expected = reference_reduce(src, init, Op{});
      for (style s : {style::simple, style::workspace, style::to_host}) {
        SCOPED_TRACE(std::string(type_name<T>()) + " n=" + std::to_string(n) + " offset=" + std::to_string(offset) +
                     " style=" + std::to_string(static_cast<int>(s)));
        out.poison();
        const T got = call_reduce(in.get() + offset, n, out.get(), init, Op{}, s, nullptr);
        const std::string diff = first_difference(std::vector<T>{expected}, std::vector<T>{got});
        EXPECT_TRUE(diff.empty()) << diff;
      }
    }
  }
}

TEST(Reduce, PublicApiInt32) {
  ONEPASS_REQUIRE_GPU();
  check_public_api<int, onepass::plus>(1);
  check_public_api<int, onepass::minimum>(2);
}
TEST(Reduce, PublicApiUint64) {
  ONEPASS_REQUIRE_GPU();
  check_public_api<unsigned long long, onepass::plus>(3);
}
TEST(Reduce, PublicApiFloatDouble) {
  ONEPASS_REQUIRE_GPU();
  check_public_api<float, onepass::plus>(4);
  check_public_api<double, onepass::maximum>(5);
}
TEST(Reduce, PublicApiNonCommutative) {
  ONEPASS_REQUIRE_GPU();
  check_public_api<affine, compose>(6);
}

TEST(Reduce, EmptyInputGivesInit) {
  ONEPASS_REQUIRE_GPU();
  device_buffer<float> out(1);
  onepass::reduce(static_cast<const float*>(nullptr), 0, out.get(), 2.5f);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_EQ(out.download()[0], 2.5f);
  EXPECT_EQ(onepass::reduce_to_host(static_cast<const int*>(nullptr), 0, -7, onepass::maximum{}), -7);
}

// Float sums whose value depends on the order of combination: every deterministic
// variant must give the same bits 20 times in a row, and a value within the worst-case
// bound of any summation order: |error| <= (n - 1) * 2^-24 * sum |x|.
template <class T>
void check_reproducible(long long n) {
  std::mt19937_64 rng(99);
  std::vector<T> host(static_cast<std::size_t>(n));
  for (auto& x : host) {
    const double mantissa = 0.5 + 0.5 * static_cast<double>(rng() % 1000003) / 1000003.0;
    const int exponent = static_cast<int>(rng() % 41) - 20;
    x = static_cast<T>((rng() & 1 ? -1.0 : 1.0) * std::ldexp(mantissa, exponent));
  }
  double exact = 0, magnitude = 0;
  for (const T& x : host) {
    exact += static_cast<double>(x);
    magnitude += std::fabs(static_cast<double>(x));
  }
  const double unit = std::is_same_v<T, float> ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
  const double bound = static_cast<double>(n - 1) * unit * magnitude;
  device_buffer<T> in(host);
  device_buffer<T> out(1 + reduce_guard);
  for (const auto& v : ladder::reduce_registry<T, onepass::plus>()) {
    if (!v.deterministic) continue;
    SCOPED_TRACE(std::string(v.id) + " " + type_name<T>() + " n=" + std::to_string(n));
    const T first = run_reduce_entry(v, in.get(), n, out, T{0});
    EXPECT_LE(std::fabs(static_cast<double>(first) - exact), bound);
    for (int run = 1; run < 20; ++run) {
      const T again = run_reduce_entry(v, in.get(), n, out, T{0});
      ASSERT_EQ(std::memcmp(&first, &again, sizeof(T)), 0) << "run " << run << " gave " << again << ", run 0 " << first;
    }
  }
}

TEST(Reduce, FloatSumsAreReproducible) {
  ONEPASS_REQUIRE_GPU();
  for (long long n : {1000003ll, (1ll << 24) + 3})
    if (n <= max_test_items()) check_reproducible<float>(n);
  check_reproducible<double>(std::min<long long>(1 << 22, max_test_items()));
}

// Workspace style under stream capture: the graph (two kernels, the second launched
// programmatically) is replayed on new inputs.
TEST(Reduce, WorkspaceStyleInCudaGraph) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>(3 << 20, max_test_items());
  device_buffer<int> in(n), out(1);
  device_buffer<unsigned char> ws(static_cast<long long>(onepass::reduce_workspace_bytes<int>(n)));
  cudaStream_t stream;
  ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  ONEPASS_CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  onepass::reduce(in.get(), n, out.get(), 5, onepass::plus{}, workspace{ws.get(), ws.bytes()}, stream);
  ONEPASS_CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  ONEPASS_CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (std::uint64_t round = 0; round < 3; ++round) {
    const std::vector<int> host = random_reduce_vector<int>(n, 500 + round);
    in.upload(host);
    out.poison();
    ONEPASS_CHECK_CUDA(cudaGraphLaunch(exec, stream));
    ONEPASS_CHECK_CUDA(cudaStreamSynchronize(stream));
    EXPECT_EQ(out.download()[0], reference_reduce(host, 5, onepass::plus{})) << "round " << round;
  }
  ONEPASS_CHECK_CUDA(cudaGraphExecDestroy(exec));
  ONEPASS_CHECK_CUDA(cudaGraphDestroy(graph));
  ONEPASS_CHECK_CUDA(cudaStreamDestroy(stream));
}

// Back-to-back calls on one stream reuse one workspace: each call's second kernel must
// have read the partials before the next call's first kernel overwrites them.
TEST(Reduce, BackToBackCallsShareAWorkspace) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>(1 << 22, max_test_items());
  const std::vector<long long> host = random_reduce_vector<long long>(n, 77);
  device_buffer<long long> in(host), out(64);
  device_buffer<unsigned char> ws(static_cast<long long>(onepass::reduce_workspace_bytes<long long>(n)));
  for (int i = 0; i < 64; ++i)
    onepass::reduce(in.get(), n - i, out.get() + i, static_cast<long long>(i), onepass::plus{},
                    workspace{ws.get(), ws.bytes()}, nullptr);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<long long> got = out.download();
  long long expected = reference_reduce(host, 0ll, onepass::plus{});
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(got[static_cast<std::size_t>(i)], expected + i) << "call " << i;
    expected -= host[static_cast<std::size_t>(n - 1 - i)];
  }
}

// --- more than 2^31 items ---------------------------------------------------------------
__host__ __device__ inline unsigned reduce_pattern(long long i) {
  unsigned long long x = static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 31;
  return static_cast<unsigned>(x);
}
__global__ void fill_reduce_pattern(unsigned* p, long long n) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) p[i] = reduce_pattern(i);
}

TEST(Reduce, MoreThan2To31Items) {
  ONEPASS_REQUIRE_GPU();
  const long long n = (1ll << 31) + 1001;
  if (n > max_test_items()) GTEST_SKIP() << "ONEPASS_TEST_MAX_N caps sizes below 2^31";
  std::size_t free_bytes = 0, total = 0;
  ONEPASS_CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < sizeof(unsigned) * static_cast<std::size_t>(n) + (1ull << 30))
    GTEST_SKIP() << "needs ~9 GB of free GPU memory, " << (free_bytes >> 20) << " MiB free";
  device_buffer<unsigned> in(n);
  fill_reduce_pattern<<<4096, 256>>>(in.get(), n);
  ONEPASS_CHECK_CUDA(cudaGetLastError());
  const unsigned sum = onepass::reduce_to_host(in.get(), n, 0u);
  const unsigned largest = onepass::reduce_to_host(in.get(), n, 0u, onepass::maximum{});
  // The reference on every host thread: each folds a contiguous share in locals and writes
  // its results once. Writing sums[t] and maxima[t] for every item keeps them out of
  // registers and has all the threads fight over one cache line: 7x slower on two cores,
  // worse with more (the test ran past 100 s on an H100 host); this way ~1.3 s on two.
  const long long threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> sums(static_cast<std::size_t>(threads)), maxima(static_cast<std::size_t>(threads));
  std::vector<std::thread> pool;
  for (long long t = 0; t < threads; ++t)
    pool.emplace_back([&sums, &maxima, t, begin = n * t / threads, end = n * (t + 1) / threads] {
      unsigned sum = 0, largest = 0;
      for (long long i = begin; i < end; ++i) {
        const unsigned v = reduce_pattern(i);
        sum += v;
        largest = std::max(largest, v);
      }
      sums[static_cast<std::size_t>(t)] = sum;
      maxima[static_cast<std::size_t>(t)] = largest;
    });
  for (auto& th : pool) th.join();
  unsigned expected_sum = 0, expected_max = 0;
  for (std::size_t t = 0; t < sums.size(); ++t) {
    expected_sum += sums[t];
    expected_max = std::max(expected_max, maxima[t]);
  }
  EXPECT_EQ(sum, expected_sum);
  EXPECT_EQ(largest, expected_max);
}

// --- device-memory checks (need the runtime) ----------------------------------------------
TEST(Reduce, HostMemoryIsRefusedAndNothingIsWritten) {
  ONEPASS_REQUIRE_GPU();
  std::vector<int> host(1000, 1);
  device_buffer<int> in(1000), out(1);
  try {
    onepass::reduce(host.data(), 1000, out.get());
    ADD_FAILURE() << "accepted host memory";
  } catch (const onepass::invalid_argument& e) {
    EXPECT_EQ(e.argument(), "in");
  }
  int result_on_host = 0;
  try {
    onepass::reduce(in.get(), 1000, &result_on_host);
    ADD_FAILURE() << "accepted a host result";
  } catch (const onepass::invalid_argument& e) {
    EXPECT_EQ(e.argument(), "out");
  }
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_TRUE(first_written(out.download()).empty());
}

}  // namespace
}  // namespace onepass::test
