// The CPU side of every histogram check: the sample distributions the tests and
// onepass-bench draw from, and the reference histograms. No GoogleTest and no GPU here.
//
// The reference re-derives the binning from its documented definition
// (onepass/detail/histogram_bins.cuh) instead of calling the library's: integers in
// 128-bit arithmetic, floats with the same two single-precision operations.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace onepass::test {

// uniform: every sample drawn uniformly from the level range.
// skewed:  approximately normal (the sum of four uniforms), centred in the range, with a
//          standard deviation of 1/64 of it: for 256 bins, 95% of the samples fall in
//          ~16 bins around the middle — the contention of real image and sensor data.
// one_bin: every sample the same value (the middle of the range): all in one bin.
// sorted:  uniform counts in ascending order (sample i = lower + i * range / n): long runs
//          of one bin.
enum class distribution { uniform, skewed, one_bin, sorted };
inline constexpr distribution all_distributions[] = {distribution::uniform, distribution::skewed,
                                                     distribution::one_bin, distribution::sorted};

inline const char* distribution_name(distribution d) {
  switch (d) {
    case distribution::uniform: return "uniform";
    case distribution::skewed: return "skewed";
    case distribution::one_bin: return "one_bin";
    case distribution::sorted: return "sorted";
  }
  return "?";
}

inline distribution parse_distribution(const std::string& name) {
  for (distribution d : all_distributions)
    if (name == distribution_name(d)) return d;
  throw std::invalid_argument("no sample distribution '" + name + "' (uniform, skewed, one_bin, sorted)");
}

namespace histogram_detail {
inline std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
// A uniform double in [0, 1) from 53 random bits.
inline double unit(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

// Runs body(begin, end) over [0, n) on up to 16 threads.
template <class Body>
void parallel_for(long long n, Body body) {
  const unsigned workers =
      n < (1 << 16) ? 1u : std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w) threads.emplace_back([&, w] { body(n * w / workers, n * (w + 1) / workers); });
  for (auto& t : threads) t.join();
}
}  // namespace histogram_detail

// The interval the samples of a distribution are drawn from: [lower, upper) clipped to
// what Sample can hold (for floats, the levels themselves).
template <class Sample>
struct sample_range {
  double lower, upper;
};
template <class Sample, class Level>
sample_range<Sample> clipped_range(Level lower, Level upper) {
  if constexpr (std::is_floating_point_v<Sample>) {
    return {static_cast<double>(lower), static_cast<double>(upper)};
  } else {
    const double lo = std::max(static_cast<double>(lower), static_cast<double>(std::numeric_limits<Sample>::min()));
    const double hi = std::min(static_cast<double>(upper), static_cast<double>(std::numeric_limits<Sample>::max()) + 1);
    if (!(lo < hi)) throw std::invalid_argument("the levels hold no value of the sample type");
    return {lo, hi};
  }
}

// n samples of `d` within [lower, upper) (clipped to Sample's range). Counter-based, so the
// same seed gives the same samples at any n and on any number of threads.
template <class Sample, class Level>
std::vector<Sample> histogram_samples(long long n, distribution d, Level lower, Level upper, std::uint64_t seed) {
  using histogram_detail::mix;
  using histogram_detail::unit;
  const sample_range<Sample> r = clipped_range<Sample>(lower, upper);
  const double width = r.upper - r.lower;
  // From a position t in [0, 1) to a sample in [lower, upper).
  auto at = [&](double t) -> Sample {
    double v = r.lower + t * width;
    if constexpr (std::is_floating_point_v<Sample>) {
      Sample s = static_cast<Sample>(v);
      if (!(s < static_cast<Sample>(r.upper))) s = std::nextafter(static_cast<Sample>(r.upper), static_cast<Sample>(r.lower));
      if (s < static_cast<Sample>(r.lower)) s = static_cast<Sample>(r.lower);
      return s;
    } else {
      v = std::floor(v);
      v = std::min(std::max(v, r.lower), r.upper - 1);
      return static_cast<Sample>(static_cast<long long>(v));
    }
  };
  std::vector<Sample> out(static_cast<std::size_t>(n));
  histogram_detail::parallel_for(n, [&](long long begin, long long end) {
    for (long long i = begin; i < end; ++i) {
      const std::uint64_t bits = mix(seed * 0xD1B54A32D192ED03ull + static_cast<std::uint64_t>(i));
      double t = 0.5;
      switch (d) {
        case distribution::uniform: t = unit(bits); break;
        case distribution::skewed: {
          // Sum of four uniforms: mean 2, standard deviation 1/sqrt(3); scaled to 1/64.
          const double s = unit(bits) + unit(mix(bits)) + unit(mix(bits + 1)) + unit(mix(bits + 2));
          t = 0.5 + (s - 2.0) * std::sqrt(3.0) / 64.0;
          t = std::min(std::max(t, 0.0), std::nextafter(1.0, 0.0));
          break;
        }
        case distribution::one_bin: t = 0.5; break;
        case distribution::sorted: t = static_cast<double>(i) / static_cast<double>(n); break;
      }
      out[static_cast<std::size_t>(i)] = at(t);
    }
  });
  return out;
}

// --- the reference --------------------------------------------------------------------
// The bin of s for even bins, -1 when not counted: see histogram_bins.cuh for the
// definition this re-derives.
template <class Sample, class Level>
long long reference_even_bin(Sample s, int bins, Level lower, Level upper) {
  if constexpr (std::is_floating_point_v<Sample>) {
    // Single precision throughout, as the library computes, whatever Level the caller used.
    const float lo = static_cast<float>(lower), hi = static_cast<float>(upper), x = static_cast<float>(s);
    if (!(x >= lo && x < hi)) return -1;
    const float scale = static_cast<float>(bins) / (hi - lo);
    const float t = (x - lo) * scale;
    const long long b = static_cast<long long>(std::floor(t));
    return std::min<long long>(b, bins - 1);
  } else {
    const __int128 v = static_cast<long long>(s);
    if (v < lower || v >= upper) return -1;
    return static_cast<long long>((v - lower) * bins / (static_cast<__int128>(upper) - lower));
  }
}

template <class Sample, class Level>
std::vector<std::uint64_t> reference_histogram_even(const std::vector<Sample>& samples, int bins, Level lower,
                                                    Level upper) {
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(bins), 0);
  for (const Sample& s : samples) {
    const long long b = reference_even_bin(s, bins, lower, upper);
    if (b >= 0) ++counts[static_cast<std::size_t>(b)];
  }
  return counts;
}

// bin i counts boundaries[i] <= s < boundaries[i + 1].
template <class Sample, class Level>
std::vector<std::uint64_t> reference_histogram_range(const std::vector<Sample>& samples,
                                                     const std::vector<Level>& boundaries) {
  const std::size_t bins = boundaries.size() - 1;
  std::vector<std::uint64_t> counts(bins, 0);
  for (const Sample& s : samples) {
    const Level v = static_cast<Level>(s);
    if (!(v >= boundaries.front() && v < boundaries.back())) continue;
    const auto above = std::upper_bound(boundaries.begin(), boundaries.end(), v);
    ++counts[static_cast<std::size_t>(above - boundaries.begin() - 1)];
  }
  return counts;
}

// The even levels the bench and the tests use for a sample type: the whole range of an
// integer type ([0, 256) for uint8, [-2^31, 2^31) for int32), [0, 1) for float.
template <class Sample>
std::pair<double, double> natural_levels() {
  if constexpr (std::is_floating_point_v<Sample>) {
    return {0.0, 1.0};
  } else {
    return {static_cast<double>(std::numeric_limits<Sample>::min()),
            static_cast<double>(std::numeric_limits<Sample>::max()) + 1.0};
  }
}

}  // namespace onepass::test
