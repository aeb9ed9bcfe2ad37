// What the histogram tests share: type names, the levels and sizes they sweep, samples
// with out-of-range values and NaN mixed in, a counts buffer that starts full of garbage,
// is guarded by poison on both sides and is compared exactly with the CPU reference
// (histogram_reference.hpp), and the sweep of every ladder variant.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "onepass/histogram.cuh"
#include "onepass/ladder/histogram/registry.cuh"
#include "support/histogram_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {

template <class T>
const char* histogram_type_name() {
  if constexpr (std::is_same_v<T, std::uint8_t>) return "uint8";
  else if constexpr (std::is_same_v<T, std::int8_t>) return "int8";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "uint16";
  else if constexpr (std::is_same_v<T, std::int16_t>) return "int16";
  else if constexpr (std::is_same_v<T, long long>) return "int64";
  else if constexpr (std::is_same_v<T, unsigned long long>) return "uint64";
  else return type_name<T>();
}

// The bin counts every path is swept over: one and two bins, both sides of 256 (the
// per-lane layout's limit), a typical large count, and 2^16.
inline constexpr int histogram_bin_counts[] = {1, 2, 255, 256, 257, 4096, 65536};

template <class Sample>
struct even_levels {
  histogram_level_t<Sample> lower, upper;
};

// The whole range of an integer type, [0, 1) for float, as the levels the API takes.
template <class Sample>
even_levels<Sample> natural_even_levels() {
  using level = histogram_level_t<Sample>;
  const auto [lower, upper] = natural_levels<Sample>();
  return {static_cast<level>(lower), static_cast<level>(upper)};
}


// n samples of distribution d around [lower, upper): drawn from the levels widened by an
// eighth of their width on each side (clipped to the sample type), so that some fall
// outside the levels while one_bin and skewed stay centred in them.
template <class Sample>
std::vector<Sample> samples_around(long long n, distribution d, histogram_level_t<Sample> lower,
                                   histogram_level_t<Sample> upper, std::uint64_t seed) {
  const double width = static_cast<double>(upper) - static_cast<double>(lower);
  const double lo = static_cast<double>(lower) - width / 8, hi = static_cast<double>(upper) + width / 8;
  if constexpr (std::is_floating_point_v<Sample>) {
    return histogram_samples<Sample>(n, d, static_cast<float>(lo), static_cast<float>(hi), seed);
  } else {
    return histogram_samples<Sample>(n, d, std::floor(lo), std::ceil(hi), seed);
  }
}

// Values at and around the edges of [lower, upper) that Sample can hold, and the type's
// extremes; for float also NaN, infinities, signed zeros and values just below `upper`.
template <class Sample>
std::vector<Sample> edge_samples(histogram_level_t<Sample> lower, histogram_level_t<Sample> upper) {
  std::vector<Sample> out;
  if constexpr (std::is_floating_point_v<Sample>) {
    using lim = std::numeric_limits<float>;
    const float inf = lim::infinity();
    out = {lower,
           upper,
           std::nextafter(lower, -inf),
           std::nextafter(lower, inf),
           std::nextafter(upper, inf),
           lim::quiet_NaN(),
           -lim::quiet_NaN(),
           inf,
           -inf,
           0.0f,
           -0.0f,
           lim::max(),
           lim::lowest(),
           lim::denorm_min(),
           -lim::denorm_min()};
    float below = upper;
    for (int i = 0; i < 4; ++i) out.push_back(below = std::nextafter(below, lower));
  } else {
    const long long lowest = std::numeric_limits<Sample>::min(), highest = std::numeric_limits<Sample>::max();
    for (long long v : {lower - 1, lower, lower + 1, upper - 2, upper - 1, upper, upper + 1, lowest, highest, 0ll, -1ll})
      if (v >= lowest && v <= highest) out.push_back(static_cast<Sample>(v));
  }
  return out;
}

// Replaces about one sample in `one_in` by a value drawn from `pool`.
template <class Sample>
void mix_in(std::vector<Sample>& samples, const std::vector<Sample>& pool, std::uint64_t seed, int one_in = 16) {
  if (pool.empty()) return;
  std::mt19937_64 rng(seed);
  for (auto& s : samples)
    if (rng() % static_cast<unsigned>(one_in) == 0) s = pool[rng() % pool.size()];
}

// Waits for everything on the device: cudaMemcpy from pageable memory may return before
// its copy has landed, and a non-blocking stream is not ordered after it.
inline void settle() { throw_if(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

// Samples on the device (nothing allocated for an empty vector: the call then gets null).
template <class Sample>
struct device_samples {
  device_buffer<Sample> buffer;
  explicit device_samples(const std::vector<Sample>& host) : buffer(host) { settle(); }
  const Sample* get() const { return buffer.get(); }
  long long size() const { return buffer.size(); }
};

// Items kept poisoned after counts[bins) (and, with `front`, before counts[0]).
constexpr int histogram_guard = 8;

// The counts of one histogram inside a poisoned allocation: [front poison][bins][guard].
template <class Counter>
class guarded_counts {
 public:
  explicit guarded_counts(int bins, int front = 0)
      : bins_(bins), front_(front), buffer_(static_cast<long long>(front) + bins + histogram_guard) {}

  Counter* get() const { return buffer_.get() + front_; }
  int bins() const { return bins_; }

  // Poison everywhere, then random non-zero garbage in the counts themselves: the call
  // must overwrite them, not add to them.
  void fill_with_garbage(std::uint64_t seed) {
    buffer_.poison();
    std::vector<Counter> all = buffer_.download();
    std::mt19937_64 rng(seed);
    for (int i = 0; i < bins_; ++i) all[static_cast<std::size_t>(front_ + i)] = static_cast<Counter>(rng() | 1);
    buffer_.upload(all);
    settle();
  }
  void poison() { buffer_.poison(); }

  // The counts equal `expected` exactly, and the poison around them is intact.
  ::testing::AssertionResult equal(const std::vector<std::uint64_t>& expected) const {
    if (expected.size() != static_cast<std::size_t>(bins_))
      return ::testing::AssertionFailure() << "the reference has " << expected.size() << " bins, not " << bins_;
    const std::vector<Counter> all = buffer_.download();
    if (const std::string guard = guards_intact(all); !guard.empty()) return ::testing::AssertionFailure() << guard;
    const std::vector<Counter> got(all.begin() + front_, all.begin() + front_ + bins_);
    std::vector<Counter> want(expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) want[i] = static_cast<Counter>(expected[i]);
    if (const std::string diff = first_difference(want, got); !diff.empty())
      return ::testing::AssertionFailure() << "counts: " << diff;
    return ::testing::AssertionSuccess();
  }

  // Nothing at all was written (after poison()).
  ::testing::AssertionResult untouched() const {
    const std::string written = first_written(buffer_.download());
    if (!written.empty()) return ::testing::AssertionFailure() << "counts: " << written;
    return ::testing::AssertionSuccess();
  }

 private:
  std::string guards_intact(const std::vector<Counter>& all) const {
    const std::vector<Counter> before(all.begin(), all.begin() + front_);
    if (const std::string w = first_written(before); !w.empty()) return "wrote before counts[0]: " + w;
    if (const std::string w = first_written(all, static_cast<std::size_t>(front_ + bins_)); !w.empty())
      return "wrote past counts[bins): " + w;
    return "";
  }

  int bins_, front_;
  device_buffer<Counter> buffer_;
};

// Runs f and expects onepass::invalid_argument naming `argument` (message not checked).
template <class F>
void expect_rejected_argument(F&& f, const std::string& argument) {
  try {
    f();
    ADD_FAILURE() << "expected onepass::invalid_argument for '" << argument << "'";
  } catch (const onepass::invalid_argument& e) {
    EXPECT_EQ(e.argument(), argument) << e.what();
  }
}

// --- the teaching ladder ---------------------------------------------------------------
// Every registry variant on one set of samples: exact against the reference, or, where
// the bins do not fit the variant, refused (naming 'bins') with the counts untouched.
template <class Sample>
void check_ladder_case(const std::vector<Sample>& host, const device_samples<Sample>& samples, int bins,
                       even_levels<Sample> lv) {
  using Counter = unsigned;
  const std::vector<std::uint64_t> expected = reference_histogram_even(host, bins, lv.lower, lv.upper);
  const long long n = static_cast<long long>(host.size());
  guarded_counts<Counter> counts(bins);
  for (const auto& v : ladder::histogram_registry<Sample, Counter>()) {
    SCOPED_TRACE(v.id);
    const int most = v.max_bins();
    if (most != ladder::no_limit && bins > most) {
      counts.poison();
      expect_rejected([&] { v.run(samples.get(), n, bins, lv.lower, lv.upper, counts.get(), workspace{}, nullptr); },
                      "bins", "at most");
      settle();
      EXPECT_TRUE(counts.untouched());
      continue;
    }
    device_buffer<unsigned char> ws(static_cast<long long>(v.workspace_bytes(n, bins)));
    counts.fill_with_garbage(static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(bins));
    v.run(samples.get(), n, bins, lv.lower, lv.upper, counts.get(), workspace{ws.get(), ws.bytes()}, nullptr);
    settle();
    EXPECT_TRUE(counts.equal(expected));
  }
}

// 0, 1, the warp edges, both sides of 2^12, past 2^16, a random size and 2^22 + 3.
inline std::vector<long long> ladder_sizes(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return capped_sorted_sizes({0, 1, 31, 32, 33, 4095, 4097, 65537, 1 + static_cast<long long>(rng() % 1500000), (1ll << 22) + 3});
}

// Every variant x bin count x distribution x size over the type's natural levels; then
// over levels narrower than the type (for float, [-0.25, 0.75)), with samples outside
// them, the type's extremes and, for float, NaN and infinities mixed in.
template <class Sample>
void check_histogram_ladder(std::uint64_t seed) {
  const even_levels<Sample> natural = natural_even_levels<Sample>();
  for (distribution d : all_distributions) {
    for (long long n : ladder_sizes(seed + static_cast<std::uint64_t>(d))) {
      const std::vector<Sample> host = histogram_samples<Sample>(n, d, natural.lower, natural.upper, seed * 7919 + n);
      const device_samples<Sample> samples(host);
      for (int bins : histogram_bin_counts) {
        SCOPED_TRACE(std::string(histogram_type_name<Sample>()) + " " + distribution_name(d) +
                     " n=" + std::to_string(n) + " bins=" + std::to_string(bins));
        check_ladder_case(host, samples, bins, natural);
      }
    }
  }
  even_levels<Sample> narrow{};
  if constexpr (std::is_floating_point_v<Sample>) {
    narrow = {-0.25f, 0.75f};
  } else {
    const long long width = natural.upper - natural.lower;
    narrow = {natural.lower + width / 16 + 1, natural.upper - width / 10};
  }
  std::mt19937_64 rng(seed);
  for (distribution d : all_distributions) {
    for (long long n : capped_sorted_sizes({33, 65537, 1 + static_cast<long long>(rng() % 500000)})) {
      std::vector<Sample> host = samples_around<Sample>(n, d, narrow.lower, narrow.upper, rng());
      mix_in(host, edge_samples<Sample>(narrow.lower, narrow.upper), rng());
      const device_samples<Sample> samples(host);
      for (int bins : histogram_bin_counts) {
        SCOPED_TRACE(std::string(histogram_type_name<Sample>()) + " narrow levels " + distribution_name(d) +
                     " n=" + std::to_string(n) + " bins=" + std::to_string(bins));
        check_ladder_case(host, samples, bins, narrow);
      }
    }
  }
}

}  // namespace onepass::test
