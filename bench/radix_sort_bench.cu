#include "radix_sort_bench.cuh"

namespace onepass::bench {

primitive_desc radix_sort_primitive() {
  primitive_desc p{"radix_sort",
                   "stable radix sort of keys, or of keys with values (the ladder, CUB); G keys/s, and GB/s "
                   "on a modelled traffic: keys (and values) read and written once per 8-bit digit",
                   {"uint32", "int32", "float", "uint64", "int64", "double"},
                   {}};
  for (const auto& info : ladder::radix_sort_variants()) p.variants.push_back({info.id, info.summary});
  p.dists = {"random", "low_entropy", "all_equal", "sorted", "reverse", "range16"};
  p.values = {"none", "u32", "u64"};
  p.orders = {"ascending", "descending"};
  return p;
}

std::vector<record> run_radix_sort_table(const bench_case& c, bench_context& ctx) {
  if (c.dtype == "uint32") return run_radix_sort_table_key<std::uint32_t>(c, ctx);
  if (c.dtype == "int32") return run_radix_sort_table_key<std::int32_t>(c, ctx);
  if (c.dtype == "float") return run_radix_sort_table_key<float>(c, ctx);
  if (c.dtype == "uint64") return run_radix_sort_table_key<std::uint64_t>(c, ctx);
  if (c.dtype == "int64") return run_radix_sort_table_key<std::int64_t>(c, ctx);
  if (c.dtype == "double") return run_radix_sort_table_key<double>(c, ctx);
  throw std::runtime_error(c.primitive + ": no key type '" + c.dtype + "'");
}

}  // namespace onepass::bench
