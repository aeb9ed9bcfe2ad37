#include "histogram_bench.cuh"

namespace onepass::bench {

primitive_desc histogram_primitive() {
  primitive_desc p{"histogram",
                   "histogram of even bins over the sample type's whole range ([0, 1) for float) (the teaching "
                   "ladder, onepass, CUB); rates are fractions of the read-only pass",
                   {"uint8", "uint16", "int32", "uint32", "float"},
                   {},
                   {},
                   {},
                   1ll << 30};
  for (test::distribution d : test::all_distributions) p.dists.push_back(test::distribution_name(d));
  p.default_bins = 256;
  for (const auto& info : ladder::histogram_variants())
    p.variants.push_back({info.id, info.summary, 1.0, -1, -1, "", false});
  // One global atomic per sample: on one_bin data every one of them lands on one address
  // and is serialised at L2, so at 2^30 samples a run would take seconds.
  apply_practical_limits(p.variants, {{"global_atomic", 1ll << 26,
                                       "one global atomic per sample; on one_bin data they serialise on one "
                                       "address, 2^30 samples would take seconds per run"}});
  return p;
}

std::vector<record> run_histogram_table(const bench_case& c, bench_context& ctx) {
  if (c.dtype == "uint8") return run_histogram_table_typed<std::uint8_t>(c, ctx);
  if (c.dtype == "uint16") return run_histogram_table_typed<std::uint16_t>(c, ctx);
  if (c.dtype == "int32") return run_histogram_table_typed<std::int32_t>(c, ctx);
  if (c.dtype == "uint32") return run_histogram_table_typed<std::uint32_t>(c, ctx);
  if (c.dtype == "float") return run_histogram_table_typed<float>(c, ctx);
  throw std::runtime_error("histogram: no sample type '" + c.dtype + "'");
}

}  // namespace onepass::bench
