// The production scan through its public API: both call styles, every type and operator,
// the alignment paths, in place, CUDA-graph capture, two streams, more than 2^31 items,
// stalled tiles that the lookback must wait for, the pipelined agent at every size and
// the single-wave agent up to the most tiles it takes.
#include <thread>

#include "onepass/scan.cuh"
#include "support/scan_checks.cuh"

namespace onepass::test {
namespace {

// Calls the public API: simple style or workspace style.
template <class T, class Op>
void call_scan(const T* in, long long n, T* out, kind k, T init, Op op, bool workspace_style,
               cudaStream_t stream) {
  if (!workspace_style) {
    if (k == kind::inclusive) onepass::inclusive_scan(in, n, out, op, stream);
    else onepass::exclusive_scan(in, n, out, init, op, stream);
    return;
  }
  device_buffer<unsigned char> ws(static_cast<long long>(onepass::scan_workspace_bytes<T>(n)));
  const workspace w{ws.get(), ws.bytes()};
  if (k == kind::inclusive) onepass::inclusive_scan(in, n, out, op, w, stream);
  else onepass::exclusive_scan(in, n, out, init, op, w, stream);
  throw_if(cudaStreamSynchronize(stream), "sync");  // before ws is freed
}

// Offset 0: both pointers 16-byte aligned, the 128-bit path. Offset 1 (one element): the
// coalesced scalar path.
template <class T, class Op>
void check_public_api(std::uint64_t seed) {
  for (long long n : scan_test_sizes<T>()) {
    if (n > (1 << 21)) continue;  // the registry sweep covers 2^24 + 7
    const std::vector<T> host_in = random_vector<T>(n + 1, seed + n);
    device_buffer<T> in(host_in);
    device_buffer<T> out(n + 1);
    std::mt19937_64 rng(seed * 7 + n);
    const T init = random_value<T>(rng);
    for (kind k : {kind::inclusive, kind::exclusive}) {
      for (int offset : {0, 1}) {
        const std::vector<T> src(host_in.begin() + offset, host_in.begin() + offset + n);
        const std::vector<T> expected = reference_scan(src, k, init, Op{});
        const bool ws_style = (n + offset) % 2 == 0;
        SCOPED_TRACE(std::string(type_name<T>()) + " " + kind_name(k) + " n=" + std::to_string(n) +
                     " offset=" + std::to_string(offset) + (ws_style ? " workspace" : " simple"));
        out.poison();
        call_scan(in.get() + offset, n, out.get() + offset, k, init, Op{}, ws_style, nullptr);
        ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
        const std::vector<T> all = out.download(n + 1);
        const std::vector<T> got(all.begin() + offset, all.begin() + offset + n);
        // The one slot outside [offset, offset + n) must still hold the poison.
        const unsigned char* guard = reinterpret_cast<const unsigned char*>(&all[offset == 0 ? n : 0]);
        for (std::size_t b = 0; b < sizeof(T); ++b) ASSERT_EQ(guard[b], 0xA5) << "wrote outside the output";
        const std::string diff = first_difference(expected, got);
        EXPECT_TRUE(diff.empty()) << diff;
      }
    }
  }
}

template <class T>
class ScanPublic : public ::testing::Test {};
using ScanTypes = ::testing::Types<int, unsigned, long long, unsigned long long, float, double>;
TYPED_TEST_SUITE(ScanPublic, ScanTypes);

TYPED_TEST(ScanPublic, SumMaxMinBothStylesBothAlignments) {
  ONEPASS_REQUIRE_GPU();
  check_public_api<TypeParam, onepass::plus>(101);
  check_public_api<TypeParam, onepass::maximum>(202);
  check_public_api<TypeParam, onepass::minimum>(303);
}

TEST(Scan, NonCommutativeOperator) {
  ONEPASS_REQUIRE_GPU();
  check_public_api<affine, compose>(404);
}

TEST(Scan, InPlace) {
  ONEPASS_REQUIRE_GPU();
  for (long long n : {1ll, 4097ll, 1000003ll}) {
    const auto host = random_vector<double>(n, 5 + n);
    device_buffer<double> buf(host);
    onepass::exclusive_scan(buf.get(), n, buf.get(), 0.5, onepass::plus{});
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(first_difference(reference_scan(host, kind::exclusive, 0.5, onepass::plus{}), buf.download()), "");
    onepass::inclusive_scan(buf.get(), n, buf.get(), onepass::maximum{});
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    const auto excl = reference_scan(host, kind::exclusive, 0.5, onepass::plus{});
    EXPECT_EQ(first_difference(reference_scan(excl, kind::inclusive, 0.0, onepass::maximum{}), buf.download()), "");
  }
}

TEST(Scan, ExclusiveInitIsFirstOutputAndSeedsTheRest) {
  ONEPASS_REQUIRE_GPU();
  const std::vector<int> host = {3, 1, 4, 1, 5};
  device_buffer<int> in(host), out(5);
  onepass::exclusive_scan(in.get(), 5, out.get(), 100);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_EQ(out.download(), (std::vector<int>{100, 103, 104, 108, 109}));
}

// Workspace style under stream capture: the captured graph is replayed on new inputs,
// with the same workspace each time. The smaller size takes the single-wave agent, the
// larger the pipelined one, which clears the descriptors its previous replay left.
TEST(Scan, WorkspaceStyleInCudaGraph) {
  ONEPASS_REQUIRE_GPU();
  for (long long size : {3ll * 4096 * 16 + 77, (1ll << 23) + 77}) {
    const long long n = std::min(max_test_items(), size);
    SCOPED_TRACE("n=" + std::to_string(n));
    device_buffer<float> in(n), out(n);
    device_buffer<unsigned char> ws(static_cast<long long>(onepass::scan_workspace_bytes<float>(n)));
    cudaStream_t stream;
    ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaGraph_t graph;
    ONEPASS_CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    onepass::exclusive_scan(in.get(), n, out.get(), 1.0f, onepass::plus{}, workspace{ws.get(), ws.bytes()}, stream);
    ONEPASS_CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec;
    ONEPASS_CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    for (int replay = 0; replay < 3; ++replay) {
      const auto host = random_vector<float>(n, 77 + replay);
      in.upload(host);
      out.poison();
      ONEPASS_CHECK_CUDA(cudaGraphLaunch(exec, stream));
      ONEPASS_CHECK_CUDA(cudaStreamSynchronize(stream));
      EXPECT_EQ(first_difference(reference_scan(host, kind::exclusive, 1.0f, onepass::plus{}), out.download()), "")
          << "replay " << replay;
    }
    ONEPASS_CHECK_CUDA(cudaGraphExecDestroy(exec));
    ONEPASS_CHECK_CUDA(cudaGraphDestroy(graph));
    ONEPASS_CHECK_CUDA(cudaStreamDestroy(stream));
  }
}

// Two scans in flight at once on two streams, each with its own workspace (simple style
// allocates stream-ordered scratch per call). Both sizes launch cooperatively, each grid
// as large as what fits on the GPU: 2^22 + 3 int32 items take the single-wave agent,
// 2^23 + 3 the pipelined one, which clears its own workspace.
TEST(Scan, TwoStreamsAtOnce) {
  ONEPASS_REQUIRE_GPU();
  for (long long size : {(1ll << 22) + 3, (1ll << 23) + 3}) {
    const long long n = std::min(max_test_items(), size);
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto a = random_vector<int>(n, 1), b = random_vector<int>(n, 2);
    device_buffer<int> in_a(a), in_b(b), out_a(n), out_b(n);
    cudaStream_t s1, s2;
    ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    for (int round = 0; round < 4; ++round) {
      onepass::inclusive_scan(in_a.get(), n, out_a.get(), onepass::plus{}, s1);
      onepass::exclusive_scan(in_b.get(), n, out_b.get(), 7, onepass::maximum{}, s2);
    }
    ONEPASS_CHECK_CUDA(cudaStreamSynchronize(s1));
    ONEPASS_CHECK_CUDA(cudaStreamSynchronize(s2));
    EXPECT_EQ(first_difference(reference_scan(a, kind::inclusive, 0, onepass::plus{}), out_a.download()), "");
    EXPECT_EQ(first_difference(reference_scan(b, kind::exclusive, 7, onepass::maximum{}), out_b.download()), "");
    ONEPASS_CHECK_CUDA(cudaStreamDestroy(s1));
    ONEPASS_CHECK_CUDA(cudaStreamDestroy(s2));
  }
}

// --- more than 2^31 items ---------------------------------------------------------------
__host__ __device__ inline int pattern(long long i) {
  unsigned long long x = static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  return static_cast<int>(x % 2001) - 1000;
}
__global__ void fill_pattern(int* p, long long n) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) p[i] = pattern(i);
}
// An inclusive sum scan is right iff out[0] == in[0] and out[i] - out[i-1] == in[i].
__global__ void count_scan_errors(const int* out, long long n, unsigned long long* errors) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) {
    const int step = i == 0 ? out[0] : out[i] - out[i - 1];
    if (step != pattern(i)) atomicAdd(errors, 1ull);
  }
}

TEST(Scan, MoreThan2To31Items) {
  ONEPASS_REQUIRE_GPU();
  const long long n = (1ll << 31) + 1000;
  if (n > max_test_items()) GTEST_SKIP() << "ONEPASS_TEST_MAX_N caps sizes below 2^31";
  std::size_t free_bytes = 0, total = 0;
  ONEPASS_CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < 2 * sizeof(int) * static_cast<std::size_t>(n) + (1ull << 30))
    GTEST_SKIP() << "needs ~18 GB of free GPU memory, " << (free_bytes >> 20) << " MiB free";
  device_buffer<int> in(n), out(n);
  device_buffer<unsigned long long> errors(1);
  ONEPASS_CHECK_CUDA(cudaMemset(errors.get(), 0, 8));
  fill_pattern<<<4096, 256>>>(in.get(), n);
  onepass::inclusive_scan(in.get(), n, out.get());
  count_scan_errors<<<4096, 256>>>(out.get(), n, errors.get());
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_EQ(errors.download()[0], 0ull);
  // The last item against a CPU sum of the same pattern, computed on all host cores.
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<long long> partial(threads, 0);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (long long i = t; i < n; i += threads) partial[t] += pattern(i);
    });
  for (auto& th : pool) th.join();
  long long total_sum = 0;
  for (long long p : partial) total_sum += p;
  int last = 0;
  ONEPASS_CHECK_CUDA(cudaMemcpy(&last, out.get() + (n - 1), sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(last, static_cast<int>(static_cast<unsigned>(total_sum)));
}

// --- stalled tiles ----------------------------------------------------------------------
// stall_some_tiles (support/test_support.cuh) stalls chosen tiles' publications.

// The production row for T with the pipelined agent forced at every size (normally it
// takes over from four tiles per resident block), so small inputs, and hence the
// compute-sanitizer runs, exercise it too; the L2 prefetch is forced on as well, three
// tiles ahead, so it reaches the partial last tile and the end of the array.
template <class T>
struct forced_pipeline {
  static constexpr tuning::scan_tuning value = [] {
    tuning::scan_tuning t = tuning::default_scan_tuning<T>::value;
    t.pipeline_min_tiles_per_block = 0;
    t.single_wave = false;
    t.l2_prefetch_bytes = 3ll * t.tile_items() * static_cast<long long>(sizeof(T));
    t.l2_prefetch_min_input_bytes = 0;
    return t;
  }();
};

// The same with the lookback reading 4 descriptors a lane (windows of 128 tiles) and 8
// for each block's first tile (256), so the window's folding across lanes and within a
// lane, and its waits, are tested too, for the first tiles' window as well.
template <class T>
struct forced_pipeline_wide_lookback {
  static constexpr tuning::scan_tuning value = [] {
    tuning::scan_tuning t = forced_pipeline<T>::value;
    t.pipeline_lookback_tiles_per_lane = 4;
    t.pipeline_first_lookback_tiles_per_lane = 8;
    return t;
  }();
};

// The pipelined agent as it ran before it cleared its own workspace: a memset of the
// descriptors and the counter, then a normal launch (the production rows clear in the
// kernel, launched cooperatively).
template <class T>
struct forced_pipeline_memset {
  static constexpr tuning::scan_tuning value = [] {
    tuning::scan_tuning t = forced_pipeline<T>::value;
    t.pipeline_clears_workspace = false;
    return t;
  }();
};

// The one-tile-per-block agent (not the single-wave one) with the L2 prefetch forced on
// at every size.
template <class T>
struct forced_prefetch_one_tile {
  static constexpr tuning::scan_tuning value = [] {
    tuning::scan_tuning t = tuning::default_scan_tuning<T>::value;
    t.pipelined = false;
    t.single_wave = false;
    t.l2_prefetch_bytes = 2ll * t.tile_items() * static_cast<long long>(sizeof(T));
    t.l2_prefetch_min_input_bytes = 0;
    return t;
  }();
};

template <class T, class Op, class Tuning = void>
void check_stalled(long long n, Op op) {
  const auto host = random_vector<T>(n, 99 + n);
  device_buffer<T> in(host), out(n);
  device_buffer<unsigned char> ws(static_cast<long long>(onepass::scan_workspace_bytes<T>(n)));
  std::mt19937_64 rng(n);
  const T init = random_value<T>(rng);
  for (unsigned salt = 0; salt < 3; ++salt) {
    out.poison();
    onepass::detail::scan_dispatch<true, Tuning>(in.get(), n, out.get(), init, op,
                                                  workspace{ws.get(), ws.bytes()}, nullptr, stall_some_tiles{salt});
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(first_difference(reference_scan(host, kind::exclusive, init, op), out.download()), "")
        << type_name<T>() << " salt " << salt;
  }
}

TEST(ScanStress, StalledTilesNeitherDeadlockNorReadStaleValues) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), (1ll << 22) + 17);
  check_stalled<unsigned>(n, onepass::plus{});        // one-word descriptors
  check_stalled<double>(n, onepass::plus{});          // two-word descriptors
  check_stalled<affine>(n, compose{});                // two words, order-sensitive
  // The pipelined agent publishes a tile's aggregate a step before its lookback: stall
  // both publications there too.
  check_stalled<unsigned, onepass::plus, forced_pipeline<unsigned>>(n, onepass::plus{});
  check_stalled<double, onepass::plus, forced_pipeline<double>>(n, onepass::plus{});
  check_stalled<affine, compose, forced_pipeline<affine>>(n, compose{});
  check_stalled<unsigned, onepass::plus, forced_prefetch_one_tile<unsigned>>(n, onepass::plus{});
  check_stalled<unsigned, onepass::plus, forced_pipeline_wide_lookback<unsigned>>(n, onepass::plus{});
  check_stalled<affine, compose, forced_pipeline_wide_lookback<affine>>(n, compose{});
  check_stalled<unsigned, onepass::plus, forced_pipeline_memset<unsigned>>(n, onepass::plus{});
  check_stalled<affine, compose, forced_pipeline_memset<affine>>(n, compose{});
}

// --- the pipelined agent (and the prefetching one-tile agent) at every size --------------
template <class T, class Op, template <class> class Tuning = forced_pipeline>
void check_pipelined(std::uint64_t seed, std::vector<long long> extra_sizes = {}) {
  using plan = onepass::detail::scan_plan<T, Tuning<T>>;
  const long long tile = plan::tile_items;
  std::vector<long long> sizes = {1, 2, 3, 31, 33, tile - 1, tile, tile + 1, 2 * tile + 3, 7 * tile - 5,
                                  100 * tile + 1, (1ll << 23) + 5};
  sizes.insert(sizes.end(), extra_sizes.begin(), extra_sizes.end());
  for (long long n : sizes) {
    if (n > max_test_items()) continue;
    const std::vector<T> host_in = random_vector<T>(n, seed + n);
    device_buffer<T> in(host_in), out(n + 1);
    device_buffer<unsigned char> ws(static_cast<long long>(plan::workspace_bytes(n)));
    std::mt19937_64 rng(seed ^ n);
    const T init = random_value<T>(rng);
    for (kind k : {kind::inclusive, kind::exclusive}) {
      for (bool in_place : {false, true}) {
        SCOPED_TRACE(std::string(type_name<T>()) + " " + kind_name(k) + " n=" + std::to_string(n) +
                     (in_place ? " in place" : ""));
        out.poison();
        fill_with_stale_descriptors(ws);
        if (in_place) ONEPASS_CHECK_CUDA(cudaMemcpy(out.get(), in.get(), n * sizeof(T), cudaMemcpyDeviceToDevice));
        const T* src = in_place ? out.get() : in.get();
        const workspace w{ws.get(), ws.bytes()};
        if (k == kind::inclusive)
          onepass::detail::scan_dispatch<false, Tuning<T>>(src, n, out.get(), init, Op{}, w, nullptr);
        else
          onepass::detail::scan_dispatch<true, Tuning<T>>(src, n, out.get(), init, Op{}, w, nullptr);
        ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
        const std::vector<T> all = out.download(n + 1);
        const unsigned char* guard = reinterpret_cast<const unsigned char*>(&all[n]);
        for (std::size_t b = 0; b < sizeof(T); ++b) ASSERT_EQ(guard[b], 0xA5) << "wrote past the output";
        const std::vector<T> got(all.begin(), all.begin() + n);
        EXPECT_EQ(first_difference(reference_scan(host_in, k, init, Op{}), got), "");
      }
    }
  }
}

TEST(ScanPipelined, EverySizeTypeAndKindInPlaceOrNot) {
  ONEPASS_REQUIRE_GPU();
  check_pipelined<int, onepass::plus>(1);
  check_pipelined<unsigned, onepass::maximum>(2);
  check_pipelined<float, onepass::plus>(3);
  check_pipelined<long long, onepass::minimum>(4);
  check_pipelined<double, onepass::plus>(5);
  check_pipelined<affine, compose>(6);  // non-commutative: any reordering shows
  check_pipelined<int, onepass::plus, forced_pipeline_wide_lookback>(7);
  check_pipelined<affine, compose, forced_pipeline_wide_lookback>(8);
  check_pipelined<int, onepass::plus, forced_pipeline_memset>(9);
  check_pipelined<affine, compose, forced_pipeline_memset>(10);
}

TEST(ScanPrefetch, OneTileAgentEverySizeAndKindInPlaceOrNot) {
  ONEPASS_REQUIRE_GPU();
  check_pipelined<int, onepass::plus, forced_prefetch_one_tile>(11);
  check_pipelined<double, onepass::plus, forced_prefetch_one_tile>(12);
  check_pipelined<affine, compose, forced_prefetch_one_tile>(13);
}

// The production tuning, whose single-wave agent (one cooperative launch, a grid barrier
// instead of the lookback) takes every input whose tiles fit on the GPU at once: the
// sizes around that limit run it at its largest and the lookback agents just past it.
template <class T, class Op>
void check_single_wave(std::uint64_t seed) {
  using plan = onepass::detail::scan_plan<T>;
  const long long most = std::min(onepass::detail::single_wave_max_tiles<false, void, T, Op>(true),
                                  onepass::detail::single_wave_max_tiles<true, void, T, Op>(true));
  ASSERT_GT(most, 0);
  const long long limit = most * plan::tile_items;
  check_pipelined<T, Op, tuning::default_scan_tuning>(seed, {limit - 1, limit, limit + 1});
}

TEST(ScanSingleWave, EverySizeTypeAndKindInPlaceOrNotUpToItsLimit) {
  ONEPASS_REQUIRE_GPU();
  check_single_wave<int, onepass::plus>(21);
  check_single_wave<unsigned, onepass::maximum>(22);
  check_single_wave<float, onepass::plus>(23);
  check_single_wave<long long, onepass::minimum>(24);
  check_single_wave<double, onepass::plus>(25);
  check_single_wave<affine, compose>(26);  // non-commutative: the in-order fold shows
}

// --- bad input on the GPU: nothing is written ----------------------------------------------
TEST(Scan, HostMemoryIsRejectedAndNothingIsWritten) {
  ONEPASS_REQUIRE_GPU();
  std::vector<int> host(1000, 1);
  device_buffer<int> out(1000);
  try {
    onepass::inclusive_scan(host.data(), 1000, out.get());
    FAIL() << "expected onepass::invalid_argument";
  } catch (const onepass::invalid_argument& e) {
    EXPECT_EQ(e.argument(), "in");
    EXPECT_NE(std::string(e.what()).find("host memory"), std::string::npos) << e.what();
  }
  int* pinned = nullptr;
  ONEPASS_CHECK_CUDA(cudaMallocHost(&pinned, 1000 * sizeof(int)));
  device_buffer<int> in(1000);
  EXPECT_THROW(onepass::exclusive_scan(in.get(), 1000, pinned, 0), onepass::invalid_argument);
  ONEPASS_CHECK_CUDA(cudaFreeHost(pinned));
  // Too small a workspace: rejected before anything runs.
  device_buffer<unsigned char> ws(8);
  EXPECT_THROW(onepass::inclusive_scan(in.get(), 1000, out.get(), onepass::plus{}, workspace{ws.get(), 8}, nullptr),
               onepass::invalid_argument);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  for (int v : out.download()) ASSERT_EQ(static_cast<unsigned>(v), 0xA5A5A5A5u) << "output was written";
}

}  // namespace
}  // namespace onepass::test
