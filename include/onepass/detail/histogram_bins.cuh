// onepass/detail/histogram_bins.cuh — which bin a sample falls in: the one definition the
// production histogram, every ladder variant and (re-derived independently) the CPU
// reference agree on.
//
// Even bins, `bins` of them over [lower, upper):
//   integer samples: bin = floor((s - lower) * bins / (upper - lower)), exact integer
//                    arithmetic; the levels are 64-bit (so uint8's upper bound 256 and
//                    uint32's 2^32 are expressible) and (upper - lower) * bins must stay
//                    below 2^63 (checked);
//   float samples:   bin = floor((s - lower) * scale) in single precision, scale =
//                    float(bins) / (upper - lower) computed once in single precision, and
//                    a result of `bins` (rounding just below upper) counted in the last
//                    bin. A sample within rounding distance of an inner edge may land in
//                    the neighbouring bin; CUB's float binning has the same property.
// Custom boundaries b[0] < b[1] < ... < b[bins]: bin i counts b[i] <= s < b[i+1], compared
// exactly.
// Samples outside [lower, upper) (or [b[0], b[bins])) and NaN are not counted.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "onepass/detail/config.cuh"
#include "onepass/error.cuh"

namespace onepass {

// The sample types a histogram takes: 8-, 16- and 32-bit integers and float.
template <class Sample>
inline constexpr bool is_histogram_sample_v =
    std::is_same_v<Sample, float> || (std::is_integral_v<Sample> && !std::is_same_v<Sample, bool> && sizeof(Sample) <= 4);

// The type of the bin levels (lower, upper, boundaries) for a sample type: long long for
// integer samples (every sample value and one past the largest is expressible), float
// for float samples.
template <class Sample>
using histogram_level_t = std::conditional_t<std::is_floating_point_v<Sample>, Sample, long long>;

namespace detail {

// Even bins for integer samples. Made on the host by make_even_bins (which checks the
// levels); used on the device.
template <class Sample, bool = std::is_floating_point_v<Sample>>
struct even_bins {
  long long lower;
  unsigned long long range;  // upper - lower, > 0
  unsigned bins;
  int shift;          // >= 0: range == bins << shift, so bin = (s - lower) >> shift
  double inv_range;   // otherwise: an estimate of 1/range, corrected exactly below

  // The bin of s, or -1 when s is not counted.
  ONEPASS_HD ONEPASS_FORCEINLINE int operator()(Sample s) const {
    // In unsigned arithmetic: s - lower may not fit a long long (levels are checked only
    // for range * bins < 2^63), and a wrapped difference is caught by the test below.
    const unsigned long long x =
        static_cast<unsigned long long>(static_cast<long long>(s)) - static_cast<unsigned long long>(lower);
    if (static_cast<long long>(s) < lower || x >= range) return -1;
    if (shift >= 0) return static_cast<int>(x >> shift);
    // x * bins < range * bins < 2^63. The quotient estimated in double is within one of
    // the truth (its relative error is ~2^-52 and the quotient is below bins < 2^31);
    // one correction step each way makes it exact.
    const unsigned long long p = x * bins;
    unsigned long long q = static_cast<unsigned long long>(static_cast<double>(p) * inv_range);
    if (q * range > p) --q;
    else if ((q + 1) * range <= p) ++q;
    return static_cast<int>(q);
  }
};

// Even bins for float samples.
template <class Sample>
struct even_bins<Sample, true> {
  float lower, upper, scale;
  int bins;

  ONEPASS_HD ONEPASS_FORCEINLINE int operator()(float s) const {
    if (!(s >= lower && s < upper)) return -1;  // NaN fails both comparisons
#if defined(__CUDA_ARCH__)
    const float t = __fmul_rn(__fsub_rn(s, lower), scale);  // no contraction: match the host
#else
    const float t = (s - lower) * scale;
#endif
    const int b = static_cast<int>(t);  // t >= 0: truncation is floor
    return b < bins ? b : bins - 1;
  }
};

// Checks the levels (throws onepass::invalid_argument naming the argument) and returns
// the binning.
template <class Sample>
even_bins<Sample> make_even_bins(int bins, histogram_level_t<Sample> lower, histogram_level_t<Sample> upper) {
  static_assert(is_histogram_sample_v<Sample>, "histogram samples are 8/16/32-bit integers or float");
  if (bins < 1) throw invalid_argument("bins", "is " + std::to_string(bins) + "; at least 1 bin is needed");
  if constexpr (std::is_floating_point_v<Sample>) {
    auto finite = [](float x) { return x - x == 0.0f; };  // false for NaN and infinities
    if (!finite(lower)) throw invalid_argument("lower", "is not a finite number");
    if (!finite(upper)) throw invalid_argument("upper", "is not a finite number");
    if (!(lower < upper))
      throw invalid_argument("upper", "must be greater than 'lower' (the bins cover [lower, upper))");
    const float width = upper - lower;
    if (!(width < std::numeric_limits<float>::infinity()))
      throw invalid_argument("upper", "minus 'lower' overflows float");
    const float scale = static_cast<float>(bins) / width;
    if (!(scale < std::numeric_limits<float>::infinity()))
      throw invalid_argument("upper", "is too close to 'lower': bins / (upper - lower) overflows float");
    return {lower, upper, scale, bins};
  } else {
    if (!(lower < upper))
      throw invalid_argument("upper", "must be greater than 'lower' (the bins cover [lower, upper))");
    // Levels beyond what a Sample can hold change nothing but the bin width: fine. The
    // products must fit: (upper - lower) * bins < 2^63.
    const unsigned long long range = static_cast<unsigned long long>(upper) - static_cast<unsigned long long>(lower);
    if (range > ((1ull << 63) - 1) / static_cast<unsigned long long>(bins))
      throw invalid_argument("upper", "minus 'lower', times 'bins', must stay below 2^63");
    even_bins<Sample> e{lower, range, static_cast<unsigned>(bins), -1, 1.0 / static_cast<double>(range)};
    for (int s = 0; s < 63; ++s)
      if ((static_cast<unsigned long long>(bins) << s) == range) e.shift = s;
    return e;
  }
}

// Custom boundaries for the device: `boundaries` points to bins + 1 strictly increasing
// levels in device memory (the dispatch copies the caller's host array there).
template <class Sample>
struct range_bins {
  const histogram_level_t<Sample>* boundaries;
  int bins;

  // The bin of s, or -1: the last boundary <= s, by binary search.
  ONEPASS_HD ONEPASS_FORCEINLINE int operator()(Sample s) const {
    const histogram_level_t<Sample> v = static_cast<histogram_level_t<Sample>>(s);
    if (!(v >= boundaries[0] && v < boundaries[bins])) return -1;  // NaN fails both
    int lo = 0, hi = bins;  // boundaries[lo] <= v < boundaries[hi]
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      if (v < boundaries[mid]) hi = mid;
      else lo = mid;
    }
    return lo;
  }
};

// Checks a host array of custom boundaries: at least two, strictly increasing, no NaN.
template <class Sample>
void check_boundaries(const histogram_level_t<Sample>* boundaries, int num_boundaries) {
  if (num_boundaries < 2)
    throw invalid_argument("num_boundaries", "is " + std::to_string(num_boundaries) +
                                                 "; at least 2 boundaries (1 bin) are needed");
  if (boundaries == nullptr) throw invalid_argument("boundaries", "is null");
  for (int i = 0; i < num_boundaries; ++i) {
    if (!(boundaries[i] == boundaries[i]))
      throw invalid_argument("boundaries", "holds NaN at index " + std::to_string(i));
    if (i > 0 && !(boundaries[i - 1] < boundaries[i]))
      throw invalid_argument("boundaries", "are not strictly increasing: index " + std::to_string(i) +
                                               " is not greater than index " + std::to_string(i - 1));
  }
}

}  // namespace detail
}  // namespace onepass
