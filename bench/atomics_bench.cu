#include "atomics_bench.cuh"

#include <string>

namespace onepass::bench {
namespace {

struct address_count {
  const char* id;
  long long addresses;
};
constexpr address_count spreads[] = {{"addresses_1", 1},         {"addresses_32", 32},
                                     {"addresses_256", 256},     {"addresses_1024", 1024},
                                     {"addresses_65536", 65536}, {"addresses_1M", 1ll << 20}};

constexpr int threads = 256;

// Operation i adds 1 to counter i mod `addresses`: a warp's 32 operations hit
// min(32, addresses) distinct words, consecutive for more than one address.
__global__ void __launch_bounds__(threads) contend(unsigned* counters, long long addresses, long long ops) {
  const long long i = static_cast<long long>(blockIdx.x) * threads + threadIdx.x;
  if (i < ops) atomicAdd(&counters[i % addresses], 1u);
}

// Counter k must be the number of i < ops with i mod addresses == k, times `runs`.
__global__ void count_wrong(const unsigned* counters, long long addresses, long long ops, unsigned runs,
                            unsigned long long* wrong) {
  for (long long k = static_cast<long long>(blockIdx.x) * threads + threadIdx.x; k < addresses;
       k += static_cast<long long>(gridDim.x) * threads) {
    const long long hits = ops / addresses + (k < ops % addresses ? 1 : 0);
    if (counters[k] != static_cast<unsigned>(hits) * runs) atomicAdd(wrong, 1ull);
  }
}

}  // namespace

primitive_desc atomics_primitive() {
  primitive_desc p{"atomics",
                   "atomicAdd contention: n operations over 1 ... 1M distinct addresses, in Gops/s",
                   {"uint32"},
                   {},
                   {},
                   {},
                   1ll << 20};
  for (const auto& s : spreads)
    p.variants.push_back({s.id, "atomicAdd of 1, operation i on counter i mod " + format_count(s.addresses), 1.0, -1,
                          -1, "", false});
  return p;
}

std::vector<record> run_atomics_table(const bench_case& c, bench_context& ctx) {
  const long long ops = c.n;
  device_array<unsigned> counters(1ll << 20);
  device_array<unsigned long long> wrong(1);
  const cudaStream_t s = ctx.time.stream();
  const unsigned blocks = static_cast<unsigned>((ops + threads - 1) / threads);
  std::vector<record> records;
  for (const planned_variant& v : c.variants) {
    ctx.steps.step(c.table + ": " + v.id);
    long long addresses = 0;
    for (const auto& sp : spreads)
      if (v.id == sp.id) addresses = sp.addresses;
    std::vector<std::pair<std::string, param_value>> params = {
        {"table", c.table}, {"addresses", addresses}, {"rate", std::string("ops")}};
    auto call = [&] {
      contend<<<blocks, threads, 0, s>>>(counters.get(), addresses, ops);
      ONEPASS_CUDA_TRY(cudaGetLastError());
    };
    std::string error;
    try {
      if (addresses == 0) throw std::runtime_error("no such address count");
      ONEPASS_CUDA_TRY(cudaMemsetAsync(counters.get(), 0, counters.bytes(), s));
      call();
      ONEPASS_CUDA_TRY(cudaMemsetAsync(wrong.get(), 0, sizeof(unsigned long long), s));
      count_wrong<<<1024, threads, 0, s>>>(counters.get(), addresses, ops, 1u, wrong.get());
      ONEPASS_CUDA_TRY(cudaGetLastError());
      if (const auto bad = read_item(wrong.get(), 0); bad != 0)
        error = std::to_string(bad) + " of " + std::to_string(addresses) + " counters hold the wrong count";
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) {
      records.push_back(failed_record("atomics", v.id, c.dtype, ops, std::move(params), error));
      continue;
    }
    const timing t = ctx.time.run(call);
    // An atomicAdd reads and writes its 4-byte word: 8 bytes per operation.
    records.push_back(timed_record("atomics", v.id, c.dtype, ops, std::move(params), t, 8.0 * ops, ctx.copy_gbps,
                                   ctx.read_gbps));
  }
  return records;
}

}  // namespace onepass::bench
