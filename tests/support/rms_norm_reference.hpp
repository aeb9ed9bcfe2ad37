// The CPU side of the fused RMSNorm's checks: conversions, the float64 reference, the
// tolerance and the element-by-element comparison. No GoogleTest and no GPU here, so
// onepass-bench checks against the same reference and tolerance as the tests.
#pragma once

#include <cuda_bf16.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>

namespace onepass::test {

inline double rms_to_double(float v) { return v; }
inline double rms_to_double(__nv_bfloat16 v) { return static_cast<double>(__bfloat162float(v)); }

template <class T>
T rms_from_double(double v) {
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(v);
  else return __float2bfloat16_rn(static_cast<float>(v));  // double -> float is exact for the test values
}

template <class T>
constexpr const char* rms_norm_type_name() {
  return std::is_same_v<T, float> ? "float" : "bfloat16";
}

// Relative tolerance for one element of y, |y - y_ref| <= tol * |y_ref|, y_ref computed
// in float64 from the same (float or bfloat16) inputs and the same float eps.
//
// float: every step multiplies by (1 + delta) with |delta| bounded, so a relative bound
// holds element by element (no cancellation: the sum is of squares). With u = 2^-24:
//   * sum of squares: a sum of non-negative terms in any tree is off by at most d * u
//     relative, d the longest chain of roundings from one square to the total (+1 for
//     the square itself). Any kernel that lets a group of >= 32 threads share a row adds
//     at most ceil(width / 32) terms sequentially per thread, then log2(1024) = 10 tree
//     levels at most: d <= ceil(width / 32) + 11.
//   * / width and + eps: one rounding each (eps >= 0 only shrinks the relative error):
//     (d + 2) u.
//   * rsqrtf halves its argument's relative error and adds its own 2 ulp (CUDA Math API
//     documentation), i.e. at most 4u relative: (d + 2) u / 2 + 4u.
//   * two multiplies (x * scale, then * weight): + 2u.
// A factor 2 over this first-order bound covers second-order terms, a float(width) that
// is not exact past 2^24, and a caller whose eps is rounded to float (bench/peers.py).
// 4096 floats: 153u = 9.1e-6 relative. A dropped or doubled element usually moves y by
// far more, and always does in the tests' rows that hold one dominant element.
// bfloat16: the float result above is rounded once to bfloat16 (8 significant bits):
// at most 2^-8 relative more, which dominates.
template <class T>
double rms_norm_tolerance(long long width) {
  constexpr double u = 0x1p-24;
  const double d = std::ceil(static_cast<double>(width) / 32.0) + 11.0;
  const double float_bound = 2.0 * ((d + 2.0) / 2.0 + 6.0) * u;
  if constexpr (std::is_same_v<T, float>) return float_bound;
  else return 0x1p-8 + 2.0 * float_bound;
}

// The reference of one row: y_ref[j] = x[j] / sqrt(mean(x^2) + eps) * w[j] in float64.
// Returns the scale 1 / sqrt(mean(x^2) + eps).
template <class T>
double rms_norm_reference_scale(const T* x, long long width, float eps) {
  double ss = 0;
  for (long long j = 0; j < width; ++j) {
    const double v = rms_to_double(x[j]);
    ss += v * v;
  }
  return 1.0 / std::sqrt(ss / static_cast<double>(width) + static_cast<double>(eps));
}

// Empty when every y[r, j] of the rows x width matrix is within rms_norm_tolerance of the
// float64 reference; otherwise a message naming the first element that is not.
template <class T>
std::string rms_norm_check(const T* x, const T* weight, const T* y, long long rows, long long width,
                           float eps) {
  const double tol = rms_norm_tolerance<T>(width);
  for (long long r = 0; r < rows; ++r) {
    const T* xr = x + r * width;
    const T* yr = y + r * width;
    const double scale = rms_norm_reference_scale(xr, width, eps);
    for (long long j = 0; j < width; ++j) {
      const double expected = rms_to_double(xr[j]) * scale * rms_to_double(weight[j]);
      const double got = rms_to_double(yr[j]);
      // Written so that a NaN in y fails.
      if (!(std::fabs(got - expected) <= tol * std::fabs(expected))) {
        char buf[320];
        std::snprintf(buf, sizeof buf,
                      "row %lld, column %lld (element %lld): expected %.9g, got %.9g "
                      "(relative error %.3g, tolerance %.3g)",
                      r, j, r * width + j, expected, got,
                      expected != 0 ? std::fabs(got - expected) / std::fabs(expected) : std::fabs(got), tol);
        return buf;
      }
    }
  }
  return {};
}

}  // namespace onepass::test
