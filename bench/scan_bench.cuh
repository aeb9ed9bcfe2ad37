// onepass-bench's scan tables: every registry variant on one input, each output checked
// on the device against the CPU reference before it is timed. The template is compiled
// once per element type (scan_bench_<dtype>.cu) so the builds run in parallel.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "gpu.cuh"
#include "onepass/ladder/scan/registry.cuh"
#include "support/reference.hpp"

namespace onepass::bench {

// The scan primitive for --list and the plan: the registry plus the bench's own limits.
primitive_desc scan_primitive();

// Runs one scan table; dispatches on c.dtype (scan_bench.cu).
std::vector<record> run_scan_table(const bench_case& c, bench_context& ctx);

namespace detail {


// The CPU reference of every array: one array of `items`, or `batch` arrays of n.
template <class T, class Op>
std::vector<T> scan_reference(const std::vector<T>& in, const bench_case& c, T init, Op op) {
  const auto k = c.kind == "inclusive" ? test::kind::inclusive : test::kind::exclusive;
  if (c.batch == 0) return test::reference_scan(in, k, init, op);
  std::vector<T> out;
  out.reserve(in.size());
  for (long long b = 0; b < c.batch; ++b) {
    const std::vector<T> one(in.begin() + b * c.n, in.begin() + (b + 1) * c.n);
    const std::vector<T> r = test::reference_scan(one, k, init, op);
    out.insert(out.end(), r.begin(), r.end());
  }
  return out;
}

template <class T, class Op>
std::vector<record> run_scan_table_with(const bench_case& c, bench_context& ctx, Op op) {
  const bool batched = c.batch > 0;
  long long items = batched ? c.n * c.batch : 0;  // the most any variant reads
  for (const auto& v : c.variants) items = std::max(items, v.n);
  require_device_memory(3.0 * items * sizeof(T), "'" + c.table + "'");

  const std::vector<T> host = random_input<T>(items, ctx.seed);
  if (c.op == "sum" && !test::exactly_representable_sums(host))
    throw std::runtime_error("'" + c.table + "': the input's partial sums are not exact in " + c.dtype +
                             " at this size; the check would not be exact");
  const T init = value_from_bits<T>(splitmix64(ctx.seed ^ 0x1217));
  const auto kind = c.kind == "inclusive" ? ladder::scan_kind::inclusive : ladder::scan_kind::exclusive;
  device_array<T> in(items), out(items), expected(items);
  in.upload(host);
  // A variant run at its own, smaller size reads a prefix of the input; the prefix of the
  // reference is its answer.
  expected.upload(scan_reference(host, c, init, op));
  const cudaStream_t s = ctx.time.stream();

  std::vector<record> records;
  for (const planned_variant& v : c.variants) {
    ctx.steps.step(c.table + ": " + v.id);
    const auto& entry = ladder::find_scan<T, Op>(v.id);
    const long long n = batched ? c.n * c.batch : v.n;
    std::vector<std::pair<std::string, param_value>> params = {
        {"table", c.table}, {"op", c.op}, {"kind", c.kind}, {"passes", v.passes}};
    if (!v.note.empty()) params.emplace_back("note", v.note);
    if (batched) {
      params.emplace_back("batch", c.batch);
      params.emplace_back("items_per_block", c.n);
    }
    device_array<unsigned char> ws(static_cast<long long>(batched ? 0 : entry.workspace_bytes(n)));
    auto call = [&] {
      if (batched)
        entry.run_batch(in.get(), c.n, c.batch, out.get(), kind, init, op, s);
      else
        entry.run(in.get(), n, out.get(), kind, init, op, workspace{ws.get(), ws.bytes()}, s);
    };
    std::string error;
    try {
      if (batched && entry.run_batch == nullptr) throw std::runtime_error("has no batched form");
      ONEPASS_CUDA_TRY(cudaMemsetAsync(out.get(), 0xA5, n * sizeof(T), s));  // poison
      call();
      ONEPASS_CUDA_TRY(cudaStreamSynchronize(s));
      if (const long long i = first_mismatch(out.get(), expected.get(), n, s); i >= 0)
        error = "first difference at index " + std::to_string(i) + " of " + std::to_string(n) + ": expected " +
                item_text(read_item(expected.get(), i)) + ", got " + item_text(read_item(out.get(), i));
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) {
      records.push_back(failed_record("scan", v.id, c.dtype, n, std::move(params), error));
      continue;
    }
    const timing t = ctx.time.run(call);
    if (batched) params.emplace_back("us_per_block", t.median * 1e3 / static_cast<double>(c.batch));
    // Minimum traffic: every item read once and written once, whatever the variant does.
    records.push_back(timed_record("scan", v.id, c.dtype, n, std::move(params), t, 2.0 * n * sizeof(T),
                                   ctx.copy_gbps, ctx.read_gbps));
  }
  return records;
}

}  // namespace detail

template <class T>
std::vector<record> run_scan_table_typed(const bench_case& c, bench_context& ctx) {
  if (c.op == "sum") return detail::run_scan_table_with<T>(c, ctx, plus{});
  if (c.op == "max") return detail::run_scan_table_with<T>(c, ctx, maximum{});
  throw std::runtime_error("scan: no operator '" + c.op + "'");
}

// Compiled in scan_bench_<dtype>.cu.
extern template std::vector<record> run_scan_table_typed<std::int32_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_scan_table_typed<std::uint32_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_scan_table_typed<long long>(const bench_case&, bench_context&);
extern template std::vector<record> run_scan_table_typed<unsigned long long>(const bench_case&, bench_context&);
extern template std::vector<record> run_scan_table_typed<float>(const bench_case&, bench_context&);
extern template std::vector<record> run_scan_table_typed<double>(const bench_case&, bench_context&);

}  // namespace onepass::bench
