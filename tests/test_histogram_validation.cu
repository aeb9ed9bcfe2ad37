// Bad input to the histograms is rejected with onepass::invalid_argument naming the
// argument, before any CUDA call; the registry has the ladder's shape; and the binning the
// GPU uses (detail/histogram_bins.cuh, and the production kernel's 32-bit shift form),
// run on the host, agrees with the CPU reference on every value of the small types and
// on random and edge values of the others. No GPU needed: these run in CI.
#include <cmath>
#include <iterator>
#include <random>
#include <type_traits>

#include "onepass/histogram.cuh"
#include "onepass/ladder/histogram/registry.cuh"
#include "support/cuda_call_counter.hpp"
#include "support/histogram_checks.cuh"

namespace onepass::test {
namespace {

// Fake device addresses: never dereferenced, because every check below fails first.
template <class T>
T* fake(std::uintptr_t address) {
  return reinterpret_cast<T*>(address);
}
const std::uint8_t* bytes_at(std::uintptr_t a) { return fake<const std::uint8_t>(a); }
unsigned* counts_at(std::uintptr_t a) { return fake<unsigned>(a); }

constexpr long long two_to(int k) { return 1ll << k; }

// No test of this suite makes a CUDA call: the fixture checks (support/cuda_call_counter.hpp).
using HistogramValidation = no_cuda_calls;

TEST_F(HistogramValidation, Bins) {
  expect_rejected([] { onepass::histogram_even(bytes_at(0x1000), 10, 0, 0, 256, counts_at(0x9000)); }, "bins",
                  "at least 1");
  expect_rejected([] { onepass::histogram_even(bytes_at(0x1000), 10, -4, 0, 256, counts_at(0x9000)); }, "bins",
                  "is -4");
  const long long b[] = {0, 1, 2};
  expect_rejected([&] { onepass::histogram_range(bytes_at(0x1000), 10, b, 1, counts_at(0x9000)); }, "num_boundaries",
                  "at least 2");
  expect_rejected([&] { onepass::histogram_range(bytes_at(0x1000), 10, b, 0, counts_at(0x9000)); }, "num_boundaries",
                  "at least 2");
  expect_rejected([&] { onepass::histogram_range(bytes_at(0x1000), 10, b, -3, counts_at(0x9000)); }, "num_boundaries",
                  "is -3");
  expect_rejected([] { onepass::histogram_range_workspace_bytes<std::uint8_t, unsigned>(10, 1); }, "num_boundaries",
                  "at least 2");
}

TEST_F(HistogramValidation, EvenLevels) {
  // lower >= upper
  expect_rejected([] { onepass::histogram_even(bytes_at(0x1000), 10, 4, 100, 100, counts_at(0x9000)); }, "upper",
                  "greater than 'lower'");
  expect_rejected([] { onepass::histogram_even(bytes_at(0x1000), 10, 4, 100, 3, counts_at(0x9000)); }, "upper",
                  "greater than 'lower'");
  const float* floats = fake<const float>(0x1000);
  expect_rejected([&] { onepass::histogram_even(floats, 10, 4, 1.0f, 1.0f, counts_at(0x9000)); }, "upper",
                  "greater than 'lower'");
  expect_rejected([&] { onepass::histogram_even(floats, 10, 4, 2.0f, -1.0f, counts_at(0x9000)); }, "upper",
                  "greater than 'lower'");
  // NaN and infinite float levels
  expect_rejected([&] { onepass::histogram_even(floats, 10, 4, NAN, 1.0f, counts_at(0x9000)); }, "lower", "finite");
  expect_rejected([&] { onepass::histogram_even(floats, 10, 4, 0.0f, NAN, counts_at(0x9000)); }, "upper", "finite");
  expect_rejected([&] { onepass::histogram_even(floats, 10, 4, -INFINITY, 1.0f, counts_at(0x9000)); }, "lower",
                  "finite");
  expect_rejected([&] { onepass::histogram_even(floats, 10, 4, 0.0f, INFINITY, counts_at(0x9000)); }, "upper",
                  "finite");
  // upper - lower overflows float
  expect_rejected([&] { onepass::histogram_even(floats, 10, 4, -3e38f, 3e38f, counts_at(0x9000)); }, "upper",
                  "overflows");
  // Integers: (upper - lower) * bins must stay below 2^63.
  const int* ints = fake<const int>(0x1000);
  expect_rejected([&] { onepass::histogram_even(ints, 10, 1 << 22, -two_to(40), two_to(40), counts_at(0x9000)); },
                  "upper", "2^63");
  expect_rejected([&] { onepass::histogram_even(ints, 10, 65536, -two_to(46), two_to(46), counts_at(0x9000)); },
                  "upper", "2^63");
  expect_rejected([&] { onepass::histogram_even(ints, 10, 1, std::numeric_limits<long long>::min(), 0,
                                                counts_at(0x9000)); },
                  "upper", "2^63");
  expect_rejected([&] { onepass::histogram_even(ints, 10, 1, std::numeric_limits<long long>::min(),
                                                std::numeric_limits<long long>::max(), counts_at(0x9000)); },
                  "upper", "2^63");
  // ... and just below is fine.
  EXPECT_NO_THROW(onepass::detail::make_even_bins<int>((1 << 22) - 1, -two_to(40), two_to(40)));
  EXPECT_NO_THROW(onepass::detail::make_even_bins<int>(65535, -two_to(46), two_to(46) - 1));
  EXPECT_NO_THROW(onepass::detail::make_even_bins<int>(1, std::numeric_limits<long long>::min(), -1));
}

TEST_F(HistogramValidation, Boundaries) {
  expect_rejected([] { onepass::histogram_range(bytes_at(0x1000), 10, static_cast<const long long*>(nullptr), 5,
                                                counts_at(0x9000)); },
                  "boundaries", "null");
  // The contents are checked on the host (the public call first asks the runtime whether
  // the array is host memory, so these go through the check itself).
  using onepass::detail::check_boundaries;
  const long long equal[] = {0, 5, 5, 9};
  const long long decreasing[] = {0, 5, 4, 9};
  const long long one[] = {3};
  expect_rejected([&] { check_boundaries<int>(equal, 4); }, "boundaries", "strictly increasing");
  expect_rejected([&] { check_boundaries<int>(decreasing, 4); }, "boundaries", "strictly increasing");
  expect_rejected([&] { check_boundaries<int>(one, 1); }, "num_boundaries", "at least 2");
  expect_rejected([&] { check_boundaries<int>(nullptr, 4); }, "boundaries", "null");
  const float with_nan[] = {0.0f, 0.5f, NAN, 1.0f};
  const float nan_first[] = {NAN, 0.5f, 1.0f};
  const float nan_last[] = {0.0f, 0.5f, NAN};
  const float equal_floats[] = {0.0f, 0.5f, 0.5f};
  expect_rejected([&] { check_boundaries<float>(with_nan, 4); }, "boundaries", "NaN");
  expect_rejected([&] { check_boundaries<float>(nan_first, 3); }, "boundaries", "NaN");
  expect_rejected([&] { check_boundaries<float>(nan_last, 3); }, "boundaries", "NaN");
  expect_rejected([&] { check_boundaries<float>(equal_floats, 3); }, "boundaries", "strictly increasing");
  const long long fine[] = {-5, 0, 1, 1000000000000ll};
  const float fine_floats[] = {-INFINITY, 0.0f, 1e-45f, INFINITY};  // infinities are levels like any other
  EXPECT_NO_THROW(check_boundaries<std::uint8_t>(fine, 4));
  EXPECT_NO_THROW(check_boundaries<float>(fine_floats, 4));
}

TEST_F(HistogramValidation, Pointers) {
  expect_rejected([] { onepass::histogram_even(static_cast<const std::uint8_t*>(nullptr), 10, 4, 0, 256,
                                               counts_at(0x9000)); },
                  "samples", "null");
  expect_rejected([] { onepass::histogram_even(bytes_at(0x1000), 10, 4, 0, 256, static_cast<unsigned*>(nullptr)); },
                  "counts", "null");
  // Even with no samples: the counts are written.
  expect_rejected([] { onepass::histogram_even(static_cast<const std::uint8_t*>(nullptr), 0, 4, 0, 256,
                                               static_cast<unsigned*>(nullptr)); },
                  "counts", "null");
  const long long b[] = {0, 1, 2};
  expect_rejected([&] { onepass::histogram_range(static_cast<const int*>(nullptr), 10, b, 3, counts_at(0x9000)); },
                  "samples", "null");
  expect_rejected([&] { onepass::histogram_range(fake<const int>(0x1000), 10, b, 3, static_cast<long long*>(nullptr)); },
                  "counts", "null");
  // Misaligned for their types.
  expect_rejected([] { onepass::histogram_even(fake<const std::uint16_t>(0x1001), 10, 4, 0, 256, counts_at(0x9000)); },
                  "samples", "aligned");
  expect_rejected([] { onepass::histogram_even(fake<const float>(0x1002), 10, 4, 0.0f, 1.0f, counts_at(0x9000)); },
                  "samples", "aligned");
  expect_rejected([] { onepass::histogram_even(fake<const int>(0x1001), 10, 4, 0, 256, counts_at(0x9000)); },
                  "samples", "aligned");
  expect_rejected([] { onepass::histogram_even(bytes_at(0x1000), 10, 4, 0, 256, counts_at(0x9002)); }, "counts",
                  "aligned");
  expect_rejected([] { onepass::histogram_even(bytes_at(0x1000), 10, 4, 0, 256, fake<unsigned long long>(0x9004)); },
                  "counts", "aligned");
  expect_rejected([&] { onepass::histogram_range(fake<const std::int16_t>(0x1003), 10, b, 3, counts_at(0x9000)); },
                  "samples", "aligned");
  // The counts inside the samples.
  expect_rejected([] { onepass::histogram_even(bytes_at(0x1000), 4096, 16, 0, 256, counts_at(0x1800)); }, "counts",
                  "overlaps");
  expect_rejected([] { onepass::histogram_even(bytes_at(0x1000), 4096, 16, 0, 256, counts_at(0x1000 - 60)); },
                  "counts", "overlaps");
  // A null sample pointer is fine for no samples, an unaligned one is fine right next to them.
  EXPECT_NO_THROW(onepass::detail::check_histogram_even_args(static_cast<const float*>(nullptr), 0, 4, 0.0f, 1.0f,
                                                             counts_at(0x9000)));
  EXPECT_NO_THROW(onepass::detail::check_histogram_even_args(bytes_at(0x1001), 4095, 16, 0ll, 256ll,
                                                             counts_at(0x1000 + 4096)));
}

TEST_F(HistogramValidation, CountsAndCounterWidths) {
  expect_rejected([] { onepass::histogram_even(bytes_at(0x1000), -1, 4, 0, 256, counts_at(0x9000)); }, "n",
                  "negative");
  const long long b[] = {0, 1, 2};
  expect_rejected([&] { onepass::histogram_range(bytes_at(0x1000), -5, b, 3, counts_at(0x9000)); }, "n", "negative");
  expect_rejected([] { onepass::histogram_even_workspace_bytes<std::uint8_t, unsigned>(-1, 4); }, "n", "negative");
  expect_rejected([] { onepass::histogram_range_workspace_bytes<float, unsigned>(-2, 4); }, "n", "negative");
  // 32-bit counters take at most their maximum of samples; 64-bit ones any n.
  expect_rejected([] { onepass::histogram_even(bytes_at(0x1000), two_to(32), 4, 0, 256, counts_at(0x9000)); }, "n",
                  "64-bit counters");
  expect_rejected([&] { onepass::histogram_range(bytes_at(0x1000), two_to(40), b, 3, counts_at(0x9000)); }, "n",
                  "64-bit counters");
  expect_rejected([] { onepass::histogram_even(bytes_at(0x1000), two_to(31), 4, 0, 256, fake<int>(0x9000)); }, "n",
                  "64-bit counters");
  using onepass::detail::check_histogram_even_args;
  const std::uintptr_t far = 1ull << 45;  // counts past the samples, however many there are
  EXPECT_NO_THROW(check_histogram_even_args(bytes_at(0x1000), two_to(32) - 1, 4, 0ll, 256ll, counts_at(far)));
  EXPECT_NO_THROW(check_histogram_even_args(bytes_at(0x1000), two_to(31) - 1, 4, 0ll, 256ll, fake<int>(far)));
  EXPECT_NO_THROW(
      check_histogram_even_args(bytes_at(0x1000), two_to(40), 4, 0ll, 256ll, fake<unsigned long long>(far)));
  EXPECT_NO_THROW(check_histogram_even_args(bytes_at(0x1000), two_to(40), 4, 0ll, 256ll, fake<long long>(far)));
}

TEST_F(HistogramValidation, Workspace) {
  // Even bins: bounded whatever n and the bin count are.
  for (int bins : {1, 256, 65536, 1 << 20, std::numeric_limits<int>::max()})
    for (long long n : {0ll, 1000ll, two_to(40)}) {
      EXPECT_LE((onepass::histogram_even_workspace_bytes<std::uint8_t, unsigned>(n, bins)), 16u << 20);
      EXPECT_LE((onepass::histogram_even_workspace_bytes<float, unsigned long long>(n, bins)), 16u << 20);
    }
  // Custom boundaries: the workspace holds them; too small, null and misaligned are refused.
  const long long b[] = {0, 10, 20, 30, 40};
  const std::size_t needed = onepass::histogram_range_workspace_bytes<std::uint8_t, unsigned>(1000, 5);
  ASSERT_GE(needed, sizeof b);
  auto call = [&](workspace ws) {
    onepass::histogram_range(bytes_at(0x1000), 1000, b, 5, counts_at(0x9000), ws, nullptr);
  };
  char* spare = fake<char>(0x20000000);
  expect_rejected([&] { call(workspace{}); }, "workspace", "null");
  expect_rejected([&] { call(workspace{nullptr, needed}); }, "workspace", "null");
  expect_rejected([&] { call(workspace{spare, needed - 1}); }, "workspace", "holds " + std::to_string(needed - 1));
  expect_rejected([&] { call(workspace{spare + 8, needed}); }, "workspace", "16-byte aligned");
}

// No test of this suite makes a CUDA call: the fixture checks (support/cuda_call_counter.hpp).
using HistogramRegistry = no_cuda_calls;

TEST_F(HistogramRegistry, LadderOrderAndIds) {
  std::vector<std::string> ids;
  for (const auto& v : ladder::histogram_variants()) ids.push_back(v.id);
  const std::vector<std::string> expected = {"global_atomic", "block_private", "warp_private", "onepass", "cub"};
  EXPECT_EQ(ids, expected);
  for (const auto& v : ladder::histogram_variants()) EXPECT_GT(std::string(v.summary).size(), 10u) << v.id;
  EXPECT_EQ((ladder::histogram_registry<float, unsigned>().size()), expected.size());
  EXPECT_EQ(std::string(ladder::find_histogram<std::uint8_t, unsigned>("warp_private").id), "warp_private");
  expect_rejected([] { ladder::find_histogram<std::uint8_t, unsigned>("shared_atomic"); }, "id",
                  "known: global_atomic, block_private");
  expect_rejected([] { ladder::find_histogram<float, unsigned>(""); }, "id", "names no histogram variant");
}

// Every variant checks the production call's arguments before anything else.
TEST_F(HistogramRegistry, VariantsCheckTheirArguments) {
  for (const auto& v : ladder::histogram_registry<std::uint16_t, unsigned>()) {
    SCOPED_TRACE(v.id);
    const auto* samples = fake<const std::uint16_t>(0x1000);
    expect_rejected([&] { v.run(samples, 10, 0, 0, 65536, counts_at(0x9000), workspace{}, nullptr); }, "bins",
                    "at least 1");
    expect_rejected([&] { v.run(samples, 10, 4, 7, 7, counts_at(0x9000), workspace{}, nullptr); }, "upper",
                    "greater than 'lower'");
    expect_rejected([&] { v.run(nullptr, 10, 4, 0, 65536, counts_at(0x9000), workspace{}, nullptr); }, "samples",
                    "null");
    expect_rejected([&] { v.run(samples, 10, 4, 0, 65536, nullptr, workspace{}, nullptr); }, "counts", "null");
    expect_rejected([&] { v.run(samples, -1, 4, 0, 65536, counts_at(0x9000), workspace{}, nullptr); }, "n",
                    "negative");
    expect_rejected([&] { v.run(samples, two_to(32), 4, 0, 65536, counts_at(0x9000), workspace{}, nullptr); }, "n",
                    "64-bit counters");
  }
}

// --- the binning on the host, against the reference -------------------------------------
// The library's bin of every sample equals the reference's, both in the general form
// (even_bins) and in the form the production kernel and the ladder use for these levels
// (with_fastest_bins: a 32-bit shift form where one applies). `fast_form` is set when
// that form is not the general one.
template <class Sample>
::testing::AssertionResult bins_agree(int bins, histogram_level_t<Sample> lower, histogram_level_t<Sample> upper,
                                      const std::vector<Sample>& samples, bool* fast_form = nullptr) {
  const auto e = onepass::detail::make_even_bins<Sample>(bins, lower, upper);
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  onepass::detail::with_fastest_bins(e, [&](const auto& fastest) {
    const bool general = std::is_same_v<std::decay_t<decltype(fastest)>, onepass::detail::even_bins<Sample>>;
    if (fast_form) *fast_form = !general;
    for (const Sample s : samples) {
      const long long want = reference_even_bin(s, bins, lower, upper);
      const int got = e(s), got_fastest = fastest(s);
      if (got != want || got_fastest != want) {
        std::ostringstream os;
        os << "sample " << +s << " with " << bins << " bins over [" << +lower << ", " << +upper << "): reference "
           << want << ", even_bins " << got << ", the " << (general ? "general" : "shift") << " form used "
           << got_fastest;
        result = ::testing::AssertionFailure() << os.str();
        return;
      }
    }
  });
  return result;
}

// Every value of an 8- or 16-bit type, or random values and the edges for 32 bits.
template <class Sample>
std::vector<Sample> probe_samples(long long lower, long long upper, int bins, std::mt19937_64& rng) {
  using lim = std::numeric_limits<Sample>;
  std::vector<Sample> out;
  if constexpr (sizeof(Sample) <= 2) {
    for (long long v = lim::min(); v <= lim::max(); ++v) out.push_back(static_cast<Sample>(v));
  } else {
    const auto add = [&](long long v) {
      if (v >= lim::min() && v <= lim::max()) out.push_back(static_cast<Sample>(v));
    };
    for (int i = 0; i < 3000; ++i) out.push_back(static_cast<Sample>(rng()));
    const long long range = upper - lower;
    for (int i = 0; i < 3000; ++i) add(lower + static_cast<long long>(rng() % static_cast<unsigned long long>(range)));
    // The first value of random bins, and the last value of the one before.
    for (int i = 0; i < 500; ++i) {
      const long long k = static_cast<long long>(rng() % static_cast<unsigned>(bins));
      const long long first = lower + static_cast<long long>((static_cast<__int128>(k) * range + bins - 1) / bins);
      add(first);
      add(first - 1);
    }
    for (long long v : {lower - 1, lower, lower + 1, upper - 2, upper - 1, upper, upper + 1,
                        static_cast<long long>(lim::min()), static_cast<long long>(lim::max()), 0ll, -1ll})
      add(v);
  }
  return out;
}

// Random levels of every kind: inside the type, wider than it, with a negative lower
// level, and with range == bins << k (the shift path).
template <class Sample>
void check_integer_binning(std::uint64_t seed) {
  using lim = std::numeric_limits<Sample>;
  std::mt19937_64 rng(seed);
  const long long type_span = static_cast<long long>(lim::max()) - lim::min() + 1;
  const int bin_choices[] = {1, 2, 3, 7, 255, 256, 257, 1000, 4096, 65535, 65536, 100000};
  int shift_cases = 0, general_cases = 0;
  for (int trial = 0; trial < (sizeof(Sample) <= 2 ? 60 : 400); ++trial) {
    const int bins = trial % 3 == 2 ? 1 + static_cast<int>(rng() % 70000) : bin_choices[rng() % std::size(bin_choices)];
    long long lower = 0, upper = 0;
    switch (trial % 4) {
      case 0: {  // inside the type
        lower = lim::min() + static_cast<long long>(rng() % static_cast<unsigned long long>(type_span));
        upper = lower + 1 + static_cast<long long>(rng() % static_cast<unsigned long long>(lim::max() - lower + 1));
        break;
      }
      case 1: {  // wider than the type
        lower = lim::min() - static_cast<long long>(rng() % static_cast<unsigned long long>(4 * type_span));
        upper = static_cast<long long>(lim::max()) + 1 + static_cast<long long>(rng() % static_cast<unsigned long long>(4 * type_span));
        break;
      }
      case 2: {  // the shift path: range == bins << k
        const int k = static_cast<int>(rng() % 12);
        lower = lim::min() + static_cast<long long>(rng() % static_cast<unsigned long long>(type_span)) - type_span / 8;
        upper = lower + (static_cast<long long>(bins) << k);
        break;
      }
      default: {  // a negative lower level and an odd range
        lower = -1 - static_cast<long long>(rng() % static_cast<unsigned long long>(type_span));
        upper = lower + 2 * static_cast<long long>(rng() % static_cast<unsigned long long>(type_span)) + 1;
        break;
      }
    }
    const auto e = onepass::detail::make_even_bins<Sample>(bins, lower, upper);
    const unsigned long long range = static_cast<unsigned long long>(upper - lower);
    int k = -1;
    for (int s = 0; s < 63 && k < 0; ++s)
      if ((static_cast<unsigned long long>(bins) << s) == range) k = s;
    EXPECT_EQ(e.shift, k) << bins << " bins over [" << lower << ", " << upper << ")";
    (k >= 0 ? shift_cases : general_cases) += 1;
    ASSERT_TRUE(bins_agree<Sample>(bins, lower, upper, probe_samples<Sample>(lower, upper, bins, rng)));
  }
  EXPECT_GT(shift_cases, 10);
  EXPECT_GT(general_cases, 10);
  // The natural levels: the shift forms where the bin width is a power of two below 2^32.
  const auto [natural_lower, natural_upper] = natural_levels<Sample>();
  const long long nl = static_cast<long long>(natural_lower), nu = static_cast<long long>(natural_upper);
  int fast_cases = 0;
  for (int bins : {1, 2, 255, 256, 257, 4096, 65536, 100000}) {
    bool fast = false;
    ASSERT_TRUE(bins_agree<Sample>(bins, nl, nu, probe_samples<Sample>(nl, nu, bins, rng), &fast));
    fast_cases += fast;
  }
  EXPECT_GE(fast_cases, 2) << "the production's shift forms were not exercised";
  // (upper - lower) * bins just below 2^63: the general path's largest products.
  ASSERT_TRUE(bins_agree<Sample>(65535, -two_to(46), two_to(46) - 1,
                                 probe_samples<Sample>(-two_to(46), two_to(46) - 1, 65535, rng)));
  ASSERT_TRUE(bins_agree<Sample>(2, -two_to(61), two_to(61) - 7, probe_samples<Sample>(-two_to(61), two_to(61) - 7, 2, rng)));
}

TEST(HistogramBinning, Uint8) { check_integer_binning<std::uint8_t>(301); }
TEST(HistogramBinning, Int8) { check_integer_binning<std::int8_t>(302); }
TEST(HistogramBinning, Uint16) { check_integer_binning<std::uint16_t>(303); }
TEST(HistogramBinning, Int16) { check_integer_binning<std::int16_t>(304); }
TEST(HistogramBinning, Int32) { check_integer_binning<int>(305); }
TEST(HistogramBinning, Uint32) { check_integer_binning<unsigned>(306); }

// Float levels of many magnitudes; samples random around them, at the bin edges (as
// computed in double) and their neighbouring floats, just below `upper`, and the specials.
TEST(HistogramBinning, Float) {
  std::mt19937_64 rng(307);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int rounded_to_bins = 0;  // samples whose product rounds up to `bins`, counted in the last bin
  for (int trial = 0; trial < 2000; ++trial) {
    const int bins = trial % 2 ? 1 + static_cast<int>(rng() % 100000) : histogram_bin_counts[rng() % 7];
    const float lower = static_cast<float>((unit(rng) - 0.5) * std::ldexp(1.0, static_cast<int>(rng() % 40) - 20));
    const float width = static_cast<float>(unit(rng) * std::ldexp(1.0, static_cast<int>(rng() % 40) - 20));
    const float upper = lower + width;
    if (!(lower < upper)) continue;
    std::vector<float> samples = edge_samples<float>(lower, upper);
    const double w = static_cast<double>(upper) - lower;
    for (int i = 0; i < 300; ++i) samples.push_back(static_cast<float>(lower + (unit(rng) * 1.5 - 0.25) * w));
    for (int i = 0; i < 100; ++i) {
      const float edge = static_cast<float>(lower + static_cast<double>(rng() % static_cast<unsigned>(bins)) * w / bins);
      samples.insert(samples.end(), {edge, std::nextafter(edge, -INFINITY), std::nextafter(edge, INFINITY)});
    }
    float below = upper;
    for (int i = 0; i < 16; ++i) samples.push_back(below = std::nextafter(below, lower));
    ASSERT_TRUE(bins_agree<float>(bins, lower, upper, samples));
    const float scale = static_cast<float>(bins) / (upper - lower);
    for (float s : samples)
      if (s >= lower && s < upper && (s - lower) * scale >= static_cast<float>(bins)) {
        ++rounded_to_bins;
        EXPECT_EQ(onepass::detail::make_even_bins<float>(bins, lower, upper)(s), bins - 1);
      }
  }
  EXPECT_GT(rounded_to_bins, 0) << "no sample just below 'upper' rounded up to 'bins'";
  // The natural levels: every bin's first float lands in it.
  const auto e = onepass::detail::make_even_bins<float>(256, 0.0f, 1.0f);
  for (int b = 0; b < 256; ++b) EXPECT_EQ(e(static_cast<float>(b) / 256), b);
  EXPECT_EQ(e(std::nextafter(1.0f, 0.0f)), 255);
  EXPECT_EQ(e(-0.0f), 0);
  for (float s : {1.0f, -1e-30f, NAN, INFINITY, -INFINITY}) EXPECT_EQ(e(s), -1) << s;
}

// A level range so narrow that float(bins) / (upper - lower) overflows: either refused,
// or `lower` still lands in bin 0 (it must not become a NaN or garbage bin).
TEST(HistogramBinning, FloatLevelsTooNarrowForTheBins) {
  const float lower = 0.0f, upper = 4 * std::numeric_limits<float>::denorm_min();
  try {
    const auto e = onepass::detail::make_even_bins<float>(65536, lower, upper);
    EXPECT_EQ(e(lower), 0);
    EXPECT_EQ(e(std::nextafter(upper, lower)), 65535);
  } catch (const onepass::invalid_argument& err) {
    EXPECT_EQ(err.argument(), "upper") << err.what();
  }
}

}  // namespace
}  // namespace onepass::test
