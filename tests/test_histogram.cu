// The production histogram through its public API: histogram_even and histogram_range in
// both call styles, every sample type, 1 to 100000 bins, every distribution, sizes from 0
// to 2^24 + 7 and past 2^32, levels narrower and wider than the sample type, both integer
// binning paths, samples outside the levels and NaN, uneven custom boundaries, counters of
// every width, CUDA-graph capture, a shared workspace, and the checks that need the
// runtime. Every result is compared exactly with the CPU reference, with the counts filled
// with garbage before the call and poison around them that must survive.
#include <cuda_runtime_api.h>

#include <memory>
#include <thread>

#include "support/histogram_checks.cuh"

namespace onepass::test {
namespace {

enum class style { simple, workspace };
constexpr style both_styles[] = {style::simple, style::workspace};
const char* style_name(style s) { return s == style::simple ? "simple" : "workspace"; }

// A non-blocking stream, so that no call can lean on the legacy stream's ordering.
cudaStream_t test_stream() {
  static const cudaStream_t stream = [] {
    cudaStream_t s = nullptr;
    throw_if(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    return s;
  }();
  return stream;
}

// --- one call, finished before returning ----------------------------------------------
// The workspace style gets a workspace of exactly histogram_even_workspace_bytes.
template <class Sample, class Counter>
void call_even(const Sample* samples, long long n, int bins, even_levels<Sample> lv, Counter* counts, style s,
               cudaStream_t stream) {
  if (s == style::simple) {
    onepass::histogram_even(samples, n, bins, lv.lower, lv.upper, counts, stream);
  } else {
    device_buffer<unsigned char> ws(static_cast<long long>(onepass::histogram_even_workspace_bytes<Sample, Counter>(n, bins)));
    onepass::histogram_even(samples, n, bins, lv.lower, lv.upper, counts, workspace{ws.get(), ws.bytes()}, stream);
    throw_if(cudaStreamSynchronize(stream), "histogram_even");  // before the workspace is freed
  }
  throw_if(cudaStreamSynchronize(stream), "histogram_even");
}

// The boundaries the call gets are a copy that is scribbled over and freed as soon as the
// call returns: the call may keep no pointer to the caller's array.
template <class Sample, class Counter>
void enqueue_range(const Sample* samples, long long n, const std::vector<histogram_level_t<Sample>>& boundaries,
                   Counter* counts, const workspace* ws, cudaStream_t stream) {
  using level = histogram_level_t<Sample>;
  const int count = static_cast<int>(boundaries.size());
  auto copy = std::make_unique<level[]>(boundaries.size());
  std::copy(boundaries.begin(), boundaries.end(), copy.get());
  if (ws) onepass::histogram_range(samples, n, copy.get(), count, counts, *ws, stream);
  else onepass::histogram_range(samples, n, copy.get(), count, counts, stream);
  std::fill(copy.get(), copy.get() + count, std::numeric_limits<level>::lowest());
  copy.reset();
}

template <class Sample, class Counter>
void call_range(const Sample* samples, long long n, const std::vector<histogram_level_t<Sample>>& boundaries,
                Counter* counts, style s, cudaStream_t stream) {
  if (s == style::simple) {
    enqueue_range(samples, n, boundaries, counts, nullptr, stream);
  } else {
    const int count = static_cast<int>(boundaries.size());
    device_buffer<unsigned char> ws(static_cast<long long>(onepass::histogram_range_workspace_bytes<Sample, Counter>(n, count)));
    const workspace w{ws.get(), ws.bytes()};
    enqueue_range(samples, n, boundaries, counts, &w, stream);
    throw_if(cudaStreamSynchronize(stream), "histogram_range");
  }
  throw_if(cudaStreamSynchronize(stream), "histogram_range");
}

// --- checks against the reference -----------------------------------------------------
// `samples` holds `host` on the device; `front` poisoned counters precede the counts.
template <class Counter = unsigned, class Sample>
void check_even(const std::vector<Sample>& host, const Sample* samples, int bins, even_levels<Sample> lv,
                int front = 0) {
  const std::vector<std::uint64_t> expected = reference_histogram_even(host, bins, lv.lower, lv.upper);
  guarded_counts<Counter> counts(bins, front);
  for (style s : both_styles) {
    SCOPED_TRACE(style_name(s));
    counts.fill_with_garbage(static_cast<std::uint64_t>(bins) * 2 + static_cast<int>(s));
    call_even(samples, static_cast<long long>(host.size()), bins, lv, counts.get(), s, test_stream());
    EXPECT_TRUE(counts.equal(expected));
  }
}

template <class Counter = unsigned, class Sample>
void check_range(const std::vector<Sample>& host, const Sample* samples,
                 const std::vector<histogram_level_t<Sample>>& boundaries) {
  const std::vector<std::uint64_t> expected = reference_histogram_range(host, boundaries);
  guarded_counts<Counter> counts(static_cast<int>(boundaries.size()) - 1);
  for (style s : both_styles) {
    SCOPED_TRACE(style_name(s));
    counts.fill_with_garbage(boundaries.size() * 2 + static_cast<int>(s));
    call_range(samples, static_cast<long long>(host.size()), boundaries, counts.get(), s, test_stream());
    EXPECT_TRUE(counts.equal(expected));
  }
}

template <class Sample>
std::string describe(distribution d, long long n, int bins, even_levels<Sample> lv) {
  std::ostringstream os;
  os << histogram_type_name<Sample>() << " " << distribution_name(d) << " n=" << n << " bins=" << bins << " over ["
     << +lv.lower << ", " << +lv.upper << ")";
  return os.str();
}

// --- every sample type x bin count x distribution x size -------------------------------
// 0, 1, the warp edges, both sides of 2^12 and 2^16, one round of the production
// kernel's loads (block threads x loads in flight x samples per 16 bytes) +- 1, and a
// random size.
template <class Sample>
std::vector<long long> sweep_sizes(std::uint64_t seed) {
  constexpr tuning::histogram_tuning t = tuning::default_histogram_tuning::value;
  const long long round = static_cast<long long>(t.block_threads) * t.vectors_per_thread * (16 / sizeof(Sample));
  std::mt19937_64 rng(seed);
  return capped_sorted_sizes({0, 1, 31, 32, 33, 4095, 4096, 4097, 65535, 65537, round - 1, round + 1,
                       1 + static_cast<long long>(rng() % 2000000)});
}

template <class Sample>
void sweep_natural_levels(std::uint64_t seed) {
  const even_levels<Sample> lv = natural_even_levels<Sample>();
  for (distribution d : all_distributions) {
    for (long long n : sweep_sizes<Sample>(seed + static_cast<std::uint64_t>(d))) {
      const std::vector<Sample> host = histogram_samples<Sample>(n, d, lv.lower, lv.upper, seed * 1000003 + n);
      const device_samples<Sample> samples(host);
      for (int bins : histogram_bin_counts) {
        SCOPED_TRACE(describe(d, n, bins, lv));
        check_even(host, samples.get(), bins, lv);
      }
    }
  }
}

TEST(HistogramEvenSweep, uint8) {
  ONEPASS_REQUIRE_GPU();
  sweep_natural_levels<std::uint8_t>(11);
}
TEST(HistogramEvenSweep, int8) {
  ONEPASS_REQUIRE_GPU();
  sweep_natural_levels<std::int8_t>(12);
}
TEST(HistogramEvenSweep, uint16) {
  ONEPASS_REQUIRE_GPU();
  sweep_natural_levels<std::uint16_t>(13);
}
TEST(HistogramEvenSweep, int16) {
  ONEPASS_REQUIRE_GPU();
  sweep_natural_levels<std::int16_t>(14);
}
TEST(HistogramEvenSweep, int32) {
  ONEPASS_REQUIRE_GPU();
  sweep_natural_levels<int>(15);
}
TEST(HistogramEvenSweep, uint32) {
  ONEPASS_REQUIRE_GPU();
  sweep_natural_levels<unsigned>(16);
}
TEST(HistogramEvenSweep, float) {
  ONEPASS_REQUIRE_GPU();
  sweep_natural_levels<float>(17);
}

// 2^24 + 7 samples, for a few combinations only (time).
template <class Counter, class Sample>
void check_large(distribution d, int bins, std::uint64_t seed) {
  const long long n = (1ll << 24) + 7;
  if (n > max_test_items()) return;
  const even_levels<Sample> lv = natural_even_levels<Sample>();
  const std::vector<Sample> host = histogram_samples<Sample>(n, d, lv.lower, lv.upper, seed);
  const device_samples<Sample> samples(host);
  SCOPED_TRACE(describe(d, n, bins, lv) + " counter " + histogram_type_name<Counter>());
  check_even<Counter>(host, samples.get(), bins, lv);
}

TEST(HistogramEven, LargeInputs) {
  ONEPASS_REQUIRE_GPU();
  check_large<unsigned, std::uint8_t>(distribution::uniform, 256, 21);
  check_large<unsigned long long, std::uint8_t>(distribution::one_bin, 256, 22);
  check_large<unsigned, std::uint8_t>(distribution::skewed, 255, 23);
  check_large<unsigned, unsigned>(distribution::skewed, 4096, 24);
  check_large<unsigned, float>(distribution::sorted, 65536, 25);
  check_large<unsigned, std::int16_t>(distribution::uniform, 100000, 26);
}

// --- levels: narrower and wider than the type, shift and general paths, out of range ---
template <class Sample>
struct level_case {
  histogram_level_t<Sample> lower, upper;
  int bins;
};

// Samples drawn a little beyond the levels, with the edges, the type's extremes (and for
// float NaN and infinities) mixed in: what falls outside must not be counted.
template <class Counter = unsigned, class Sample>
void check_level_cases(const std::vector<level_case<Sample>>& cases, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (const level_case<Sample>& c : cases) {
    const even_levels<Sample> lv{c.lower, c.upper};
    for (distribution d : all_distributions) {
      for (long long n : capped_sorted_sizes({1, 33, 4097, 65537, 1 + static_cast<long long>(rng() % 300000)})) {
        std::vector<Sample> host = samples_around<Sample>(n, d, c.lower, c.upper, rng());
        mix_in(host, edge_samples<Sample>(c.lower, c.upper), rng());
        const device_samples<Sample> samples(host);
        SCOPED_TRACE(describe(d, n, c.bins, lv));
        check_even<Counter>(host, samples.get(), c.bins, lv);
      }
    }
  }
}

constexpr long long two_to(int k) { return 1ll << k; }

TEST(HistogramEven, LevelsUint8) {
  ONEPASS_REQUIRE_GPU();
  check_level_cases<unsigned, std::uint8_t>({{10, 200, 7},       // narrower; width 190/7
                                             {16, 240, 28},      // narrower; width 8 (shift)
                                             {0, 256, 3},        // the type; width 256/3
                                             {255, 256, 1},      // one value
                                             {-100, 1000, 11},   // wider; width 100
                                             {-256, 512, 3},     // wider; width 256 (shift)
                                             {0, 256, 1000},     // more bins than values
                                             {0, 256, 100000}},  // counts in global memory
                                            31);
}
TEST(HistogramEven, LevelsInt8) {
  ONEPASS_REQUIRE_GPU();
  check_level_cases<unsigned, std::int8_t>({{-128, 128, 255}, {-50, 77, 127}, {-1000, 1000, 13}, {-1, 1, 2}}, 32);
}
TEST(HistogramEven, LevelsUint16) {
  ONEPASS_REQUIRE_GPU();
  check_level_cases<unsigned, std::uint16_t>(
      {{3, 7003, 1000}, {1024, 1024 + 4096 * 4, 4096}, {-70000, 140000, 65536}, {0, 65536, 100000}}, 33);
}
TEST(HistogramEven, LevelsInt16) {
  ONEPASS_REQUIRE_GPU();
  check_level_cases<unsigned, std::int16_t>(
      {{-32768, 32768, 257}, {-1000, 1048, 256}, {-100000, 100000, 4096}, {-32768, 32767, 65535}}, 34);
}
TEST(HistogramEven, LevelsInt32) {
  ONEPASS_REQUIRE_GPU();
  check_level_cases<unsigned, int>({{-two_to(31), two_to(31), 4096},       // the type; shift 20
                                    {-123457, 9876543, 257},                // narrower; general
                                    {-two_to(40), two_to(40), 1000},        // wider; general
                                    {-two_to(30), two_to(30), 65536},       // narrower; shift 15
                                    {-two_to(46), two_to(46) - 1, 65535},   // range * bins just below 2^63
                                    {-two_to(31), two_to(31) - 1, 3},       // all but the largest value
                                    {-two_to(31), two_to(31), 100000}},     // global memory
                                   35);
}
TEST(HistogramEven, LevelsUint32) {
  ONEPASS_REQUIRE_GPU();
  check_level_cases<unsigned, unsigned>({{0, two_to(32), 256},                  // shift 24
                                         {1000, 3000000000ll, 255},             // narrower; general
                                         {-two_to(33), two_to(34), 65536},      // wider; general
                                         {0, two_to(32), 1},                    // one bin of width 2^32
                                         {two_to(31), two_to(31) + two_to(20), 4096}},
                                        36);
}
TEST(HistogramEven, LevelsFloat) {
  ONEPASS_REQUIRE_GPU();
  check_level_cases<unsigned, float>({{0.0f, 1.0f, 256},
                                      {-3.5f, 7.25f, 100},
                                      {-1e6f, 1e6f, 65536},
                                      {1.0f, 1.0001f, 257},  // fewer floats than bins in places
                                      {-1e30f, 1e30f, 7},
                                      {100.0f, 101.0f, 1000},
                                      {-1.0f, 0.0f, 1},
                                      {0.0f, 1.0f, 100000}},
                                     37);
}

// Where each block's counters move from shared memory to global memory.
TEST(HistogramEven, BinCountsAroundTheSharedMemoryLimit) {
  ONEPASS_REQUIRE_GPU();
  const int most = onepass::detail::max_shared_bytes_per_block() / 4;  // one 32-bit counter per bin
  const even_levels<std::uint16_t> lv = natural_even_levels<std::uint16_t>();
  for (distribution d : {distribution::uniform, distribution::one_bin})
    for (long long n : capped_sorted_sizes({65537, (1 << 20) + 3})) {
      const auto host = histogram_samples<std::uint16_t>(n, d, lv.lower, lv.upper, 41 + n);
      const device_samples<std::uint16_t> samples(host);
      for (int bins : {most - 1, most, most + 1}) {
        SCOPED_TRACE(describe(d, n, bins, lv));
        check_even(host, samples.get(), bins, lv);
      }
    }
}

// --- counters ----------------------------------------------------------------------------
TEST(HistogramEven, CountersOfEveryWidth) {
  ONEPASS_REQUIRE_GPU();
  for (long long n : capped_sorted_sizes({33, 65537, (1 << 20) + 1})) {
    for (distribution d : {distribution::uniform, distribution::one_bin}) {
      const auto lv16 = natural_even_levels<std::uint16_t>();
      const auto h16 = histogram_samples<std::uint16_t>(n, d, lv16.lower, lv16.upper, 51 + n);
      const device_samples<std::uint16_t> s16(h16);
      for (int bins : {257, 65536}) {
        SCOPED_TRACE(describe(d, n, bins, lv16) + " int32 counters");
        check_even<int>(h16, s16.get(), bins, lv16);
      }
      const auto lvf = natural_even_levels<float>();
      const auto hf = histogram_samples<float>(n, d, lvf.lower, lvf.upper, 52 + n);
      const device_samples<float> sf(hf);
      SCOPED_TRACE(describe(d, n, 4096, lvf) + " uint64 counters");
      check_even<unsigned long long>(hf, sf.get(), 4096, lvf);
      const auto lv8 = natural_even_levels<std::int8_t>();
      const auto h8 = histogram_samples<std::int8_t>(n, d, lv8.lower, lv8.upper, 53 + n);
      const device_samples<std::int8_t> s8(h8);
      SCOPED_TRACE(describe(d, n, 256, lv8) + " int64 counters");
      check_even<long long>(h8, s8.get(), 256, lv8);
    }
  }
}

// --- where the samples and the counts start ------------------------------------------------
// Every start within 16 bytes (the production kernel reads 16-byte vectors after an
// unaligned head), and counts that are not 16-byte aligned.
template <class Sample>
void check_unaligned_starts(std::uint64_t seed) {
  const even_levels<Sample> lv = natural_even_levels<Sample>();
  constexpr int per_vector = 16 / sizeof(Sample);
  const long long longest = std::min<long long>(70001, max_test_items());
  const auto all = histogram_samples<Sample>(longest + per_vector, distribution::uniform, lv.lower, lv.upper, seed);
  const device_samples<Sample> samples(all);
  for (int offset = 0; offset < per_vector; ++offset)
    for (long long n : capped_sorted_sizes({1, per_vector - 1, per_vector + 1, 4097, longest})) {
      const std::vector<Sample> host(all.begin() + offset, all.begin() + offset + n);
      for (int bins : {256, 4096}) {
        SCOPED_TRACE(describe(distribution::uniform, n, bins, lv) + " offset " + std::to_string(offset));
        check_even(host, samples.get() + offset, bins, lv, /*front=*/1 + offset % 3);
      }
    }
}

TEST(HistogramEven, UnalignedSamplesAndCounts) {
  ONEPASS_REQUIRE_GPU();
  check_unaligned_starts<std::uint8_t>(61);
  check_unaligned_starts<std::int16_t>(62);
  check_unaligned_starts<float>(63);
}

TEST(Histogram, EmptyInputZeroesTheCounts) {
  ONEPASS_REQUIRE_GPU();
  guarded_counts<unsigned> counts(300);
  const std::vector<long long> boundaries = {-5, 0, 7, 100};
  guarded_counts<unsigned long long> range_counts(3);
  for (style s : both_styles) {
    SCOPED_TRACE(style_name(s));
    counts.fill_with_garbage(71);
    call_even(static_cast<const std::uint8_t*>(nullptr), 0, 300, natural_even_levels<std::uint8_t>(), counts.get(), s,
              test_stream());
    EXPECT_TRUE(counts.equal(std::vector<std::uint64_t>(300, 0)));
    range_counts.fill_with_garbage(72);
    call_range(static_cast<const int*>(nullptr), 0, boundaries, range_counts.get(), s, test_stream());
    EXPECT_TRUE(range_counts.equal(std::vector<std::uint64_t>(3, 0)));
  }
}

// --- custom boundaries -----------------------------------------------------------------------
// `count` strictly increasing boundaries spanning about [lo, hi), with very uneven widths
// (log-normal gaps, some of one unit or one float apart).
template <class Sample>
std::vector<histogram_level_t<Sample>> uneven_boundaries(int count, double lo, double hi, std::uint64_t seed) {
  using level = histogram_level_t<Sample>;
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> gap(0.0, 1.5);
  std::vector<double> weights(static_cast<std::size_t>(count - 1));
  double total = 0;
  for (double& w : weights) total += (w = gap(rng));
  std::vector<level> out(static_cast<std::size_t>(count));
  if constexpr (std::is_floating_point_v<Sample>) {
    double at = lo;
    out[0] = static_cast<float>(lo);
    for (int i = 1; i < count; ++i) {
      at += weights[static_cast<std::size_t>(i - 1)] / total * (hi - lo);
      // Now and then a bin one float wide.
      const float next = rng() % 16 == 0 ? std::nextafter(out[i - 1], INFINITY) : static_cast<float>(at);
      out[static_cast<std::size_t>(i)] = std::max(next, std::nextafter(out[static_cast<std::size_t>(i - 1)], INFINITY));
    }
  } else {
    // Integer gaps of at least one that add up to the span (or a little more).
    const double spare = std::max(0.0, hi - lo - (count - 1));
    long long at = static_cast<long long>(std::floor(lo));
    out[0] = at;
    for (int i = 1; i < count; ++i) {
      at += 1 + static_cast<long long>(weights[static_cast<std::size_t>(i - 1)] / total * spare);
      out[static_cast<std::size_t>(i)] = at;
    }
  }
  return out;
}

// The boundaries themselves and their neighbours, as samples.
template <class Sample>
std::vector<Sample> boundary_samples(const std::vector<histogram_level_t<Sample>>& b, std::uint64_t seed) {
  std::vector<Sample> out = edge_samples<Sample>(b.front(), b.back());
  std::mt19937_64 rng(seed);
  for (int k = 0; k < 64; ++k) {
    const auto v = b[rng() % b.size()];
    if constexpr (std::is_floating_point_v<Sample>) {
      out.insert(out.end(), {v, std::nextafter(v, -INFINITY), std::nextafter(v, INFINITY)});
    } else {
      for (long long x : {v - 1, v, v + 1})
        if (x >= std::numeric_limits<Sample>::min() && x <= std::numeric_limits<Sample>::max())
          out.push_back(static_cast<Sample>(x));
    }
  }
  return out;
}

template <class Sample>
void sweep_range(std::uint64_t seed) {
  const auto [natural_lower, natural_upper] = natural_levels<Sample>();
  const double middle = (natural_lower + natural_upper) / 2, width = natural_upper - natural_lower;
  std::mt19937_64 rng(seed);
  bool narrower = false;
  for (int count : {2, 3, 256, 257, 258, 4097, 65537}) {
    // Alternately narrower and wider than the type (wider anyway where the boundaries need
    // more integers than the type holds).
    narrower = !narrower;
    const double span = std::max((narrower ? 0.7 : 1.25) * width, std::is_floating_point_v<Sample> ? 0.0 : 3.0 * count);
    const auto boundaries = uneven_boundaries<Sample>(count, middle - span / 2, middle + span / 2, rng());
    for (distribution d : all_distributions) {
      for (long long n : capped_sorted_sizes({0, 1, 33, 4097, 65537, 1 + static_cast<long long>(rng() % 300000)})) {
        std::vector<Sample> host = samples_around<Sample>(n, d, boundaries.front(), boundaries.back(), rng());
        mix_in(host, boundary_samples<Sample>(boundaries, rng()), rng(), 8);
        const device_samples<Sample> samples(host);
        SCOPED_TRACE(std::string(histogram_type_name<Sample>()) + " " + distribution_name(d) + " n=" +
                     std::to_string(n) + " boundaries=" + std::to_string(count));
        check_range(host, samples.get(), boundaries);
      }
    }
  }
}

TEST(HistogramRange, UnevenBoundariesUint8) {
  ONEPASS_REQUIRE_GPU();
  sweep_range<std::uint8_t>(81);
}
TEST(HistogramRange, UnevenBoundariesInt8) {
  ONEPASS_REQUIRE_GPU();
  sweep_range<std::int8_t>(82);
}
TEST(HistogramRange, UnevenBoundariesUint16) {
  ONEPASS_REQUIRE_GPU();
  sweep_range<std::uint16_t>(83);
}
TEST(HistogramRange, UnevenBoundariesInt16) {
  ONEPASS_REQUIRE_GPU();
  sweep_range<std::int16_t>(84);
}
TEST(HistogramRange, UnevenBoundariesInt32) {
  ONEPASS_REQUIRE_GPU();
  sweep_range<int>(85);
}
TEST(HistogramRange, UnevenBoundariesUint32) {
  ONEPASS_REQUIRE_GPU();
  sweep_range<unsigned>(86);
}
TEST(HistogramRange, UnevenBoundariesFloat) {
  ONEPASS_REQUIRE_GPU();
  sweep_range<float>(87);
}

// Boundaries at even steps count what histogram_even counts.
TEST(HistogramRange, EvenBoundariesMatchHistogramEven) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>(300007, max_test_items());
  {
    std::vector<long long> b(257);
    for (int i = 0; i <= 256; ++i) b[static_cast<std::size_t>(i)] = i;
    const auto host = histogram_samples<std::uint8_t>(n, distribution::skewed, 0, 256, 91);
    const device_samples<std::uint8_t> samples(host);
    EXPECT_EQ(reference_histogram_range(host, b), reference_histogram_even(host, 256, 0ll, 256ll));
    check_range(host, samples.get(), b);
  }
  {
    std::vector<long long> b(4097);
    for (int i = 0; i <= 4096; ++i) b[static_cast<std::size_t>(i)] = -two_to(31) + static_cast<long long>(i) * two_to(20);
    const auto host = histogram_samples<int>(n, distribution::uniform, -two_to(31), two_to(31), 92);
    const device_samples<int> samples(host);
    EXPECT_EQ(reference_histogram_range(host, b), reference_histogram_even(host, 4096, -two_to(31), two_to(31)));
    check_range<unsigned long long>(host, samples.get(), b);
  }
}

// The boundaries are checked on the host, after the runtime has said they are host memory.
TEST(HistogramRange, BadBoundariesAreRefusedAndNothingIsWritten) {
  ONEPASS_REQUIRE_GPU();
  const device_samples<float> samples(histogram_samples<float>(1000, distribution::uniform, 0.0f, 1.0f, 93));
  guarded_counts<unsigned> counts(3);
  counts.poison();
  const auto call = [&](std::vector<float> b) {
    onepass::histogram_range(samples.get(), 1000, b.data(), static_cast<int>(b.size()), counts.get());
  };
  expect_rejected([&] { call({0.0f, 0.5f, 0.5f, 1.0f}); }, "boundaries", "strictly increasing");
  expect_rejected([&] { call({0.0f, 0.7f, 0.5f, 1.0f}); }, "boundaries", "strictly increasing");
  expect_rejected([&] { call({0.0f, NAN, 0.5f, 1.0f}); }, "boundaries", "NaN");
  expect_rejected([&] { call({NAN, 0.2f, 0.5f, 1.0f}); }, "boundaries", "NaN");
  device_buffer<float> on_device(std::vector<float>{0.0f, 0.25f, 0.5f, 1.0f});
  expect_rejected([&] { onepass::histogram_range(samples.get(), 1000, on_device.get(), 4, counts.get()); },
                  "boundaries", "device memory");
  settle();
  EXPECT_TRUE(counts.untouched());
}

// Boundaries in pinned host memory are host memory too.
TEST(HistogramRange, PinnedBoundaries) {
  ONEPASS_REQUIRE_GPU();
  const auto host =
      histogram_samples<std::uint16_t>(std::min<long long>(50001, max_test_items()), distribution::uniform, 0, 65536, 94);
  const device_samples<std::uint16_t> samples(host);
  const std::vector<long long> b = uneven_boundaries<std::uint16_t>(1000, -10, 70000, 95);
  long long* pinned = nullptr;
  ONEPASS_CHECK_CUDA(cudaMallocHost(&pinned, b.size() * sizeof(long long)));
  std::copy(b.begin(), b.end(), pinned);
  guarded_counts<unsigned> counts(999);
  counts.fill_with_garbage(96);
  onepass::histogram_range(samples.get(), samples.size(), pinned, 1000, counts.get(), test_stream());
  ONEPASS_CHECK_CUDA(cudaStreamSynchronize(test_stream()));
  ONEPASS_CHECK_CUDA(cudaFreeHost(pinned));
  EXPECT_TRUE(counts.equal(reference_histogram_range(host, b)));
}

// --- graphs and shared workspaces ---------------------------------------------------------------
// Both histograms captured in the workspace style and replayed on new samples, over counts
// refilled with garbage; the boundaries' host array is gone before the first replay.
TEST(Histogram, WorkspaceStyleInCudaGraph) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>((3 << 20) + 5, max_test_items());
  device_buffer<std::uint8_t> bytes(n);
  device_buffer<float> floats(n);
  const std::vector<float> boundaries = uneven_boundaries<float>(1000, -0.25, 1.25, 101);
  guarded_counts<unsigned> even_counts(256);
  guarded_counts<unsigned long long> range_counts(999);
  device_buffer<unsigned char> even_ws(
      static_cast<long long>(onepass::histogram_even_workspace_bytes<std::uint8_t, unsigned>(n, 256)));
  device_buffer<unsigned char> range_ws(
      static_cast<long long>(onepass::histogram_range_workspace_bytes<float, unsigned long long>(n, 1000)));
  cudaStream_t stream;
  ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  ONEPASS_CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  onepass::histogram_even(bytes.get(), n, 256, 0, 256, even_counts.get(), workspace{even_ws.get(), even_ws.bytes()},
                          stream);
  const workspace rws{range_ws.get(), range_ws.bytes()};
  enqueue_range(floats.get(), n, boundaries, range_counts.get(), &rws, stream);
  ONEPASS_CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  ONEPASS_CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (std::uint64_t round = 0; round < 3; ++round) {
    const distribution d = all_distributions[round];
    const auto host_bytes = histogram_samples<std::uint8_t>(n, d, 0, 256, 102 + round);
    std::vector<float> host_floats = histogram_samples<float>(n, d, -0.5f, 1.5f, 105 + round);
    mix_in(host_floats, edge_samples<float>(boundaries.front(), boundaries.back()), 108 + round);
    bytes.upload(host_bytes);
    floats.upload(host_floats);
    even_counts.fill_with_garbage(110 + round);
    range_counts.fill_with_garbage(120 + round);
    ONEPASS_CHECK_CUDA(cudaGraphLaunch(exec, stream));
    ONEPASS_CHECK_CUDA(cudaStreamSynchronize(stream));
    EXPECT_TRUE(even_counts.equal(reference_histogram_even(host_bytes, 256, 0ll, 256ll))) << "round " << round;
    EXPECT_TRUE(range_counts.equal(reference_histogram_range(host_floats, boundaries))) << "round " << round;
  }
  ONEPASS_CHECK_CUDA(cudaGraphExecDestroy(exec));
  ONEPASS_CHECK_CUDA(cudaGraphDestroy(graph));
  ONEPASS_CHECK_CUDA(cudaStreamDestroy(stream));
}

// Calls queued back to back on one stream share one workspace: each call's boundaries
// must not be overwritten by the next call's before its counting is done.
TEST(Histogram, BackToBackCallsShareAWorkspace) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>(1 << 20, max_test_items());
  const std::vector<float> host = histogram_samples<float>(n, distribution::uniform, -0.5f, 1.5f, 131);
  const device_samples<float> samples(host);
  const std::vector<std::vector<float>> boundary_sets = {uneven_boundaries<float>(300, -0.25, 1.25, 132),
                                                         uneven_boundaries<float>(5000, 0.0, 1.0, 133),
                                                         uneven_boundaries<float>(2, 0.25, 0.75, 134)};
  std::size_t ws_bytes = onepass::histogram_even_workspace_bytes<float, unsigned>(n, 777);
  for (const auto& b : boundary_sets)
    ws_bytes = std::max(ws_bytes, onepass::histogram_range_workspace_bytes<float, unsigned>(n, static_cast<int>(b.size())));
  device_buffer<unsigned char> ws(static_cast<long long>(ws_bytes));
  const workspace w{ws.get(), ws.bytes()};
  struct call {
    long long n;
    const std::vector<float>* boundaries;  // null: even bins
    std::unique_ptr<guarded_counts<unsigned>> counts;
  };
  std::vector<call> calls;
  for (int i = 0; i < 16; ++i) {
    const std::vector<float>* b = i % 4 == 3 ? nullptr : &boundary_sets[static_cast<std::size_t>(i % 4)];
    calls.push_back({n - 7 * i, b, std::make_unique<guarded_counts<unsigned>>(b ? static_cast<int>(b->size()) - 1 : 777)});
    calls.back().counts->fill_with_garbage(140 + i);
  }
  for (call& c : calls) {
    if (c.boundaries) enqueue_range(samples.get(), c.n, *c.boundaries, c.counts->get(), &w, test_stream());
    else onepass::histogram_even(samples.get(), c.n, 777, -0.5f, 1.5f, c.counts->get(), w, test_stream());
  }
  ONEPASS_CHECK_CUDA(cudaStreamSynchronize(test_stream()));
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const std::vector<float> prefix(host.begin(), host.begin() + calls[i].n);
    const auto expected = calls[i].boundaries ? reference_histogram_range(prefix, *calls[i].boundaries)
                                              : reference_histogram_even(prefix, 777, -0.5f, 1.5f);
    EXPECT_TRUE(calls[i].counts->equal(expected)) << "call " << i;
  }
}

// --- more than 2^32 samples -------------------------------------------------------------------
// A byte per sample: mostly 200, one sample in 64 anything, so that one bin passes 2^32.
__host__ __device__ inline std::uint8_t huge_sample(long long i) {
  unsigned long long x = static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return (x & 63) == 0 ? static_cast<std::uint8_t>(x >> 40) : std::uint8_t{200};
}
__global__ void fill_huge_samples(std::uint8_t* p, long long n) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) p[i] = huge_sample(i);
}

TEST(HistogramEven, MoreThan2To32Samples) {
  ONEPASS_REQUIRE_GPU();
  const long long n = (1ll << 32) + (1ll << 28) + 3;
  const long long limit32 = (1ll << 32) - 1;  // the most a uint32 counter takes
  if (n > max_test_items()) GTEST_SKIP() << "ONEPASS_TEST_MAX_N caps sizes below 2^32";
  std::size_t free_bytes = 0, total = 0;
  ONEPASS_CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < static_cast<std::size_t>(n) + (1ull << 30))
    GTEST_SKIP() << "needs ~5.6 GB of free GPU memory, " << (free_bytes >> 20) << " MiB free";
  device_buffer<std::uint8_t> samples(n);
  fill_huge_samples<<<8192, 256>>>(samples.get(), n);
  ONEPASS_CHECK_CUDA(cudaGetLastError());
  settle();

  // How often each value occurs, before and after the uint32 limit, on every CPU thread.
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<std::uint64_t>> below(threads, std::vector<std::uint64_t>(256)), above = below;
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const long long begin = n * t / threads, end = n * (t + 1) / threads;
      for (long long i = begin; i < end; ++i) ++(i < limit32 ? below : above)[t][huge_sample(i)];
    });
  for (auto& th : pool) th.join();
  std::vector<std::uint64_t> values_below(256), values_all(256);
  for (unsigned t = 0; t < threads; ++t)
    for (int v = 0; v < 256; ++v) {
      values_below[static_cast<std::size_t>(v)] += below[t][static_cast<std::size_t>(v)];
      values_all[static_cast<std::size_t>(v)] += below[t][static_cast<std::size_t>(v)] + above[t][static_cast<std::size_t>(v)];
    }
  ASSERT_GT(values_all[200], 1ull << 32) << "the data must push one bin past 2^32";
  // The reference bins each value, weighted by how often it occurs.
  auto expected = [](const std::vector<std::uint64_t>& per_value, int bins) {
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(bins));
    for (int v = 0; v < 256; ++v)
      counts[static_cast<std::size_t>(reference_even_bin(static_cast<std::uint8_t>(v), bins, 0ll, 256ll))] +=
          per_value[static_cast<std::size_t>(v)];
    return counts;
  };
  for (int bins : {256, 100}) {
    SCOPED_TRACE("bins=" + std::to_string(bins));
    guarded_counts<unsigned long long> wide(bins);
    wide.fill_with_garbage(150);
    onepass::histogram_even(samples.get(), n, bins, 0, 256, wide.get(), test_stream());
    ONEPASS_CHECK_CUDA(cudaStreamSynchronize(test_stream()));
    EXPECT_TRUE(wide.equal(expected(values_all, bins)));
    // Exactly as many samples as a uint32 counter takes.
    guarded_counts<unsigned> narrow(bins);
    narrow.fill_with_garbage(151);
    onepass::histogram_even(samples.get(), limit32, bins, 0, 256, narrow.get(), test_stream());
    ONEPASS_CHECK_CUDA(cudaStreamSynchronize(test_stream()));
    EXPECT_TRUE(narrow.equal(expected(values_below, bins)));
  }
}

// --- checks that need the runtime ---------------------------------------------------------------
TEST(Histogram, ThirtyTwoBitCountersRefuseTooManySamples) {
  ONEPASS_REQUIRE_GPU();
  const device_samples<std::uint8_t> samples(histogram_samples<std::uint8_t>(4096, distribution::uniform, 0, 256, 161));
  const std::vector<long long> b = {0, 100, 256};
  guarded_counts<unsigned> u32(256);
  guarded_counts<int> i32(256);
  u32.poison();
  i32.poison();
  expect_rejected([&] { onepass::histogram_even(samples.get(), two_to(32), 256, 0, 256, u32.get()); }, "n",
                  "64-bit counters");
  expect_rejected([&] { onepass::histogram_range(samples.get(), two_to(32), b.data(), 3, u32.get()); }, "n",
                  "64-bit counters");
  expect_rejected([&] { onepass::histogram_even(samples.get(), two_to(31), 256, 0, 256, i32.get()); }, "n",
                  "64-bit counters");
  settle();
  EXPECT_TRUE(u32.untouched());
  EXPECT_TRUE(i32.untouched());
}

TEST(Histogram, HostMemoryIsRefusedAndNothingIsWritten) {
  ONEPASS_REQUIRE_GPU();
  const std::vector<std::uint8_t> host(1000, 7);
  const device_samples<std::uint8_t> samples(host);
  const std::vector<long long> b = {0, 7, 8, 256};
  guarded_counts<unsigned> counts(256);
  counts.poison();
  expect_rejected([&] { onepass::histogram_even(host.data(), 1000, 256, 0, 256, counts.get()); }, "samples",
                  "host memory");
  expect_rejected([&] { onepass::histogram_range(host.data(), 1000, b.data(), 4, counts.get()); }, "samples",
                  "host memory");
  std::vector<unsigned> host_counts(256, 5);
  expect_rejected([&] { onepass::histogram_even(samples.get(), 1000, 256, 0, 256, host_counts.data()); }, "counts",
                  "host memory");
  settle();
  EXPECT_TRUE(counts.untouched());
  EXPECT_EQ(host_counts, std::vector<unsigned>(256, 5));
}

}  // namespace
}  // namespace onepass::test
