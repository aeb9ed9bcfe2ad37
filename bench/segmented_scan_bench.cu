#include "segmented_scan_bench_typed.cuh"

namespace onepass::bench {

primitive_desc segmented_scan_primitive() {
  primitive_desc p{"segmented_scan",
                   "a scan that restarts at every segment, each variant in each of its forms: head flags, CSR "
                   "offsets, keys, begin/end arrays without and with gaps (gap items left alone or copied) (the "
                   "ladder, onepass, CUB); rates are "
                   "fractions of the copy",
                   {"int32", "uint32", "int64", "uint64", "float", "double"},
                   {},
                   {"sum", "max"},
                   {"inclusive", "exclusive"}};
  for (const auto& info : ladder::segmented_scan_variants()) {
    variant_desc v{info.id, info.summary};
    for (const detail::segment_form f : detail::forms_of(info)) v.forms.push_back(detail::form_label(f));
    p.variants.push_back(std::move(v));
  }
  // The first is the default: segments of every length up to 1000, neither trivial nor
  // a single segment.
  p.dists = {"uniform_1_1000", "all_1", "all_32", "power_law", "one_segment", "with_empty"};
  return p;
}

std::vector<record> run_segmented_scan_table(const bench_case& c, bench_context& ctx) {
  if (c.dtype == "int32") return run_segmented_scan_table_typed<std::int32_t>(c, ctx);
  if (c.dtype == "uint32") return run_segmented_scan_table_typed<std::uint32_t>(c, ctx);
  if (c.dtype == "int64") return run_segmented_scan_table_typed<long long>(c, ctx);
  if (c.dtype == "uint64") return run_segmented_scan_table_typed<unsigned long long>(c, ctx);
  if (c.dtype == "float") return run_segmented_scan_table_typed<float>(c, ctx);
  if (c.dtype == "double") return run_segmented_scan_table_typed<double>(c, ctx);
  throw std::runtime_error(c.primitive + ": no element type '" + c.dtype + "'");
}

}  // namespace onepass::bench
