#include "select_bench.cuh"

namespace onepass::bench {
namespace {

// One compaction primitive over the select registry's variants (each variant does all three).
primitive_desc compaction_primitive(const char* name, const char* summary) {
  primitive_desc p{name, summary, {"int32", "uint32", "int64", "uint64", "float", "double"}, {}};
  for (const auto& info : ladder::select_variants()) p.variants.push_back({info.id, info.summary});
  return p;
}

}  // namespace

primitive_desc select_primitive() {
  primitive_desc p = compaction_primitive(
      "select",
      "select_if: the items below a threshold, in order, and their count (the ladder, onepass, CUB); rates "
      "are fractions of the copy");
  p.default_keep = 50;
  return p;
}

primitive_desc unique_primitive() {
  primitive_desc p = compaction_primitive(
      "unique",
      "unique: the first item of each run of equal consecutive items, and their count (the ladder, onepass, "
      "CUB); rates are fractions of the copy");
  p.default_runs = 4;
  return p;
}

primitive_desc partition_primitive() {
  primitive_desc p = compaction_primitive(
      "partition",
      "stable partition: the items below a threshold, then the others, each in order, and the count (the "
      "ladder, onepass, CUB); rates are fractions of the copy");
  p.default_keep = 50;
  return p;
}

std::vector<record> run_select_table(const bench_case& c, bench_context& ctx) {
  if (c.dtype == "int32") return run_select_table_typed<std::int32_t>(c, ctx);
  if (c.dtype == "uint32") return run_select_table_typed<std::uint32_t>(c, ctx);
  if (c.dtype == "int64") return run_select_table_typed<long long>(c, ctx);
  if (c.dtype == "uint64") return run_select_table_typed<unsigned long long>(c, ctx);
  if (c.dtype == "float") return run_select_table_typed<float>(c, ctx);
  if (c.dtype == "double") return run_select_table_typed<double>(c, ctx);
  throw std::runtime_error(c.primitive + ": no element type '" + c.dtype + "'");
}

}  // namespace onepass::bench
