#include "scan_bench.cuh"

namespace onepass::bench {

primitive_desc scan_primitive() {
  primitive_desc p{"scan",
                   "inclusive and exclusive prefix scan (the teaching ladder, onepass, CUB)",
                   {"int32", "uint32", "int64", "uint64", "float", "double"},
                   {},
                   {"sum", "max"},
                   {"inclusive", "exclusive"}};
  for (const auto& info : ladder::scan_variants()) {
    variant_desc v{info.id, info.summary, info.passes, info.max_items, -1, "", info.batched};
    if (info.max_items != ladder::no_limit)
      v.limit_reason = std::string(info.batched ? "one block" : "the variant") + " takes at most " +
                       format_count(info.max_items) + " items";
    p.variants.push_back(std::move(v));
  }
  // Variants with no hard limit whose time grows with n on one SM would take minutes at
  // the seed sizes: they are timed at a size where one call takes milliseconds.
  apply_practical_limits(p.variants,
                         {{"sequential", 1ll << 16, "one thread walks the array, 2^30 items would take minutes"},
                          {"warp_shuffle", 1ll << 24, "one block walks the array, 2^30 items would take seconds per run"}});
  return p;
}

std::vector<record> run_scan_table(const bench_case& c, bench_context& ctx) {
  if (c.dtype == "int32") return run_scan_table_typed<std::int32_t>(c, ctx);
  if (c.dtype == "uint32") return run_scan_table_typed<std::uint32_t>(c, ctx);
  if (c.dtype == "int64") return run_scan_table_typed<long long>(c, ctx);
  if (c.dtype == "uint64") return run_scan_table_typed<unsigned long long>(c, ctx);
  if (c.dtype == "float") return run_scan_table_typed<float>(c, ctx);
  if (c.dtype == "double") return run_scan_table_typed<double>(c, ctx);
  throw std::runtime_error("scan: no element type '" + c.dtype + "'");
}

}  // namespace onepass::bench
