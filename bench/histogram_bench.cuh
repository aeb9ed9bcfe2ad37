// onepass-bench's histogram tables: every registry variant on one set of samples, its
// counts checked exactly against the CPU reference before it is timed, rates as
// fractions of the read-only ceiling. Compiled once per sample type
// (histogram_bench_<dtype>.cu).
//
// Even bins over the sample type's whole range ([0, 256) for uint8, [-2^31, 2^31) for
// int32, [0, 1) for float: tests/support/histogram_reference.hpp's natural_levels), so
// every sample is counted and the distribution alone decides where the counts go.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <thread>

#include "gpu.cuh"
#include "onepass/ladder/histogram/registry.cuh"
#include "support/histogram_reference.hpp"

namespace onepass::bench {

primitive_desc histogram_primitive();
std::vector<record> run_histogram_table(const bench_case& c, bench_context& ctx);

// The counters the tables use: 32-bit, what an image or token histogram holds. A 32-bit
// count could overflow beyond 2^32 - 1 samples, so the library rejects such n for them;
// the bench says so before it generates any samples.
using histogram_counter = std::uint32_t;

namespace detail {

// The reference counts of `samples`, from the reference's own bin definition, spread over
// up to 16 threads (a 2^30-sample table would take a minute on one). Each thread keeps
// its own counts, so their memory bounds the threads when there are many bins.
template <class Sample, class Level>
std::vector<std::uint64_t> reference_counts(const std::vector<Sample>& samples, int bins, Level lower, Level upper) {
  const long long n = static_cast<long long>(samples.size());
  const long long per_thread_bytes = 8ll * bins;
  unsigned workers = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  workers = static_cast<unsigned>(std::max(1ll, std::min<long long>(workers, (1ll << 30) / per_thread_bytes)));
  if (n < (1 << 20)) workers = 1;
  std::vector<std::vector<std::uint64_t>> partial(workers, std::vector<std::uint64_t>(static_cast<std::size_t>(bins)));
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      auto& counts = partial[w];
      for (long long i = n * w / workers, end = n * (w + 1) / workers; i < end; ++i) {
        const long long b = test::reference_even_bin(samples[static_cast<std::size_t>(i)], bins, lower, upper);
        if (b >= 0) ++counts[static_cast<std::size_t>(b)];
      }
    });
  for (auto& t : threads) t.join();
  for (unsigned w = 1; w < workers; ++w)
    for (std::size_t b = 0; b < partial[0].size(); ++b) partial[0][b] += partial[w][b];
  return std::move(partial[0]);
}

}  // namespace detail

template <class Sample>
std::vector<record> run_histogram_table_typed(const bench_case& c, bench_context& ctx) {
  using Counter = histogram_counter;
  using Level = histogram_level_t<Sample>;
  const auto levels = test::natural_levels<Sample>();
  const Level lower = static_cast<Level>(levels.first), upper = static_cast<Level>(levels.second);
  if (c.bins < 1 || c.bins > std::numeric_limits<int>::max())
    throw std::runtime_error("'" + c.table + "': no bin count " + std::to_string(c.bins));
  const int bins = static_cast<int>(c.bins);
  const test::distribution dist = test::parse_distribution(c.dist);

  // Variants at their own size get samples of that size, not a prefix: a prefix of the
  // sorted samples would hold only the lowest bins.
  std::vector<long long> sizes;
  for (const auto& v : c.variants)
    if (std::find(sizes.begin(), sizes.end(), v.n) == sizes.end()) sizes.push_back(v.n);
  double bytes_needed = 1.0 * bins * sizeof(Counter);
  for (long long n : sizes) {
    if (n > static_cast<long long>(std::numeric_limits<Counter>::max()))
      throw std::runtime_error("'" + c.table + "': " + format_count(n) + " samples; the bench's 32-bit counters take " +
                               "at most 2^32-1");
    bytes_needed += 1.0 * n * sizeof(Sample);
  }
  require_device_memory(bytes_needed, "'" + c.table + "'");

  struct input {
    std::unique_ptr<device_array<Sample>> samples;
    std::vector<std::uint64_t> expected;
  };
  std::map<long long, input> inputs;
  for (long long n : sizes) {
    const std::vector<Sample> host = test::histogram_samples<Sample>(n, dist, lower, upper, ctx.seed);
    input& in = inputs[n];
    in.samples = std::make_unique<device_array<Sample>>(n);
    in.samples->upload(host);
    in.expected = detail::reference_counts(host, bins, lower, upper);
  }
  device_array<Counter> counts(bins);
  std::vector<Counter> got(static_cast<std::size_t>(bins));
  const cudaStream_t s = ctx.time.stream();

  std::vector<record> records;
  for (const planned_variant& v : c.variants) {
    ctx.steps.step(c.table + ": " + v.id);
    const auto& entry = ladder::find_histogram<Sample, Counter>(v.id);
    // A variant whose per-block (or per-warp) histogram does not fit in shared memory
    // cannot run at all: it has no time and it has not failed, so it gets no row.
    if (const int most = entry.max_bins(); most != ladder::no_limit && bins > most) {
      ctx.steps.done();
      std::fprintf(stderr, "onepass-bench: %s: %s not run: it holds at most %d bins on this GPU\n", c.table.c_str(),
                   v.id.c_str(), most);
      continue;
    }
    const long long n = v.n;
    const input& in = inputs.at(n);
    std::vector<std::pair<std::string, param_value>> params = {{"table", c.table},
                                                               {"bins", c.bins},
                                                               {"dist", c.dist},
                                                               {"passes", v.passes},
                                                               {"ceiling", std::string("read")}};
    if (!v.note.empty()) params.emplace_back("note", v.note);
    device_array<unsigned char> ws(static_cast<long long>(entry.workspace_bytes(n, bins)));
    auto call = [&] {
      entry.run(in.samples->get(), n, bins, lower, upper, counts.get(), workspace{ws.get(), ws.bytes()}, s);
    };
    std::string error;
    try {
      ONEPASS_CUDA_TRY(cudaMemsetAsync(counts.get(), 0xA5, counts.bytes(), s));  // poison
      call();
      ONEPASS_CUDA_TRY(cudaMemcpyAsync(got.data(), counts.get(), counts.bytes(), cudaMemcpyDeviceToHost, s));
      ONEPASS_CUDA_TRY(cudaStreamSynchronize(s));
      std::size_t wrong = 0, first = got.size();
      for (std::size_t b = 0; b < got.size(); ++b)
        if (got[b] != in.expected[b]) {
          first = std::min(first, b);
          ++wrong;
        }
      if (wrong > 0)
        error = "bin " + std::to_string(first) + ": count " + std::to_string(got[first]) + ", expected " +
                std::to_string(in.expected[first]) + " (" + std::to_string(wrong) + " of " + std::to_string(bins) +
                " bins wrong)";
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) {
      records.push_back(failed_record("histogram", v.id, c.dtype, n, std::move(params), error));
      continue;
    }
    const timing t = ctx.time.run(call);
    // Minimum traffic: every sample read once, every count written once.
    records.push_back(timed_record("histogram", v.id, c.dtype, n, std::move(params), t,
                                   1.0 * n * sizeof(Sample) + 1.0 * bins * sizeof(Counter), ctx.copy_gbps,
                                   ctx.read_gbps));
  }
  return records;
}

extern template std::vector<record> run_histogram_table_typed<std::uint8_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_histogram_table_typed<std::uint16_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_histogram_table_typed<std::int32_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_histogram_table_typed<std::uint32_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_histogram_table_typed<float>(const bench_case&, bench_context&);

}  // namespace onepass::bench
