#include "rms_norm_bench.cuh"

#include <cuda_bf16.h>

#include <algorithm>
#include <stdexcept>

#include "onepass/rms_norm.cuh"
#include "support/rms_norm_reference.hpp"

namespace onepass::bench {
namespace {

// eps as the usual transformer RMSNorm (and bench/peers.py's torch call) uses it.
constexpr float rms_norm_eps = 1e-6f;

// Counter-based like random_input: |v| in [0.25, 2) with a random sign, never zero.
template <class T>
std::vector<T> random_rows(long long n, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) {
    const std::uint64_t bits = splitmix64(seed * 0xD1B54A32D192ED03ull + static_cast<std::uint64_t>(i));
    const double m = 0.25 + 1.75 * static_cast<double>(bits >> 11) * 0x1p-53;
    v[static_cast<std::size_t>(i)] = test::rms_from_double<T>((bits & 1) ? -m : m);
  }
  return v;
}

template <class T>
std::vector<record> run_typed(const bench_case& c, bench_context& ctx) {
  const long long width = c.n;
  if (width < 1) throw std::runtime_error("rmsnorm: the row width must be at least 1");
  const long long rows = c.batch > 0 ? c.batch : rms_norm_default_rows(width);
  const long long n = rows * width;
  const std::string title = rms_norm_title(c.dtype, rows, width);
  require_device_memory(static_cast<double>(2 * n + width) * sizeof(T), "'" + title + "'");

  const std::vector<T> hx = random_rows<T>(n, ctx.seed);
  const std::vector<T> hw = random_rows<T>(width, ctx.seed ^ 0x3C6EF372FE94F82Bull);
  device_array<T> x(n), w(width), y(n);
  x.upload(hx);
  w.upload(hw);
  const cudaStream_t s = ctx.time.stream();

  ctx.steps.step(title + ": onepass");
  std::vector<std::pair<std::string, param_value>> params = {{"table", title}, {"rows", rows}, {"width", width}};
  auto call = [&] { onepass::rms_norm(x.get(), w.get(), y.get(), rows, width, rms_norm_eps, s); };
  std::string error;
  try {
    ONEPASS_CUDA_TRY(cudaMemsetAsync(y.get(), 0xA5, y.bytes(), s));  // poison
    call();
    std::vector<T> got(static_cast<std::size_t>(n));
    ONEPASS_CUDA_TRY(cudaMemcpyAsync(got.data(), y.get(), y.bytes(), cudaMemcpyDeviceToHost, s));
    ONEPASS_CUDA_TRY(cudaStreamSynchronize(s));
    error = test::rms_norm_check(hx.data(), hw.data(), got.data(), rows, width, rms_norm_eps);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (!error.empty()) return {failed_record("rmsnorm", "onepass", c.dtype, n, std::move(params), error)};
  const timing t = ctx.time.run(call);
  // Minimum traffic: x read once, y written once, the weight read once.
  const double bytes = (2.0 * static_cast<double>(n) + static_cast<double>(width)) * sizeof(T);
  return {timed_record("rmsnorm", "onepass", c.dtype, n, std::move(params), t, bytes, ctx.copy_gbps, ctx.read_gbps)};
}

}  // namespace

primitive_desc rms_norm_primitive() {
  variant_desc v;
  v.id = "onepass";
  v.summary = "fused RMSNorm, a row per warp or per block held in registers (onepass::rms_norm)";
  return {"rmsnorm", "y = x * rsqrt(mean(x^2) + eps) * weight over the rows of a matrix", {"float", "bfloat16"}, {v},
          {}, {}, 4096};
}

std::vector<record> run_rms_norm_table(const bench_case& c, bench_context& ctx) {
  if (c.dtype == "float") return run_typed<float>(c, ctx);
  if (c.dtype == "bfloat16") return run_typed<__nv_bfloat16>(c, ctx);
  throw std::runtime_error("rmsnorm: no element type '" + c.dtype + "'");
}

}  // namespace onepass::bench
