// onepass-bench's segmented scan tables (declared in segmented_scan_bench.cuh): every
// registry variant in every form it has (head flags, CSR offsets, keys, begin/end arrays
// without and with gaps, the gap items left alone or copied) on one input, each output
// checked exactly against the CPU reference before it is timed, rates as fractions of the
// copy. Compiled once per element type (segmented_scan_bench_<dtype>.cu).
//
// One row per (variant, form), labelled "onepass (flags)", "onepass (offsets)",
// "onepass (by key)", "onepass (begin/end)", "onepass (begin/end with gaps)", "onepass
// (begin/end with gaps copied)": every form of a table describes the same segments, drawn
// by --dist from the tests' own generators (tests/support/segmented_scan_reference.hpp),
// so the rows differ only in how a variant is told where segments start. The offsets are
// the CSR boundaries of those lengths (count + 1, covering every item), the keys int32,
// random per segment and different from the neighbouring segments'. The begin/end rows
// take the same segments as two int64 arrays: "begin/end" as they are (each segment ends
// where the next begins, the CSR boundaries split in two), "begin/end with gaps" each
// segment trimmed at its start, its end or both with probability 1/2 (test::with_gaps):
// the items left in gaps are in no segment, so the call writes only the rest and the
// check expects the poison in the gaps; "begin/end with gaps copied" the same arrays with
// gap_items::copied, the gaps' items written with their input values.
//
// The values are the scan tables' (random_input of the same seed), not the tests'
// random_vector: every partial sum of them stays exact in float at 2^28 items and beyond
// (a segment can be the whole array), and a table at the same size and seed scans the
// very same array as the plain scan's, the yardstick of the segmented scan.
//
// Bytes, the minimum traffic: the values read and the outputs written (2 * n * sizeof(T))
// plus the segment description read: a byte per item for flags, sizeof(Key) per item for
// keys, 8 bytes per boundary (count + 1) for offsets, 16 bytes per segment (a begin and an
// end) for begin/end. Gap items are read but not written (unless copied); the rows with
// gaps are rated on the same value bytes as the rows without gaps all the same, so that
// they compare with them directly.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu.cuh"
#include "onepass/ladder/segmented_scan/registry.cuh"
#include "segmented_scan_bench.cuh"
#include "support/segmented_scan_reference.hpp"

namespace onepass::bench {
namespace detail {

// The keys of the by-key form.
using segment_key = std::int32_t;

// How a variant is told where segments start. begin_end_gaps is the begin/end arrays
// with gaps between segments; its id is "begin_end" (the JSON's older name for it).
// begin_end_gaps_copied: the same arrays, the gap items copied from the input.
enum class segment_form { flags, offsets, by_key, begin_end, begin_end_gaps, begin_end_gaps_copied };

// params.form in the JSON.
inline const char* form_id(segment_form f) {
  switch (f) {
    case segment_form::flags: return "flags";
    case segment_form::offsets: return "offsets";
    case segment_form::by_key: return "by_key";
    case segment_form::begin_end: return "begin_end_no_gaps";
    case segment_form::begin_end_gaps: return "begin_end";
    case segment_form::begin_end_gaps_copied: return "begin_end_gaps_copied";
  }
  return "";
}
// What the row label appends: "onepass (by key)", "onepass (begin/end with gaps)".
inline const char* form_label(segment_form f) {
  switch (f) {
    case segment_form::by_key: return "by key";
    case segment_form::begin_end: return "begin/end";
    case segment_form::begin_end_gaps: return "begin/end with gaps";
    case segment_form::begin_end_gaps_copied: return "begin/end with gaps copied";
    default: return form_id(f);
  }
}

// The forms a variant has, in row order.
inline std::vector<segment_form> forms_of(const ladder::segmented_scan_variant_info& info) {
  std::vector<segment_form> forms;
  if (info.head_flags) forms.push_back(segment_form::flags);
  if (info.offsets) forms.push_back(segment_form::offsets);
  if (info.by_key) forms.push_back(segment_form::by_key);
  if (info.begin_end) {
    forms.push_back(segment_form::begin_end);
    forms.push_back(segment_form::begin_end_gaps);
  }
  if (info.begin_end_gaps_copied) forms.push_back(segment_form::begin_end_gaps_copied);
  return forms;
}

inline test::segment_distribution parse_segment_distribution(const std::string& table, const std::string& name) {
  for (const test::segment_distribution d : test::all_segment_distributions())
    if (name == test::distribution_name(d)) return d;
  throw std::runtime_error("'" + table + "': no segment distribution '" + name + "'");
}

template <class T, class Op>
std::vector<record> run_segmented_scan_table_with(const bench_case& c, bench_context& ctx, Op op) {
  using Key = segment_key;
  if (c.primitive != "segmented_scan") throw std::runtime_error("'" + c.table + "': not a segmented scan table");
  const test::segment_distribution dist = parse_segment_distribution(c.table, c.dist);
  // No variant has a size limit: every one runs at the table's n.
  const long long n = c.n;

  // The segments, from one list of lengths: CSR boundaries, head flags and keys, and
  // (when a variant of the table has that form) begin/end arrays without and with gaps.
  std::vector<long long> offsets = test::csr_offsets(test::segment_lengths(dist, n, ctx.seed ^ 0x5E65));
  const long long segments = static_cast<long long>(offsets.size()) - 1;
  bool begin_end_forms = false;
  for (const planned_variant& v : c.variants)
    if (const auto* e = ladder::find_segmented_scan<T, Key, Op>(v.id); e != nullptr && e->run_begin_end != nullptr)
      begin_end_forms = true;
  // Values in, out and expected; flags, keys and boundaries; for begin/end arrays, both
  // pairs of arrays and the answers with gaps (left alone, copied).
  require_device_memory(3.0 * n * sizeof(T) + (1.0 + sizeof(Key)) * n + 8.0 * (segments + 1) +
                            (begin_end_forms ? 2.0 * n * sizeof(T) + 32.0 * segments : 0.0),
                        "'" + c.table + "'");

  const T init = value_from_bits<T>(splitmix64(ctx.seed ^ 0x1217));
  const auto kind = c.kind == "inclusive" ? ladder::scan_kind::inclusive : ladder::scan_kind::exclusive;
  device_array<T> in(n), out(n), expected(n);
  device_array<std::uint8_t> flags(n);
  device_array<Key> keys(n);
  device_array<long long> bounds(segments + 1);
  device_array<T> expected_gaps(begin_end_forms ? n : 0), expected_gaps_copied(begin_end_forms ? n : 0);
  device_array<long long> begins(begin_end_forms ? segments : 0), ends(begin_end_forms ? segments : 0);
  device_array<long long> gap_begins(begin_end_forms ? segments : 0), gap_ends(begin_end_forms ? segments : 0);
  long long gap_segments = 0;  // the arrays' count with gaps (with_gaps keeps every segment)
  // Variants whose head-flags form moves some items twice: their passes for these flags.
  std::map<std::string, double> flags_passes;
  {
    const std::vector<T> host = random_input<T>(n, ctx.seed);
    if (c.op == "sum" && !test::exactly_representable_sums(host))
      throw std::runtime_error("'" + c.table + "': the input's partial sums are not exact in " + c.dtype +
                               " at this size; the check would not be exact");
    const std::vector<std::uint8_t> host_flags = test::head_flags_of(offsets, n);
    for (const planned_variant& v : c.variants)
      if (const auto* e = ladder::find_segmented_scan<T, Key, Op>(v.id); e != nullptr && e->flags_passes != nullptr)
        flags_passes[v.id] = e->flags_passes(host_flags.data(), n);
    {
      const std::vector<Key> host_keys = test::keys_of<Key>(offsets, n, ctx.seed ^ 0x4B65);
      // The by-key rows are checked against the flags' reference: the keys must start a
      // segment exactly where the flags do.
      if (test::head_flags_from_keys(host_keys) != host_flags)
        throw std::runtime_error("'" + c.table + "': the keys do not describe the segments of the flags");
      keys.upload(host_keys);
    }
    in.upload(host);
    flags.upload(host_flags);
    bounds.upload(offsets);
    const auto k = c.kind == "inclusive" ? test::kind::inclusive : test::kind::exclusive;
    // The CSR segments cover every item, so the offsets form writes every item too and
    // all forms but begin/end with gaps have this one answer.
    expected.upload(test::reference_segmented_scan(host, host_flags, k, init, op));
    if (begin_end_forms) {
      // Without gaps: the CSR boundaries split into begins (all but the last) and ends
      // (all but the first), as arrays of their own: bounds and bounds + 1 would do, but
      // their reads would share lines in L2 and the row would not pay for two arrays.
      begins.upload(std::vector<long long>(offsets.begin(), offsets.end() - 1));
      ends.upload(std::vector<long long>(offsets.begin() + 1, offsets.end()));
      const test::begin_end ranges = test::with_gaps(offsets, ctx.seed ^ 0x4761);
      gap_segments = static_cast<long long>(ranges.begin.size());
      gap_begins.upload(ranges.begin);
      gap_ends.upload(ranges.end);
      // The gaps keep the poison that out holds before each checked call.
      std::vector<T> want(static_cast<std::size_t>(n));
      std::memset(want.data(), 0xA5, want.size() * sizeof(T));
      test::reference_segmented_scan(host, ranges.begin, ranges.end, k, init, op, want);
      expected_gaps.upload(want);
      // Copied, the gaps hold the input.
      want = host;
      test::reference_segmented_scan(host, ranges.begin, ranges.end, k, init, op, want);
      expected_gaps_copied.upload(want);
    }
  }
  offsets.clear();
  offsets.shrink_to_fit();
  const cudaStream_t s = ctx.time.stream();

  std::vector<record> records;
  for (const planned_variant& v : c.variants) {
    ctx.steps.step(c.table + ": " + v.id);
    const auto* found = ladder::find_segmented_scan<T, Key, Op>(v.id);
    if (found == nullptr) throw std::runtime_error("'" + c.table + "': no segmented scan variant '" + v.id + "'");
    const auto& entry = *found;
    const std::vector<segment_form> forms = forms_of(entry);
    if (forms.empty()) {
      records.push_back(failed_record(c.primitive, v.id, c.dtype, n, {{"table", c.table}},
                                      "has no form (neither head flags, offsets, keys nor begin/end arrays)"));
      continue;
    }
    device_array<unsigned char> ws(static_cast<long long>(entry.workspace_bytes(n)));
    for (const segment_form form : forms) {
      const std::string label = v.id + " (" + form_label(form) + ")";
      std::vector<std::pair<std::string, param_value>> params = {
          {"table", c.table}, {"op", c.op}, {"kind", c.kind}, {"dist", c.dist}};
      params.emplace_back("form", std::string(form_id(form)));
      const bool with_gaps = form == segment_form::begin_end_gaps || form == segment_form::begin_end_gaps_copied;
      params.emplace_back("segments", with_gaps ? gap_segments : segments);
      const auto data_passes = flags_passes.find(v.id);
      params.emplace_back("passes", form == segment_form::flags && data_passes != flags_passes.end()
                                        ? data_passes->second
                                        : v.passes);
      if (!v.note.empty()) params.emplace_back("note", v.note);
      auto call = [&] {
        const workspace w{ws.get(), ws.bytes()};
        if (form == segment_form::flags)
          entry.run_flags(in.get(), flags.get(), n, out.get(), kind, init, op, w, s);
        else if (form == segment_form::offsets)
          entry.run_offsets(in.get(), n, bounds.get(), segments, out.get(), kind, init, op, w, s);
        else if (form == segment_form::by_key)
          entry.run_by_key(keys.get(), in.get(), n, out.get(), kind, init, op, w, s);
        else if (form == segment_form::begin_end)
          entry.run_begin_end(in.get(), n, begins.get(), ends.get(), segments, out.get(), kind, init, op, w, s);
        else if (form == segment_form::begin_end_gaps)
          entry.run_begin_end(in.get(), n, gap_begins.get(), gap_ends.get(), gap_segments, out.get(), kind, init, op,
                              w, s);
        else
          entry.run_begin_end_gaps_copied(in.get(), n, gap_begins.get(), gap_ends.get(), gap_segments, out.get(),
                                          kind, init, op, w, s);
      };
      const T* want = form == segment_form::begin_end_gaps          ? expected_gaps.get()
                      : form == segment_form::begin_end_gaps_copied ? expected_gaps_copied.get()
                                                                    : expected.get();
      std::string error;
      try {
        if (form == segment_form::flags                   ? entry.run_flags == nullptr
            : form == segment_form::offsets               ? entry.run_offsets == nullptr
            : form == segment_form::by_key                ? entry.run_by_key == nullptr
            : form == segment_form::begin_end_gaps_copied ? entry.run_begin_end_gaps_copied == nullptr
                                                          : entry.run_begin_end == nullptr)
          throw std::runtime_error(std::string("has no ") + form_label(form) + " form");
        // Poison the output: a variant that writes nothing (or skips items) cannot pass.
        ONEPASS_CUDA_TRY(cudaMemsetAsync(out.get(), 0xA5, out.bytes(), s));
        call();
        ONEPASS_CUDA_TRY(cudaStreamSynchronize(s));
        if (const long long i = first_mismatch(out.get(), want, n, s); i >= 0)
          error = "first difference at index " + std::to_string(i) + " of " + std::to_string(n) + ": expected " +
                  item_text(read_item(want, i)) + ", got " + item_text(read_item(out.get(), i));
      } catch (const std::exception& e) {
        error = e.what();
      }
      if (!error.empty()) {
        records.push_back(failed_record(c.primitive, label, c.dtype, n, std::move(params), error));
        continue;
      }
      const timing t = ctx.time.run(call);
      // Minimum traffic: every value read once and written once (gaps too: see the
      // header), and the segment description read once.
      const double description = form == segment_form::flags     ? 1.0 * n
                                 : form == segment_form::offsets ? 8.0 * (segments + 1)
                                 : form == segment_form::by_key  ? 1.0 * sizeof(Key) * n
                                 : form == segment_form::begin_end ? 16.0 * segments
                                                                   : 16.0 * gap_segments;  // both gap forms
      const double bytes = 2.0 * n * sizeof(T) + description;
      records.push_back(
          timed_record(c.primitive, label, c.dtype, n, std::move(params), t, bytes, ctx.copy_gbps, ctx.read_gbps));
    }
  }
  return records;
}

}  // namespace detail

template <class T>
std::vector<record> run_segmented_scan_table_typed(const bench_case& c, bench_context& ctx) {
  if (c.op == "sum") return detail::run_segmented_scan_table_with<T>(c, ctx, plus{});
  if (c.op == "max") return detail::run_segmented_scan_table_with<T>(c, ctx, maximum{});
  throw std::runtime_error("segmented_scan: no operator '" + c.op + "'");
}

// Compiled in segmented_scan_bench_<dtype>.cu.
extern template std::vector<record> run_segmented_scan_table_typed<std::int32_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_segmented_scan_table_typed<std::uint32_t>(const bench_case&, bench_context&);
extern template std::vector<record> run_segmented_scan_table_typed<long long>(const bench_case&, bench_context&);
extern template std::vector<record> run_segmented_scan_table_typed<unsigned long long>(const bench_case&,
                                                                                         bench_context&);
extern template std::vector<record> run_segmented_scan_table_typed<float>(const bench_case&, bench_context&);
extern template std::vector<record> run_segmented_scan_table_typed<double>(const bench_case&, bench_context&);

}  // namespace onepass::bench
