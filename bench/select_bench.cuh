// onepass-bench's stream-compaction tables: select (select_if), unique and partition.
// Every registry variant on one input, its count and every item it writes checked
// exactly against the CPU reference before it is timed, rates as fractions of the copy
// (bytes read + written). Compiled once per element type (select_bench_<dtype>.cu).
//
// The inputs, the predicate and the references are the tests' own
// (tests/support/select_reference.hpp): select and partition keep the items below a
// threshold, each item drawn below it with probability --keep percent; unique's items
// come in runs of --runs equal values, each run different from the one before.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu.cuh"
#include "onepass/ladder/select/registry.cuh"
#include "support/select_reference.hpp"

namespace onepass::bench {

primitive_desc select_primitive();
primitive_desc unique_primitive();
primitive_desc partition_primitive();

// Runs one select, unique or partition table; dispatches on c.dtype (select_bench.cu).
std::vector<record> run_select_table(const bench_case& c, bench_context& ctx);

namespace detail {

// The item-only predicate of the select and partition tables (CUB calls pred(item)).
template <class T>
using select_pred = test::select_less_than<T>;

}  // namespace detail

template <class T>
std::vector<record> run_select_table_typed(const bench_case& c, bench_context& ctx) {
  const bool unique = c.primitive == "unique", partition = c.primitive == "partition";
  if (!unique && !partition && c.primitive != "select")
    throw std::runtime_error("'" + c.table + "': not a stream-compaction table");
  if (unique ? c.runs < 1 : (c.keep < 0 || c.keep > 100))
    throw std::runtime_error("'" + c.table + "': no " + (unique ? "run length " + std::to_string(c.runs)
                                                                : "kept percentage " + std::to_string(c.keep)));
  // No variant has a size limit: every one runs at the table's n.
  const long long n = c.n;
  // The input, the output, the expected output and, for a partition, the rejected side.
  require_device_memory((partition ? 4.0 : 3.0) * n * sizeof(T), "'" + c.table + "'");

  const detail::select_pred<T> pred{};
  device_array<T> in(n), out(n), rejected(partition ? n : 0), expected(n);
  device_array<index_t> count(1);
  long long kept = 0;  // what *count_out must be
  {
    const std::vector<T> host = unique ? test::run_length_values<T>(n, c.runs, ctx.seed)
                                       : test::keep_fraction_values<T>(n, c.keep / 100.0, ctx.seed);
    in.upload(host);
    // expected[0, kept) the items kept; for a partition, expected[kept, n) the rejected.
    std::vector<T> want;
    if (partition) {
      test::partition_result<T> sides = test::reference_partition(host, pred);
      kept = static_cast<long long>(sides.selected.size());
      want = std::move(sides.selected);
      want.insert(want.end(), sides.rejected.begin(), sides.rejected.end());
    } else {
      want = unique ? test::reference_unique(host) : test::reference_select_if(host, pred);
      kept = static_cast<long long>(want.size());
    }
    if (!want.empty()) expected.upload(want);
  }
  const cudaStream_t s = ctx.time.stream();

  std::vector<record> records;
  for (const planned_variant& v : c.variants) {
    ctx.steps.step(c.table + ": " + v.id);
    const auto* found = ladder::find_select<T, detail::select_pred<T>>(v.id);
    if (found == nullptr) throw std::runtime_error("'" + c.table + "': no select variant '" + v.id + "'");
    const auto& entry = *found;
    std::vector<std::pair<std::string, param_value>> params = {{"table", c.table}};
    if (unique)
      params.emplace_back("runs", c.runs);
    else
      params.emplace_back("keep", static_cast<long long>(c.keep));
    params.emplace_back("selected", kept);
    params.emplace_back("passes", v.passes);
    if (!v.note.empty()) params.emplace_back("note", v.note);
    device_array<unsigned char> ws(static_cast<long long>(entry.workspace_bytes(n)));
    auto call = [&] {
      const workspace w{ws.get(), ws.bytes()};
      if (unique)
        entry.unique(in.get(), n, out.get(), count.get(), w, s);
      else if (partition)
        entry.partition(in.get(), n, out.get(), rejected.get(), count.get(), pred, w, s);
      else
        entry.select_if(in.get(), n, out.get(), count.get(), pred, w, s);
    };
    // "" when got[0, items) equals want[0, items), else where they first differ.
    auto compare = [&](const char* side, const T* got, const T* want, long long items) -> std::string {
      const long long i = first_mismatch(got, want, items, s);
      if (i < 0) return "";
      return std::string(side) + "first difference at index " + std::to_string(i) + " of " +
             std::to_string(items) + ": expected " + item_text(read_item(want, i)) + ", got " +
             item_text(read_item(got, i));
    };
    std::string error;
    try {
      if (unique ? entry.unique == nullptr : partition ? entry.partition == nullptr : entry.select_if == nullptr)
        throw std::runtime_error("has no " + c.primitive + " form");
      // Poison every output, the count too: a variant that writes nothing cannot pass.
      ONEPASS_CUDA_TRY(cudaMemsetAsync(out.get(), 0xA5, out.bytes(), s));
      if (partition) ONEPASS_CUDA_TRY(cudaMemsetAsync(rejected.get(), 0xA5, rejected.bytes(), s));
      ONEPASS_CUDA_TRY(cudaMemsetAsync(count.get(), 0xA5, count.bytes(), s));
      call();
      ONEPASS_CUDA_TRY(cudaStreamSynchronize(s));
      const index_t got = read_item(count.get(), 0);
      if (got != kept)
        error = "count " + std::to_string(got) + ", expected " + std::to_string(kept);
      else
        error = compare(partition ? "selected items: " : "", out.get(), expected.get(), kept);
      if (error.empty() && partition)
        error = compare("rejected items: ", rejected.get(), expected.get() + kept, n - kept);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) {
      records.push_back(failed_record(c.primitive, v.id, c.dtype, n, std::move(params), error));
      continue;
    }
    const timing t = ctx.time.run(call);
    // Minimum traffic: every item read once and every kept item written once, and the
    // count; a partition writes every item, to one side or the other.
    const double bytes = partition ? 2.0 * n * sizeof(T) : 1.0 * (n + kept) * sizeof(T) + sizeof(index_t);
    records.push_back(timed_record(c.primitive, v.id, c.dtype, n, std::move(params), t, bytes, ctx.copy_gbps,
                                   ctx.read_gbps));
  }
  return records;
}

// Compiled in select_bench_<dtype>.cu.
extern template std::vector<record> run_select_table_typed<std::int32_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_select_table_typed<std::uint32_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_select_table_typed<long long>(const bench_case&, bench_context&);
extern template std::vector<record> run_select_table_typed<unsigned long long>(const bench_case&, bench_context&);
extern template std::vector<record> run_select_table_typed<float>(const bench_case&, bench_context&);
extern template std::vector<record> run_select_table_typed<double>(const bench_case&, bench_context&);

}  // namespace onepass::bench
