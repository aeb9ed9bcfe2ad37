// rms_norm_tuning_sweep — tries the knobs of the fused RMSNorm's tuning (weight loaded
// before the reduction, evict-first stores of y, 8 values per thread, min_blocks_per_sm,
// 32 bfloat16 per thread) on the table's shapes, for float and bfloat16 at 4096 x 4096
// and at 2^24 items of widths 1024, 2048, 8192 and 16384. Every figure is a fraction of
// the device-to-device copy measured in the same run (bytes: x read, y written, the
// weight once); every variant's output is checked against the float64 reference before
// it is timed. Used to choose include/onepass/tuning/rms_norm_tuning.cuh.
//   rms_norm_tuning_sweep        (no arguments: everything, well under 90 s on an H200)
#include <cuda_bf16.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "baselines.cuh"
#include "gpu.cuh"
#include "onepass/rms_norm.cuh"
#include "support/rms_norm_reference.hpp"

using namespace onepass;
using bf16 = __nv_bfloat16;

namespace {

constexpr float eps = 1e-6f;

// The knobs, applied to the table's shapes for `element_bytes`; each row sets the store
// kind explicitly (the table streams float stores and not bfloat16 ones).
//   per_thread 8:  a block per row with 8 values per thread above 512 (twice the threads:
//                  1024 -> 128 x 8, 2048 -> 256 x 8, 4096 -> 512 x 8, 8192 -> 1024 x 8);
//                  16384 keeps 1024 x 16 (a block has at most 1024 threads).
//   per_thread 32: (bfloat16) four 128-bit loads per thread like float: 4096 -> 128 x 32,
//                  8192 -> 256 x 32, 16384 -> 512 x 32.
//   min_blocks:    for the block-per-row shapes, __launch_bounds__' minimum blocks per
//                  SM = 2048 / block_threads (a full SM: caps the registers at 32; at
//                  1024 threads a 1 would let nvcc take 48, so 2), but 1 for 1024 x 16
//                  with the weight early (at 32 it spills). The warp-per-row shape (no
//                  width here uses it) keeps 0: at 32 registers it spills.
struct knobs {
  int per_thread = 16;
  bool min_blocks = false;
  bool weight_early = false;
  bool streaming = false;
};

constexpr tuning::rms_norm_tuning make_tuning(std::size_t element_bytes, knobs k) {
  tuning::rms_norm_tuning t = tuning::rms_norm_tuning_for_size(element_bytes);
  if (k.per_thread == 8) {
    t.shapes[1] = {128, 128, 8};
    t.shapes[2] = {256, 256, 8};
    t.shapes[3] = {512, 512, 8};
    t.shapes[4] = {1024, 1024, 8};
    t.shapes[5] = {1024, 1024, 16};
    t.shape_count = 6;
  } else if (k.per_thread == 32) {
    t.shapes[2] = {128, 128, 32};
    t.shapes[3] = {256, 256, 32};
    t.shapes[4] = {512, 512, 32};
  }
  if (k.min_blocks)
    for (int i = 1; i < t.shape_count; ++i)
      t.shapes[i].min_blocks_per_sm =
          k.weight_early && t.shapes[i].max_width() == 16384 ? 1 : 2048 / t.shapes[i].block_threads;
  t.weight_early = k.weight_early;
  t.streaming_stores = k.streaming;
  return t;
}

template <class T, int PerThread, bool MinBlocks, bool WeightEarly, bool Streaming>
struct row {
  static constexpr knobs k{PerThread, MinBlocks, WeightEarly, Streaming};
  static constexpr tuning::rms_norm_tuning value = make_tuning(sizeof(T), k);
};

// Counter-based like onepass-bench's rmsnorm input: |v| in [0.25, 2) with a random sign.
template <class T>
std::vector<T> random_rows(long long n, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) {
    const std::uint64_t bits = bench::splitmix64(seed * 0xD1B54A32D192ED03ull + static_cast<std::uint64_t>(i));
    const double m = 0.25 + 1.75 * static_cast<double>(bits >> 11) * 0x1p-53;
    v[static_cast<std::size_t>(i)] = test::rms_from_double<T>((bits & 1) ? -m : m);
  }
  return v;
}

template <class T>
struct sweep {
  long long rows, width, n;
  std::vector<T> hx, hw, got;
  std::vector<double> scale;  // the float64 reference's scale of every row, computed once
  bench::device_array<T> x, w, y;
  double copy_gbps;
  bench::timer& time;
  int failures = 0;

  sweep(long long rows_, long long width_, double copy, bench::timer& t)
      : rows(rows_), width(width_), n(rows_ * width_), hx(random_rows<T>(n, 21)),
        hw(random_rows<T>(width, 21 ^ 0x3C6EF372FE94F82Bull)), got(static_cast<std::size_t>(n)),
        scale(static_cast<std::size_t>(rows)), x(n), w(width), y(n), copy_gbps(copy), time(t) {
    x.upload(hx);
    w.upload(hw);
    for (long long r = 0; r < rows; ++r)
      scale[static_cast<std::size_t>(r)] = test::rms_norm_reference_scale(hx.data() + r * width, width, eps);
    std::printf("%s %lld x %lld\n", test::rms_norm_type_name<T>(), rows, width);
  }

  // rms_norm_check's comparison, with the row scales computed once per sweep.
  std::string check() const {
    const double tol = test::rms_norm_tolerance<T>(width);
    for (long long r = 0; r < rows; ++r)
      for (long long j = 0; j < width; ++j) {
        const long long i = r * width + j;
        const double expected = test::rms_to_double(hx[static_cast<std::size_t>(i)]) *
                                scale[static_cast<std::size_t>(r)] * test::rms_to_double(hw[static_cast<std::size_t>(j)]);
        const double g = test::rms_to_double(got[static_cast<std::size_t>(i)]);
        if (!(std::fabs(g - expected) <= tol * std::fabs(expected))) {
          char buf[200];
          std::snprintf(buf, sizeof buf, "row %lld, column %lld: expected %.9g, got %.9g", r, j, expected, g);
          return buf;
        }
      }
    return {};
  }

  template <class Row>
  void try_row(const char* name) {
    const cudaStream_t s = time.stream();
    // The public call's checks, then the 128-bit path alone (cudaMalloc'd buffers, widths
    // that are multiples of 8), so the sweep instantiates no scalar kernels.
    auto call = [&] {
      detail::check_rms_norm_args<T>(x.get(), w.get(), y.get(), rows, width, eps);
      detail::check_rms_norm_memory<T>(x.get(), w.get(), y.get(), rows, width);
      detail::rms_norm_launch_shape<T, vector_width<T>, Row, 0>(x.get(), w.get(), y.get(), rows, width, eps, s);
    };
    std::string error;
    try {
      ONEPASS_CUDA_TRY(cudaMemsetAsync(y.get(), 0xA5, y.bytes(), s));
      call();
      ONEPASS_CUDA_TRY(cudaMemcpyAsync(got.data(), y.get(), y.bytes(), cudaMemcpyDeviceToHost, s));
      ONEPASS_CUDA_TRY(cudaStreamSynchronize(s));
      error = check();
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) {
      std::printf("  %-28s FAILED: %s\n", name, error.c_str());
      ++failures;
      return;
    }
    const auto t = time.run(call);
    const double bytes = (2.0 * static_cast<double>(n) + static_cast<double>(width)) * sizeof(T);
    const double gbps = bytes / t.median / 1e6;
    std::printf("  %-28s %8.4f ms  %6.1f%% of copy  (min %.4f, max %.4f)\n", name, t.median, 100 * gbps / copy_gbps,
                t.min, t.max);
    std::fflush(stdout);
  }

  void run_all() {
    try_row<row<T, 16, false, false, false>>("16/thread, plain stores");
    try_row<row<T, 16, false, true, false>>("weight_early");
    try_row<row<T, 16, false, false, true>>("16/thread, streaming");
    try_row<row<T, 8, false, false, false>>("8/thread");
    try_row<row<T, 16, true, false, false>>("min_blocks");
    try_row<row<T, 8, true, false, false>>("8/thread+min_blocks");
    try_row<row<T, 16, false, true, true>>("weight_early+streaming");
    try_row<row<T, 8, false, true, false>>("8/thread+weight_early");
    try_row<row<T, 8, false, true, true>>("8/thread+early+streaming");
    try_row<row<T, 8, true, true, true>>("8/thread+all");
    if constexpr (sizeof(T) == 2) {
      try_row<row<T, 32, false, false, false>>("32/thread");
      try_row<row<T, 32, false, false, true>>("32/thread+streaming");
      try_row<row<T, 32, false, true, true>>("32/thread+early+streaming");
    }
  }
};

template <class T>
int sweep_type(double copy_gbps, bench::timer& time) {
  int failures = 0;
  for (long long width : {4096ll, 1024ll, 2048ll, 8192ll, 16384ll}) {
    const long long rows = width == 4096 ? 4096 : (1ll << 24) / width;
    sweep<T> s(rows, width, copy_gbps, time);
    s.run_all();
    failures += s.failures;
  }
  return failures;
}

}  // namespace

int main() try {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "rms_norm_tuning_sweep: no usable CUDA device\n");
    return 2;
  }
  cudaStream_t stream;
  ONEPASS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const bench::device_info device = bench::query_device();
  bench::timer time(stream, 3, 20, device.l2_bytes);
  bench::progress quiet(2, true);
  const bench::ceilings ceiling = bench::measure_ceilings(time, 1ll << 30, 5, quiet);
  std::printf("%s: copy %.0f GB/s, read-only %.0f GB/s\n", device.name.c_str(), ceiling.copy_gbps, ceiling.read_gbps);
  int failures = sweep_type<float>(ceiling.copy_gbps, time);
  failures += sweep_type<bf16>(ceiling.copy_gbps, time);
  if (failures) std::printf("%d variant(s) FAILED\n", failures);
  return failures ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "rms_norm_tuning_sweep: %s\n", e.what());
  return 1;
}
