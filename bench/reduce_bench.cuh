// onepass-bench's reduce tables: every registry variant on one input, each result checked
// against the CPU reference before it is timed, rates as fractions of the read-only
// ceiling. Compiled once per element type (reduce_bench_<dtype>.cu).
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>

#include "gpu.cuh"
#include "onepass/ladder/reduce/registry.cuh"
#include "support/reference.hpp"

namespace onepass::bench {

primitive_desc reduce_primitive();
std::vector<record> run_reduce_table(const bench_case& c, bench_context& ctx);

namespace detail {

template <class T, class Op>
std::vector<record> run_reduce_table_with(const bench_case& c, bench_context& ctx, Op op) {
  long long items = 0;
  for (const auto& v : c.variants) items = std::max(items, v.n);
  require_device_memory(1.0 * items * sizeof(T), "'" + c.table + "'");
  // The scan's inputs (gpu.cuh) keep every subset sum exact too: reference.hpp's
  // random_reduce_value draws from the same range, and says why that makes float
  // results exact whatever order a variant combines in.
  const std::vector<T> host = random_input<T>(items, ctx.seed);
  const T init = value_from_bits<T>(splitmix64(ctx.seed ^ 0x4ed));
  device_array<T> in(items), out(1);
  in.upload(host);
  const cudaStream_t s = ctx.time.stream();

  // Variants run at their own size reduce a prefix: one reference per size.
  std::map<long long, T> expected;
  for (const auto& v : c.variants) {
    if (expected.count(v.n)) continue;
    const std::vector<T> prefix(host.begin(), host.begin() + v.n);
    const T r = test::reference_reduce(prefix, init, op);
    if constexpr (std::is_floating_point_v<T>) {
      double exact = static_cast<double>(init);
      for (const T& x : prefix) exact = op(exact, static_cast<double>(x));
      if (static_cast<double>(r) != exact)
        throw std::runtime_error("'" + c.table + "': the input's sums are not exact in " + c.dtype +
                                 "; the check would not be exact");
    }
    expected[v.n] = r;
  }

  std::vector<record> records;
  for (const planned_variant& v : c.variants) {
    ctx.steps.step(c.table + ": " + v.id);
    const auto& entry = ladder::find_reduce<T, Op>(v.id);
    const long long n = v.n;
    std::vector<std::pair<std::string, param_value>> params = {
        {"table", c.table}, {"op", c.op}, {"passes", v.passes}, {"ceiling", std::string("read")}};
    if (!v.note.empty()) params.emplace_back("note", v.note);
    if (!entry.deterministic) params.emplace_back("reproducible", false);
    device_array<unsigned char> ws(static_cast<long long>(entry.workspace_bytes(n)));
    auto call = [&] { entry.run(in.get(), n, out.get(), init, op, workspace{ws.get(), ws.bytes()}, s); };
    std::string error;
    try {
      ONEPASS_CUDA_TRY(cudaMemsetAsync(out.get(), 0xA5, sizeof(T), s));  // poison
      call();
      ONEPASS_CUDA_TRY(cudaStreamSynchronize(s));
      const T got = read_item(out.get(), 0);
      if (std::memcmp(&got, &expected[n], sizeof(T)) != 0)
        error = "result " + item_text(got) + ", expected " + item_text(expected[n]);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) {
      records.push_back(failed_record("reduce", v.id, c.dtype, n, std::move(params), error));
      continue;
    }
    const timing t = ctx.time.run(call);
    // Minimum traffic: every item read once.
    records.push_back(timed_record("reduce", v.id, c.dtype, n, std::move(params), t, 1.0 * n * sizeof(T),
                                   ctx.copy_gbps, ctx.read_gbps));
  }
  return records;
}

}  // namespace detail

template <class T>
std::vector<record> run_reduce_table_typed(const bench_case& c, bench_context& ctx) {
  if (c.op == "sum") return detail::run_reduce_table_with<T>(c, ctx, plus{});
  if (c.op == "max") return detail::run_reduce_table_with<T>(c, ctx, maximum{});
  throw std::runtime_error("reduce: no operator '" + c.op + "'");
}

extern template std::vector<record> run_reduce_table_typed<std::int32_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_reduce_table_typed<std::uint32_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_reduce_table_typed<long long>(const bench_case&, bench_context&);
extern template std::vector<record> run_reduce_table_typed<unsigned long long>(const bench_case&, bench_context&);
extern template std::vector<record> run_reduce_table_typed<float>(const bench_case&, bench_context&);
extern template std::vector<record> run_reduce_table_typed<double>(const bench_case&, bench_context&);

}  // namespace onepass::bench
