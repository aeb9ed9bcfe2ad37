#include "reduce_bench.cuh"

namespace onepass::bench {

primitive_desc reduce_primitive() {
  primitive_desc p{"reduce",
                   "reduction to one value (the teaching ladder, onepass, CUB); rates are fractions of the read-only pass",
                   {"int32", "uint32", "int64", "uint64", "float", "double"},
                   {},
                   {"sum", "max"},
                   {},
                   1ll << 28};
  for (const auto& info : ladder::reduce_variants())
    p.variants.push_back({info.id, info.summary, 1.0, -1, -1, "", false});
  // One atomic per item on one address is serialised at L2: at 2^30 items one call would
  // take seconds, so it is timed where a call takes milliseconds.
  apply_practical_limits(p.variants, {{"atomic_global", 1ll << 24,
                                       "one atomic per item on one address, 2^30 items would take seconds per run"}});
  return p;
}

std::vector<record> run_reduce_table(const bench_case& c, bench_context& ctx) {
  if (c.dtype == "int32") return run_reduce_table_typed<std::int32_t>(c, ctx);
  if (c.dtype == "uint32") return run_reduce_table_typed<std::uint32_t>(c, ctx);
  if (c.dtype == "int64") return run_reduce_table_typed<long long>(c, ctx);
  if (c.dtype == "uint64") return run_reduce_table_typed<unsigned long long>(c, ctx);
  if (c.dtype == "float") return run_reduce_table_typed<float>(c, ctx);
  if (c.dtype == "double") return run_reduce_table_typed<double>(c, ctx);
  throw std::runtime_error("reduce: no element type '" + c.dtype + "'");
}

}  // namespace onepass::bench
