// The fused RMSNorm through its public API: float and bfloat16, widths on both sides of
// every shape boundary and of the two-pass fallback, the 128-bit and the scalar paths,
// in place, blocks that loop over rows, eps 0 and large, CUDA-graph capture, bitwise
// repeatability, more than 2^31 rows, and the argument checks (the host-only ones run
// without a GPU: they must fail before any CUDA call).
#include <cuda_bf16.h>

#include <random>

#include "onepass/rms_norm.cuh"
#include "support/cuda_call_counter.hpp"
#include "support/rms_norm_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

using bf16 = __nv_bfloat16;

// Random, never zero. Row kinds by (row + width) % 5, so even a one-row case meets each
// kind at some width:
//   0 ordinary: |x| in [0.25, 2], random sign;
//   1 large: the same times 2^50 (squares ~2^100: far from float's 2^128 at 40000 per row);
//   2 tiny: times 2^-50; mean(x^2) ~ 2^-100 vanishes next to eps = 1e-6;
//   3 eps-sized: times 2^-10; mean(x^2) ~ 1e-6, the same order as eps;
//   4 one dominant element: the row at 2^-6, one element at 2^8 (its square >= 2^12, the
//     rest of a 40000-wide row < 40), at a random column or at the last: if the kernel
//     missed that element, every y of the row would be ~4x off, bfloat16 included.
template <class T>
std::vector<T> make_rows(long long rows, long long width, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> magnitude(0.25, 2.0);
  auto value = [&](double scale) {
    const double m = magnitude(rng) * scale;
    return rms_from_double<T>((rng() & 1) ? -m : m);
  };
  std::vector<T> v(static_cast<std::size_t>(rows * width));
  for (long long r = 0; r < rows; ++r) {
    const int kind = static_cast<int>((r + width) % 5);
    const double scale = kind == 1 ? 0x1p50 : kind == 2 ? 0x1p-50 : kind == 3 ? 0x1p-10 : kind == 4 ? 0x1p-6 : 1.0;
    for (long long j = 0; j < width; ++j) v[r * width + j] = value(scale);
    if (kind == 4) {
      const long long at = (r / 5) % 2 ? static_cast<long long>(rng() % width) : width - 1;
      v[r * width + at] = value(0x1p8);
    }
  }
  return v;
}

template <class T>
std::vector<T> make_weight(long long width, std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x9E3779B97F4A7C15ull);
  std::uniform_real_distribution<double> magnitude(0.25, 2.0);
  std::vector<T> w(static_cast<std::size_t>(width));
  for (auto& v : w) {
    const double m = magnitude(rng);
    v = rms_from_double<T>((rng() & 1) ? -m : m);
  }
  return w;
}

// The n + 1 items of a device buffer holding `data` at [offset, offset + n) and one
// filler item at the other end.
template <class T>
std::vector<T> with_offset(const std::vector<T>& data, int offset) {
  std::vector<T> v(data.size() + 1, rms_from_double<T>(1.0));
  std::copy(data.begin(), data.end(), v.begin() + offset);
  return v;
}

template <class T>
bool is_poison(const T& item) {
  const auto* b = reinterpret_cast<const unsigned char*>(&item);
  for (std::size_t i = 0; i < sizeof(T); ++i)
    if (b[i] != 0xA5) return false;
  return true;
}

// Tuning::value replaced in tests: max_blocks 3 makes every block loop over rows.
template <class T>
struct three_blocks {
  static constexpr tuning::rms_norm_tuning value = [] {
    tuning::rms_norm_tuning t = tuning::rms_norm_tuning_for_size(sizeof(T));
    t.max_blocks = 3;
    return t;
  }();
};

// Every knob of the tuning on: the weight loaded before the reduction, evict-first
// stores, 8 values per thread (256 -> a warp x 8, 1000 -> 128 x 8, 4096 -> 512 x 8,
// 5000 -> 1024 x 8) and, for the block-per-row shapes, __launch_bounds__' minimum blocks
// per SM (the registers capped at 32; the warp shape's scalar path would spill there).
template <class T>
struct every_knob {
  static constexpr tuning::rms_norm_tuning value = [] {
    tuning::rms_norm_tuning t = tuning::rms_norm_tuning_for_size(sizeof(T));
    t.shapes[0] = {256, 32, 8};
    t.shapes[1] = {128, 128, 8, 16};
    t.shapes[2] = {256, 256, 8, 8};
    t.shapes[3] = {512, 512, 8, 4};
    t.shapes[4] = {1024, 1024, 8, 1};
    t.shapes[5] = {1024, 1024, 16, 1};
    t.shape_count = 6;
    t.weight_early = true;
    t.streaming_stores = true;
    return t;
  }();
};

// Runs y = rms_norm(x) on rows x width at `offset` items past a 256-byte-aligned
// allocation (offset 1: no 128-bit access possible, the scalar path) and checks every
// element against the float64 reference and the one item outside y against writes.
template <class T, class Tuning = void>
void check_case(long long rows, long long width, int offset, float eps, std::uint64_t seed,
                bool in_place = false) {
  SCOPED_TRACE(std::string(rms_norm_type_name<T>()) + " rows=" + std::to_string(rows) + " width=" +
               std::to_string(width) + " offset=" + std::to_string(offset) + " eps=" + std::to_string(eps) +
               (in_place ? " in place" : ""));
  const long long n = rows * width;
  const std::vector<T> hx = make_rows<T>(rows, width, seed);
  const std::vector<T> hw = make_weight<T>(width, seed);
  device_buffer<T> x(with_offset(hx, offset)), w(with_offset(hw, offset)), out(in_place ? 0 : n + 1);
  T* y = in_place ? x.get() : out.get();
  if constexpr (std::is_void_v<Tuning>)
    onepass::rms_norm(x.get() + offset, w.get() + offset, y + offset, rows, width, eps);
  else
    detail::rms_norm_dispatch<T, Tuning>(x.get() + offset, w.get() + offset, y + offset, rows, width, eps, nullptr);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<T> all = in_place ? x.download() : out.download();
  if (!in_place) EXPECT_TRUE(is_poison(all[offset == 0 ? n : 0])) << "wrote outside y";
  EXPECT_EQ(rms_norm_check(hx.data(), hw.data(), all.data() + offset, rows, width, eps), "");
}

// Both sides of every shape's capacity (512 | 2048 | 4096 | 8192 | 16384), the two-pass
// fallback (16385, 40000), and widths that are not multiples of the vector width.
const long long widths[] = {1,    2,    31,   32,   33,   127,  128,  129,   512,   513,  1000,
                            1024, 1025, 2048, 2049, 4096, 8191, 8192, 16384, 16385, 40000};

template <class T>
class RmsNorm : public ::testing::Test {};
using RmsNormTypes = ::testing::Types<float, bf16>;
TYPED_TEST_SUITE(RmsNorm, RmsNormTypes);

TYPED_TEST(RmsNorm, EveryWidthRowCountAndAlignment) {
  ONEPASS_REQUIRE_GPU();
  for (long long width : widths)
    for (long long rows : {1ll, 3ll, 257ll})
      for (int offset : {0, 1}) {
        if (rows * width > max_test_items()) continue;
        check_case<TypeParam>(rows, width, offset, 1e-6f, 1000 * width + rows);
      }
}

TYPED_TEST(RmsNorm, EpsZeroAndLarge) {
  ONEPASS_REQUIRE_GPU();
  for (long long width : {100ll, 4096ll, 40000ll})
    for (float eps : {0.f, 0.5f}) check_case<TypeParam>(10, width, 0, eps, 7 + width);
}

TYPED_TEST(RmsNorm, InPlace) {
  ONEPASS_REQUIRE_GPU();
  for (long long width : {33ll, 1000ll, 4096ll, 40000ll})
    for (int offset : {0, 1}) check_case<TypeParam>(17, width, offset, 1e-6f, 3 + width, true);
}

// Three blocks for 257 rows: every block loops, reusing its weight registers and
// alternating its two reduction storages.
TYPED_TEST(RmsNorm, BlocksLoopOverRows) {
  ONEPASS_REQUIRE_GPU();
  for (long long width : {100ll, 1000ll, 4096ll, 16384ll, 40000ll})
    for (int offset : {0, 1}) check_case<TypeParam, three_blocks<TypeParam>>(257, width, offset, 1e-6f, 11 + width);
}

// Warp per row (33, 256), block per row at 8 and 16 values per thread, the two-pass
// kernel (40000); the 128-bit and the scalar paths.
TYPED_TEST(RmsNorm, EveryKnobOn) {
  ONEPASS_REQUIRE_GPU();
  for (long long width : {33ll, 256ll, 512ll, 1000ll, 4096ll, 5000ll, 16384ll, 40000ll})
    for (int offset : {0, 1}) check_case<TypeParam, every_knob<TypeParam>>(37, width, offset, 1e-6f, 13 + width);
}

// The reduction order is fixed: the same input gives the same bits every run.
TYPED_TEST(RmsNorm, BitwiseRepeatable) {
  ONEPASS_REQUIRE_GPU();
  using T = TypeParam;
  for (long long width : {4096ll, 40000ll}) {
    const long long rows = 64, n = rows * width;
    device_buffer<T> x(make_rows<T>(rows, width, 5)), w(make_weight<T>(width, 5)), y1(n), y2(n);
    onepass::rms_norm(x.get(), w.get(), y1.get(), rows, width, 1e-6f);
    onepass::rms_norm(x.get(), w.get(), y2.get(), rows, width, 1e-6f);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    const auto a = y1.download(), b = y2.download();
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(T)), 0) << "width " << width;
  }
}

// No scratch memory, no synchronisation: one call captures into a graph, and the graph
// replays on new inputs.
TEST(RmsNormGraph, CapturedCallReplays) {
  ONEPASS_REQUIRE_GPU();
  const long long rows = 100, width = 4096, n = rows * width;
  device_buffer<float> x(n), w(width), y(n);
  cudaStream_t stream;
  ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  ONEPASS_CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  onepass::rms_norm(x.get(), w.get(), y.get(), rows, width, 1e-6f, stream);
  ONEPASS_CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  ONEPASS_CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 3; ++replay) {
    const auto hx = make_rows<float>(rows, width, 50 + replay);
    const auto hw = make_weight<float>(width, 60 + replay);
    x.upload(hx);
    w.upload(hw);
    y.poison();
    ONEPASS_CHECK_CUDA(cudaGraphLaunch(exec, stream));
    ONEPASS_CHECK_CUDA(cudaStreamSynchronize(stream));
    EXPECT_EQ(rms_norm_check(hx.data(), hw.data(), y.download().data(), rows, width, 1e-6f), "")
        << "replay " << replay;
  }
  ONEPASS_CHECK_CUDA(cudaGraphExecDestroy(exec));
  ONEPASS_CHECK_CUDA(cudaGraphDestroy(graph));
  ONEPASS_CHECK_CUDA(cudaStreamDestroy(stream));
}

// 2^31 + 77 rows of one bfloat16 (4 GiB each for x and y): 64-bit row indices. x repeats
// a 251-item pattern, moved in chunks so host memory stays small; the first 251 rows are
// checked against the reference and every later row must equal, bit for bit, the first
// row with the same input.
TEST(RmsNormHuge, MoreThan2To31Rows) {
  ONEPASS_REQUIRE_GPU();
  const long long rows = (1ll << 31) + 77;
  if (rows > max_test_items()) GTEST_SKIP() << "ONEPASS_TEST_MAX_N is below " << rows;
  std::size_t free_bytes = 0, total_bytes = 0;
  ONEPASS_CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < 2 * sizeof(bf16) * static_cast<std::size_t>(rows) + (256u << 20))
    GTEST_SKIP() << "needs " << 4 * rows / (1 << 20) << " MiB of device memory";
  constexpr long long period = 251, chunk = period * (1 << 17);
  const std::vector<bf16> pattern = make_rows<bf16>(period, 1, 99);
  const std::vector<bf16> w = make_weight<bf16>(1, 99);
  std::vector<bf16> buffer(static_cast<std::size_t>(chunk));
  for (long long i = 0; i < chunk; ++i) buffer[i] = pattern[i % period];
  device_buffer<bf16> x(rows), y(rows), dw(w);
  for (long long at = 0; at < rows; at += chunk)
    ONEPASS_CHECK_CUDA(cudaMemcpy(x.get() + at, buffer.data(), sizeof(bf16) * std::min(chunk, rows - at),
                                  cudaMemcpyHostToDevice));
  onepass::rms_norm(x.get(), dw.get(), y.get(), rows, 1, 1e-6f);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<std::uint16_t> first(period);
  for (long long at = 0; at < rows; at += chunk) {
    const long long count = std::min(chunk, rows - at);
    ONEPASS_CHECK_CUDA(cudaMemcpy(buffer.data(), y.get() + at, sizeof(bf16) * count, cudaMemcpyDeviceToHost));
    if (at == 0) {
      ASSERT_EQ(rms_norm_check(pattern.data(), w.data(), buffer.data(), period, 1, 1e-6f), "");
      std::memcpy(first.data(), buffer.data(), sizeof(bf16) * period);
    }
    for (long long i = 0; i < count; ++i) {
      std::uint16_t bits;
      std::memcpy(&bits, &buffer[i], sizeof bits);
      ASSERT_EQ(bits, first[(at + i) % period]) << "row " << at + i;
    }
  }
}

// Host memory is refused after the host-side checks pass, and nothing is written.
TEST(RmsNormHostMemory, IsRefusedAndNothingIsWritten) {
  ONEPASS_REQUIRE_GPU();
  std::vector<float> host(64, 1.f);
  device_buffer<float> w(16), y(64);
  try {
    onepass::rms_norm(static_cast<const float*>(host.data()), w.get(), y.get(), 4, 16, 1e-6f);
    ADD_FAILURE() << "expected onepass::invalid_argument";
  } catch (const onepass::invalid_argument& e) {
    EXPECT_EQ(e.argument(), "x") << e.what();
  }
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  for (const float& v : y.download()) ASSERT_TRUE(is_poison(v)) << "wrote y";
}

// --- argument checks: no GPU needed ------------------------------------------------------
// Fake device addresses, never dereferenced: every case fails before the first CUDA call,
// which is what lets these run (and pass) on a machine without a GPU.
const float* in(std::uintptr_t address) { return reinterpret_cast<const float*>(address); }
float* out(std::uintptr_t address) { return reinterpret_cast<float*>(address); }
constexpr std::uintptr_t X = 0x100000, W = 0x200000, Y = 0x300000;

// The fixture checks that claim: support/cuda_call_counter.hpp.
using RmsNormValidation = no_cuda_calls;

TEST_F(RmsNormValidation, Counts) {
  expect_rejected([] { onepass::rms_norm(in(X), in(W), out(Y), -1, 16, 1e-6f); }, "rows", "negative");
  expect_rejected([] { onepass::rms_norm(in(X), in(W), out(Y), 4, 0, 1e-6f); }, "width", "is 0");
  expect_rejected([] { onepass::rms_norm(in(X), in(W), out(Y), 4, -3, 1e-6f); }, "width", "negative");
  expect_rejected([] { onepass::rms_norm(in(X), in(W), out(Y), 1ll << 40, 1ll << 30, 1e-6f); }, "rows", "overflows");
  expect_rejected([] { onepass::rms_norm(in(X), in(W), out(Y), 3, (1ll << 62) / 3, 1e-6f); }, "rows", "overflows");
}

TEST_F(RmsNormValidation, Eps) {
  expect_rejected([] { onepass::rms_norm(in(X), in(W), out(Y), 4, 16, -1e-6f); }, "eps", "finite eps >= 0");
  expect_rejected([] { onepass::rms_norm(in(X), in(W), out(Y), 4, 16, std::numeric_limits<float>::quiet_NaN()); },
                  "eps", "finite");
  expect_rejected([] { onepass::rms_norm(in(X), in(W), out(Y), 4, 16, std::numeric_limits<float>::infinity()); },
                  "eps", "finite");
}

TEST_F(RmsNormValidation, NullAndMisalignedPointers) {
  expect_rejected([] { onepass::rms_norm(in(0), in(W), out(Y), 4, 16, 1e-6f); }, "x", "null");
  expect_rejected([] { onepass::rms_norm(in(X), in(0), out(Y), 4, 16, 1e-6f); }, "weight", "null");
  expect_rejected([] { onepass::rms_norm(in(X), in(W), out(0), 4, 16, 1e-6f); }, "y", "null");
  expect_rejected([] { onepass::rms_norm(in(X + 2), in(W), out(Y), 4, 16, 1e-6f); }, "x", "aligned");
  const auto* bx = reinterpret_cast<const bf16*>(X);
  auto* by = reinterpret_cast<bf16*>(Y + 1);
  expect_rejected([&] { onepass::rms_norm(bx, bx, by, 4, 16, 1e-6f); }, "y", "aligned");
}

TEST_F(RmsNormValidation, Overlap) {
  // y == x is in place; y one row further overlaps x partially.
  expect_rejected([] { onepass::rms_norm(in(X), in(W), out(X + 4 * 16), 4, 16, 1e-6f); }, "y", "overlaps 'x'");
  expect_rejected([] { onepass::rms_norm(in(X + 4 * 16), in(W), out(X), 4, 16, 1e-6f); }, "y", "overlaps 'x'");
  expect_rejected([] { onepass::rms_norm(in(X), in(Y + 4 * 63), out(Y), 4, 16, 1e-6f); }, "y", "overlaps 'weight'");
  expect_rejected([] { onepass::rms_norm(in(X), in(Y), out(Y), 4, 16, 1e-6f); }, "y", "overlaps 'weight'");
}

// Zero rows: nothing happens, not even a CUDA call (so this passes without a GPU too).
TEST_F(RmsNormValidation, ZeroRowsDoNothing) {
  EXPECT_NO_THROW(onepass::rms_norm(in(0), in(0), out(0), 0, 16, 1e-6f));
  EXPECT_NO_THROW(onepass::rms_norm(in(0), in(0), out(0), 0, 0, 1e-6f));
  expect_rejected([] { onepass::rms_norm(in(0), in(0), out(0), 0, 16, -1.f); }, "eps", "finite");
}

}  // namespace
}  // namespace onepass::test
