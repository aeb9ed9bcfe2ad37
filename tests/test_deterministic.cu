// The deterministic scan and reduce (onepass::determinism::run_to_run and gpu_to_gpu),
// and the committed hashes of the segmented scan too (its other tests:
// tests/test_segmented_deterministic.cu):
// exact on data whose every grouping is exact, the same bits run after run while other
// work floods the GPU, the same bits whatever the pointers' alignment (and, for the scan,
// with stalled tiles), the same bits as the committed hashes written on another GPU
// model; integers untouched; items the scan cannot order refused before anything runs.
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <random>

#include "onepass/reduce.cuh"
#include "onepass/scan.cuh"
#include "onepass/segmented_scan.cuh"
#include "support/deterministic_support.cuh"

namespace onepass::test {
namespace {

using onepass::determinism;
using plan_f = onepass::detail::deterministic_scan_plan<float>;

template <class T, class Op>
void call(const T* in, long long n, T* out, kind k, T init, Op op, determinism d, bool workspace_style,
          cudaStream_t stream) {
  if (!workspace_style) {
    if (k == kind::inclusive) onepass::inclusive_scan(in, n, out, op, d, stream);
    else onepass::exclusive_scan(in, n, out, init, op, d, stream);
    return;
  }
  device_buffer<unsigned char> ws(static_cast<long long>(onepass::scan_workspace_bytes<T>(n, d)));
  const workspace w{ws.get(), ws.bytes()};
  if (k == kind::inclusive) onepass::inclusive_scan(in, n, out, op, d, w, stream);
  else onepass::exclusive_scan(in, n, out, init, op, d, w, stream);
  throw_if(cudaStreamSynchronize(stream), "sync");  // before ws is freed
}

// 0, 1, the warp edges, the tile edges, the group edges (256 tiles), a few groups and a
// random size: every path of the fixed-order lookback (group 0 without a previous PREFIX,
// a group's first tile with only the previous PREFIX, its last tile that publishes one).
std::vector<long long> deterministic_sizes(long long tile) {
  const long long group = 32ll * plan_f::tiles_per_lane * tile;
  std::mt19937_64 rng(77);
  return capped_sorted_sizes({0, 1, 31, 32, 33, tile - 1, tile, tile + 1, 5 * tile + 3, group - 1, group,
                              group + 1, group + tile, 3 * group + 5, 1 + static_cast<long long>(rng() % (1 << 22))});
}

// Exact data (reference.hpp: every grouping gives the same bits) and the order-sensitive
// affine maps: the fixed order is a correct scan, in both styles and both alignments.
template <class T, class Op>
void check_exact(Op op, std::uint64_t seed) {
  const long long tile = onepass::detail::deterministic_scan_plan<T>::tile_items;
  for (long long n : deterministic_sizes(tile)) {
    const std::vector<T> host_in = random_vector<T>(n + 1, seed + n);
    device_buffer<T> in(host_in), out(n + 1);
    std::mt19937_64 rng(seed * 3 + n);
    const T init = random_value<T>(rng);
    for (kind k : {kind::inclusive, kind::exclusive}) {
      for (int offset : {0, 1}) {
        const std::vector<T> src(host_in.begin() + offset, host_in.begin() + offset + n);
        const bool ws_style = (n + offset + (k == kind::inclusive)) % 2 == 0;
        SCOPED_TRACE(std::string(type_name<T>()) + " " + kind_name(k) + " n=" + std::to_string(n) + " offset=" +
                     std::to_string(offset) + (ws_style ? " workspace" : " simple"));
        out.poison();
        call(in.get() + offset, n, out.get() + offset, k, init, op, determinism::gpu_to_gpu, ws_style, nullptr);
        ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
        const std::vector<T> all = out.download(n + 1);
        const std::vector<T> got(all.begin() + offset, all.begin() + offset + n);
        const unsigned char* guard = reinterpret_cast<const unsigned char*>(&all[offset == 0 ? n : 0]);
        for (std::size_t b = 0; b < sizeof(T); ++b) ASSERT_EQ(guard[b], 0xA5) << "wrote outside the output";
        EXPECT_EQ(first_difference(reference_scan(src, k, init, op), got), "");
      }
    }
  }
}

TEST(ScanDeterministic, ExactDataAndNonCommutativeMapsMatchTheReference) {
  ONEPASS_REQUIRE_GPU();
  check_exact<float>(onepass::plus{}, 1);
  check_exact<double>(onepass::plus{}, 2);
  check_exact<float>(onepass::maximum{}, 3);
  check_exact<affine>(compose{}, 4);
}

template <class T>
std::vector<T> scan_once(const device_buffer<T>& in, long long offset_in, device_buffer<T>& out, long long offset_out,
                         long long n, kind k, determinism d, cudaStream_t stream) {
  out.poison();
  call(in.get() + offset_in, n, out.get() + offset_out, k, T{0.5}, onepass::plus{}, d, true, stream);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  const std::vector<T> all = out.download(n + offset_out);
  return std::vector<T>(all.begin() + offset_out, all.end());
}

// 100 runs while another stream floods the GPU: every run the bits of the first.
template <class T>
void check_repeatable(long long n, int runs) {
  const std::vector<T> host = rounding_vector<T>(n, 5 + n);
  device_buffer<T> in(host), out(n);
  device_buffer<float> noise(1ll << 26);
  cudaStream_t scan_stream = nullptr, flood_stream = nullptr;
  ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&scan_stream, cudaStreamNonBlocking));
  ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&flood_stream, cudaStreamNonBlocking));
  for (kind k : {kind::inclusive, kind::exclusive}) {
    const std::vector<T> first = scan_once(in, 0, out, 0, n, k, determinism::gpu_to_gpu, scan_stream);
    for (int r = 1; r < runs; ++r) {
      // Varying amounts of other work, so the scan's tiles meet different timings.
      flood<<<64 + 37 * (r % 7), 256, 0, flood_stream>>>(noise.get(), 1ll << 26, 1 + r % 3);
      ASSERT_EQ(cudaGetLastError(), cudaSuccess);
      const std::vector<T> again = scan_once(in, 0, out, 0, n, k, determinism::gpu_to_gpu, scan_stream);
      ASSERT_EQ(std::memcmp(first.data(), again.data(), sizeof(T) * static_cast<std::size_t>(n)), 0)
          << type_name<T>() << " " << kind_name(k) << " n=" << n << ": run " << r << " differs from run 0; "
          << first_difference(first, again);
    }
  }
  ONEPASS_CHECK_CUDA(cudaStreamSynchronize(flood_stream));
  ONEPASS_CHECK_CUDA(cudaStreamDestroy(scan_stream));
  ONEPASS_CHECK_CUDA(cudaStreamDestroy(flood_stream));
}

TEST(ScanDeterministic, SameBitsOnEveryRunWhileAnotherStreamFloodsTheGpu) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), (1ll << 24) + 3);
  check_repeatable<float>(n, 100);
  check_repeatable<double>(n, 100);
}

// Misaligned input, output or both: the bits of the aligned call.
template <class T>
void check_alignment(long long n) {
  const std::vector<T> host = rounding_vector<T>(n + 1, 11 + n);
  device_buffer<T> in(host), out(n + 1);
  for (kind k : {kind::inclusive, kind::exclusive}) {
    const std::vector<T> aligned = scan_once(in, 0, out, 0, n, k, determinism::gpu_to_gpu, nullptr);
    // The same n items one element further on, read and written at every alignment pair.
    device_buffer<T> shifted_in(n + 1);
    ONEPASS_CHECK_CUDA(cudaMemcpy(shifted_in.get() + 1, in.get(), sizeof(T) * n, cudaMemcpyDeviceToDevice));
    for (const auto& [in_offset, out_offset] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{1, 1}}) {
      const device_buffer<T>& source = in_offset == 1 ? shifted_in : in;
      const std::vector<T> got = scan_once(source, in_offset, out, out_offset, n, k, determinism::gpu_to_gpu, nullptr);
      EXPECT_EQ(std::memcmp(aligned.data(), got.data(), sizeof(T) * static_cast<std::size_t>(n)), 0)
          << type_name<T>() << " " << kind_name(k) << " n=" << n << " in+" << in_offset << " out+" << out_offset
          << ": " << first_difference(aligned, got);
    }
  }
}

TEST(ScanDeterministic, MisalignedPointersGiveTheAlignedBits) {
  ONEPASS_REQUIRE_GPU();
  for (long long n : {33ll, plan_f::tile_items + 1, 300ll * plan_f::tile_items + 17}) {
    if (n > max_test_items()) continue;
    check_alignment<float>(n);
    check_alignment<double>(n);
  }
}

// run_to_run and gpu_to_gpu run the same path: the same bits.
TEST(ScanDeterministic, RunToRunIsTheSamePath) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), 1000ll * plan_f::tile_items + 9);
  const std::vector<float> host = rounding_vector<float>(n, 21);
  device_buffer<float> in(host), out(n);
  const auto a = scan_once(in, 0, out, 0, n, kind::inclusive, determinism::gpu_to_gpu, nullptr);
  const auto b = scan_once(in, 0, out, 0, n, kind::inclusive, determinism::run_to_run, nullptr);
  EXPECT_EQ(first_difference(a, b), "");
}

// Tiles stalled before their publications: the lookback waits for every descriptor it
// reads, so the bits do not move, and exact data stays exact.
TEST(ScanDeterministic, StalledTilesChangeNothing) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), (1ll << 22) + 17);
  const std::vector<float> host = rounding_vector<float>(n, 31);
  device_buffer<float> in(host), out(n);
  device_buffer<unsigned char> ws(static_cast<long long>(onepass::scan_workspace_bytes<float>(n, determinism::gpu_to_gpu)));
  const auto plain = scan_once(in, 0, out, 0, n, kind::exclusive, determinism::gpu_to_gpu, nullptr);
  for (unsigned salt = 0; salt < 3; ++salt) {
    out.poison();
    onepass::detail::scan_dispatch<true>(in.get(), n, out.get(), 0.5f, onepass::plus{}, workspace{ws.get(), ws.bytes()},
                                         nullptr, stall_some_tiles{salt}, determinism::gpu_to_gpu);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(first_difference(plain, out.download()), "") << "salt " << salt;
  }
  const auto maps = random_vector<affine>(n, 41);
  device_buffer<affine> in_maps(maps), out_maps(n);
  device_buffer<unsigned char> ws_maps(static_cast<long long>(onepass::scan_workspace_bytes<affine>(n, determinism::gpu_to_gpu)));
  for (unsigned salt = 0; salt < 2; ++salt) {
    out_maps.poison();
    onepass::detail::scan_dispatch<false>(in_maps.get(), n, out_maps.get(), affine{1, 0}, compose{},
                                          workspace{ws_maps.get(), ws_maps.bytes()}, nullptr, stall_some_tiles{salt},
                                          determinism::gpu_to_gpu);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(first_difference(reference_scan(maps, kind::inclusive, affine{1, 0}, compose{}), out_maps.download()), "")
        << "salt " << salt;
  }
}

// Integers are exact on every path: the choice changes neither the result nor the workspace.
TEST(ScanDeterministic, IntegersTakeTheFastPath) {
  EXPECT_EQ(onepass::scan_workspace_bytes<int>(1 << 20, determinism::gpu_to_gpu), onepass::scan_workspace_bytes<int>(1 << 20));
  ONEPASS_REQUIRE_GPU();
  const long long n = (1 << 20) + 5;
  const std::vector<int> host = random_vector<int>(n, 51);
  device_buffer<int> in(host), out(n);
  onepass::inclusive_scan(in.get(), n, out.get(), onepass::plus{}, determinism::gpu_to_gpu);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_EQ(first_difference(reference_scan(host, kind::inclusive, 0, onepass::plus{}), out.download()), "");
}

// Items whose size does not divide 16 have no fixed order: refused, naming the argument,
// before anything is allocated or written (no GPU needed).
struct three_floats {
  float x, y, z;
};
struct add_three {
  ONEPASS_HD three_floats operator()(const three_floats& a, const three_floats& b) const {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
  }
};

TEST(ScanDeterministic, ItemsItCannotOrderAreRefused) {
  const three_floats* in = reinterpret_cast<const three_floats*>(alignof(three_floats) * 64);
  three_floats* out = reinterpret_cast<three_floats*>(alignof(three_floats) * 4096);
  try {
    onepass::inclusive_scan(in, 10, out, add_three{}, determinism::run_to_run);
    FAIL() << "no exception";
  } catch (const onepass::invalid_argument& e) {
    EXPECT_EQ(e.argument(), "determinism") << e.what();
  }
  // not_guaranteed is still served (nothing to order), as is every call without the choice.
  EXPECT_GT(onepass::scan_workspace_bytes<three_floats>(10, determinism::not_guaranteed), 0u);
}

// --- the reduce --------------------------------------------------------------------
template <class T, class Op>
T reduce_once(const T* in, long long n, T init, Op op, determinism d, bool workspace_style) {
  device_buffer<T> out(1);
  if (workspace_style) {
    device_buffer<unsigned char> ws(static_cast<long long>(onepass::reduce_workspace_bytes<T>(n, d)));
    onepass::reduce(in, n, out.get(), init, op, d, workspace{ws.get(), ws.bytes()}, nullptr);
    throw_if(cudaDeviceSynchronize(), "sync");  // before ws is freed
  } else {
    onepass::reduce(in, n, out.get(), init, op, d);
  }
  throw_if(cudaDeviceSynchronize(), "sync");
  return out.download(1)[0];
}

// Sizes from one item to many blocks of the fixed grid, at both alignments and in both
// styles: exact data and the affine maps match the sequential fold.
template <class T, class Op>
void check_reduce_exact(Op op, std::uint64_t seed) {
  for (long long n : capped_sorted_sizes({0, 1, 31, 32, 33, 4095, 4097, 65537, (1 << 20) + 3, (1 << 24) + 5})) {
    std::vector<T> host;
    if constexpr (std::is_same_v<T, affine>) host = random_vector<T>(n + 1, seed + n);
    else host = random_reduce_vector<T>(n + 1, seed + n);
    device_buffer<T> in(host);
    std::mt19937_64 rng(seed + 3 * n);
    const T init = std::is_same_v<T, affine> ? random_value<T>(rng) : T{};
    for (int offset : {0, 1}) {
      const std::vector<T> src(host.begin() + offset, host.begin() + offset + n);
      const T got = reduce_once(in.get() + offset, n, init, op, determinism::gpu_to_gpu, (n + offset) % 2 == 0);
      EXPECT_EQ(first_difference(std::vector<T>{reference_reduce(src, init, op)}, std::vector<T>{got}), "")
          << type_name<T>() << " n=" << n << " offset=" << offset;
    }
  }
}

TEST(ReduceDeterministic, ExactDataAndNonCommutativeMapsMatchTheReference) {
  ONEPASS_REQUIRE_GPU();
  check_reduce_exact<float>(onepass::plus{}, 1);
  check_reduce_exact<double>(onepass::plus{}, 2);
  check_reduce_exact<float>(onepass::maximum{}, 3);
  check_reduce_exact<affine>(compose{}, 4);
}

// The same bits at every alignment, run after run, in both styles.
TEST(ReduceDeterministic, SameBitsAtEveryAlignmentAndRun) {
  ONEPASS_REQUIRE_GPU();
  for (long long n : {33ll, (1ll << 20) + 3, (1ll << 24) + 5}) {
    if (n > max_test_items()) continue;
    const std::vector<float> host = rounding_vector<float>(n + 1, 61 + n);
    device_buffer<float> in(host);
    device_buffer<float> shifted(n + 1);
    ONEPASS_CHECK_CUDA(cudaMemcpy(shifted.get() + 1, in.get(), sizeof(float) * n, cudaMemcpyDeviceToDevice));
    const float first = reduce_once(in.get(), n, 0.25f, onepass::plus{}, determinism::gpu_to_gpu, true);
    for (int r = 0; r < 10; ++r) {
      const float again = reduce_once(r % 2 ? shifted.get() + 1 : in.get(), n, 0.25f, onepass::plus{},
                                      determinism::gpu_to_gpu, r % 3 == 0);
      EXPECT_EQ(std::memcmp(&first, &again, sizeof(float)), 0) << "n=" << n << " run " << r;
    }
    // run_to_run is the fast path: its own bits, the same every run.
    const float fast = reduce_once(in.get(), n, 0.25f, onepass::plus{}, determinism::run_to_run, false);
    const float fast_again = reduce_once(in.get(), n, 0.25f, onepass::plus{}, determinism::run_to_run, true);
    EXPECT_EQ(std::memcmp(&fast, &fast_again, sizeof(float)), 0) << "n=" << n;
  }
}

// --- the same bits on every GPU model ------------------------------------------------
// tests/data/deterministic_hashes.txt: one line per case, "<case> <hash>", written by
// this test with ONEPASS_WRITE_HASHES=<file> on one GPU model and checked on the others.
const char* hash_file() { return ONEPASS_SOURCE_DIR "/tests/data/deterministic_hashes.txt"; }

std::map<std::string, std::string> read_hashes() {
  std::map<std::string, std::string> hashes;
  std::ifstream f(hash_file());
  std::string name, hash;
  while (f >> name >> hash) hashes[name] = hash;
  return hashes;
}

template <class T>
void hash_reduce_case(long long n, std::map<std::string, std::string>& got) {
  const std::vector<T> host = rounding_vector<T>(n, 2000 + n);
  device_buffer<T> in(host);
  const T value = reduce_once(in.get(), n, T{0}, onepass::plus{}, determinism::gpu_to_gpu, true);
  std::ostringstream hex;
  hex << std::hex << hash_bytes(&value, sizeof(T));
  got[std::string("reduce_") + type_name<T>() + "_sum_n" + std::to_string(n)] = hex.str();
}

// The segmented scan over CSR offsets (every form gives the same bits:
// tests/test_segmented_deterministic.cu), one long segment and uniform 1-1000 lengths.
template <class T>
void hash_segmented_cases(long long n, std::map<std::string, std::string>& got) {
  for (segment_distribution d : {segment_distribution::one_segment, segment_distribution::uniform_1_1000}) {
    if (n > (1ll << 26) && d == segment_distribution::one_segment) continue;  // (time)
    const segmented_input s(n, d, 3000 + n);
    const device_buffer<T> in(rounding_vector<T>(n, 4000 + n));
    device_buffer<T> out(n);
    for (kind k : {kind::inclusive, kind::exclusive}) {
      const std::vector<T> result = segmented_once(segmented_form::csr, s, in, 0, out, 0, k, nullptr);
      std::ostringstream hex;
      hex << std::hex << hash_bytes(result.data(), sizeof(T) * result.size());
      got[std::string("segmented_scan_") + type_name<T>() + "_" + kind_name(k) + "_sum_" + distribution_name(d) +
          "_n" + std::to_string(n)] = hex.str();
    }
  }
}

template <class T>
void hash_cases(long long n, std::map<std::string, std::string>& got) {
  hash_reduce_case<T>(n, got);
  hash_segmented_cases<T>(n, got);
  const std::vector<T> host = rounding_vector<T>(n, 1000 + n);
  device_buffer<T> in(host), out(n);
  for (kind k : {kind::inclusive, kind::exclusive}) {
    const std::vector<T> result = scan_once(in, 0, out, 0, n, k, determinism::gpu_to_gpu, nullptr);
    std::ostringstream hex;
    hex << std::hex << hash_bytes(result.data(), sizeof(T) * result.size());
    got[std::string("scan_") + type_name<T>() + "_" + kind_name(k) + "_sum_n" + std::to_string(n)] = hex.str();
  }
}

TEST(Deterministic, SameBitsAsTheCommittedHashesFromAnotherGpu) {
  ONEPASS_REQUIRE_GPU();
  std::map<std::string, std::string> got;
  for (long long n : {1ll, 1000ll, (1ll << 16) + 1, (1ll << 20) + 3, (1ll << 24) + 5, 1ll << 26, 1ll << 28}) {
    if (n > max_test_items()) continue;
    hash_cases<float>(n, got);
    hash_cases<double>(n, got);
  }
  if (const char* path = std::getenv("ONEPASS_WRITE_HASHES")) {
    cudaDeviceProp prop{};
    ONEPASS_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::ofstream f(path);
    for (const auto& [name, hash] : got) f << name << " " << hash << "\n";
    std::cout << "wrote " << got.size() << " hashes from " << prop.name << " to " << path << "\n";
  }
  const auto want = read_hashes();
  if (want.empty()) GTEST_SKIP() << "no committed hashes in " << hash_file();
  int compared = 0;
  for (const auto& [name, hash] : got) {
    const auto it = want.find(name);
    if (it == want.end()) continue;
    ++compared;
    EXPECT_EQ(hash, it->second) << name;
  }
  EXPECT_GT(compared, 0) << "none of the committed cases ran (ONEPASS_TEST_MAX_N?)";
}

}  // namespace
}  // namespace onepass::test
