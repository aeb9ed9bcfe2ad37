// onepass-bench's radix sort tables: every registry variant on one input (keys alone, or
// keys with 32- or 64-bit values), its keys and values checked exactly against the CPU
// reference before it is timed. Compiled once per key type (radix_sort_bench_<dtype>.cu).
//
// The keys and the reference are the tests' own (tests/support/radix_sort_reference.hpp):
// --dist draws the keys (random, low_entropy, all_equal, sorted, reverse, range16), the
// values are the items' input indices, so the values check the permutation (stability)
// too. Every bit of the key is sorted.
//
// Rate: keys per second (n / time), and GB/s on a modelled minimum traffic: an LSD radix
// sort with 8-bit digits reads and writes every key (and value) once per digit, so
// 2 * (key + value bytes) * n * (key bits / 8) bytes: 4 passes for 32-bit keys, 8 for
// 64-bit ones. It is a model of one design, not a lower bound on every sort (wider
// digits need fewer passes); "% of copy" says how close a sort comes to running such
// passes at copy speed, which is what issue 8 measures CUB's ~1/3 against.
//
// CUB treats -0.0 and +0.0 as one key (ladder/radix_sort/cub.cuh); where float keys
// hold zeros, the cub row is checked against that order, and says so.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu.cuh"
#include "onepass/ladder/radix_sort/registry.cuh"
#include "support/radix_sort_reference.hpp"

namespace onepass::bench {

primitive_desc radix_sort_primitive();

// Runs one radix sort table; dispatches on c.dtype and c.values (radix_sort_bench.cu).
std::vector<record> run_radix_sort_table(const bench_case& c, bench_context& ctx);

// Digit passes of the traffic model: key bits / 8.
template <class Key>
constexpr int radix_model_passes() {
  return static_cast<int>(sizeof(Key));
}

template <class Key, class Value>
std::vector<record> run_radix_sort_table_typed(const bench_case& c, bench_context& ctx) {
  using onepass::detail::has_values;
  constexpr bool pairs = has_values<Value>;
  constexpr std::size_t value_bytes = pairs ? sizeof(Value) : 0;
  if (c.primitive != "radix_sort") throw std::runtime_error("'" + c.table + "': not a radix sort table");
  const bool descending = c.order == "descending";
  if (!descending && c.order != "ascending") throw std::runtime_error("'" + c.table + "': no order '" + c.order + "'");
  const test::key_distribution dist = test::parse_key_distribution(c.dist);
  const long long n = c.n;
  // Keys and values: input, output, expected (the variants' workspaces come on top: the
  // margin of require_device_memory, and split_1bit's 8 bytes per key for positions).
  require_device_memory(3.0 * n * (sizeof(Key) + value_bytes) + 8.0 * n, "'" + c.table + "'");

  using stored_value = std::conditional_t<pairs, Value, char>;
  device_array<Key> keys_in(n), keys_out(n), expected_keys(n);
  device_array<stored_value> values_in(pairs ? n : 0), values_out(pairs ? n : 0), expected_values(pairs ? n : 0);
  std::vector<Key> host_keys = test::make_sort_keys<Key>(n, dist, ctx.seed);
  std::vector<std::uint64_t> order = test::reference_radix_sort_order(host_keys, descending);
  keys_in.upload(host_keys);
  expected_keys.upload(test::apply_permutation(host_keys, order));
  if constexpr (pairs) {
    values_in.upload(test::iota_values<Value>(n));
    expected_values.upload(std::vector<Value>(order.begin(), order.end()));
  }
  // CUB's order differs only where float keys hold both zeros (which it ties).
  bool zeros_tie_differs = false;
  if constexpr (std::is_floating_point_v<Key>) {
    bool negative = false, positive = false;
    for (Key k : host_keys)
      if (k == Key(0)) (std::signbit(k) ? negative : positive) = true;
    zeros_tie_differs = negative && positive;
  }
  order.clear();
  order.shrink_to_fit();
  const cudaStream_t s = ctx.time.stream();
  const Value* vin = nullptr;
  Value* vout = nullptr;
  if constexpr (pairs) {
    vin = values_in.get();
    vout = values_out.get();
  }
  const radix_sort_options options{descending ? sort_order::descending : sort_order::ascending, 0, -1};

  std::vector<record> records;
  for (const planned_variant& v : c.variants) {
    ctx.steps.step(c.table + ": " + v.id);
    const auto* found = ladder::find_radix_sort<Key, Value>(v.id);
    if (found == nullptr) throw std::runtime_error("'" + c.table + "': no radix sort variant '" + v.id + "'");
    const auto& entry = *found;
    std::vector<std::pair<std::string, param_value>> params = {{"table", c.table}};
    params.emplace_back("dist", c.dist);
    params.emplace_back("order", c.order);
    params.emplace_back("values", c.values);
    params.emplace_back("rate", std::string("keys"));
    params.emplace_back("digit_passes", static_cast<long long>(radix_model_passes<Key>()));
    params.emplace_back("passes", v.passes);
    std::string note = v.note;
    const bool cub_zeros = zeros_tie_differs && v.id == "cub";
    if (cub_zeros)
      note += std::string(note.empty() ? "" : "; ") +
              "checked with -0.0 and +0.0 as one key (input order), as CUB sorts them";
    if (!note.empty()) params.emplace_back("note", note);
    // The variant's expected keys and values: onepass's order, or CUB's for the zeros.
    device_array<Key> cub_keys(cub_zeros ? n : 0);
    device_array<stored_value> cub_values(cub_zeros && pairs ? n : 0);
    const Key* want_keys = expected_keys.get();
    const stored_value* want_values = expected_values.get();
    if (cub_zeros) {
      const auto cub_order = test::reference_radix_sort_order(host_keys, descending, 0, -1,
                                                              test::signed_zeros::as_positive_zero);
      cub_keys.upload(test::apply_permutation(host_keys, cub_order));
      if constexpr (pairs) cub_values.upload(std::vector<Value>(cub_order.begin(), cub_order.end()));
      want_keys = cub_keys.get();
      want_values = cub_values.get();
    }
    device_array<unsigned char> ws(static_cast<long long>(entry.workspace_bytes(n)));
    auto call = [&] { entry.sort(keys_in.get(), keys_out.get(), vin, vout, n, options, {ws.get(), ws.bytes()}, s); };
    auto compare = [&](const char* side, const auto* got, const auto* want) -> std::string {
      const long long i = first_mismatch(got, want, n, s);
      if (i < 0) return "";
      return std::string(side) + "first difference at index " + std::to_string(i) + " of " + std::to_string(n) +
             ": expected " + item_text(read_item(want, i)) + ", got " + item_text(read_item(got, i));
    };
    std::string error;
    try {
      // Poison the outputs: a variant that writes nothing cannot pass.
      ONEPASS_CUDA_TRY(cudaMemsetAsync(keys_out.get(), 0xA5, keys_out.bytes(), s));
      if constexpr (pairs) ONEPASS_CUDA_TRY(cudaMemsetAsync(values_out.get(), 0xA5, values_out.bytes(), s));
      call();
      ONEPASS_CUDA_TRY(cudaStreamSynchronize(s));
      error = compare("keys: ", keys_out.get(), want_keys);
      if constexpr (pairs) {
        if (error.empty())
          error = compare("values (input indices; keys right, values not: not stable): ", values_out.get(),
                          want_values);
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) {
      records.push_back(failed_record(c.primitive, v.id, c.dtype, n, std::move(params), error));
      continue;
    }
    const timing t = ctx.time.run(call);
    const double bytes = 2.0 * radix_model_passes<Key>() * static_cast<double>(n) * (sizeof(Key) + value_bytes);
    records.push_back(
        timed_record(c.primitive, v.id, c.dtype, n, std::move(params), t, bytes, ctx.copy_gbps, ctx.read_gbps));
  }
  return records;
}

// Runs the three value kinds of one key type; compiled in radix_sort_bench_<dtype>.cu.
template <class Key>
std::vector<record> run_radix_sort_table_key(const bench_case& c, bench_context& ctx) {
  if (c.values == "none") return run_radix_sort_table_typed<Key, onepass::detail::keys_only>(c, ctx);
  if (c.values == "u32") return run_radix_sort_table_typed<Key, std::uint32_t>(c, ctx);
  if (c.values == "u64") return run_radix_sort_table_typed<Key, std::uint64_t>(c, ctx);
  throw std::runtime_error(c.primitive + ": no values '" + c.values + "' (none, u32, u64)");
}

extern template std::vector<record> run_radix_sort_table_key<std::uint32_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_radix_sort_table_key<std::int32_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_radix_sort_table_key<float>(const bench_case&, bench_context&);
extern template std::vector<record> run_radix_sort_table_key<std::uint64_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_radix_sort_table_key<std::int64_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_radix_sort_table_key<double>(const bench_case&, bench_context&);

}  // namespace onepass::bench
