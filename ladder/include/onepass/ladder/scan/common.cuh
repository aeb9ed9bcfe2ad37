// onepass/ladder/scan/common.cuh — what every variant of the scan teaching ladder shares.
//
// A variant is a struct with
//   static constexpr const char* id;           // the registry name, e.g. "hillis_steele"
//   static constexpr const char* summary;      // one line for --list and the docs
//   static constexpr index_t max_items;        // largest n it handles; no_limit if any
//   static constexpr double passes;            // device-memory passes (1 = read + write once)
//   template <class T, class Op = plus> static std::size_t workspace_bytes(index_t n);
//   template <class T, class Op>
//   static void run_unchecked(const T* in, index_t n, T* out, scan_kind kind, T init, Op op,
//                             workspace ws, cudaStream_t stream);
// and is called through onepass::ladder::run_scan<Variant>(...), which checks the
// arguments (including max_items and the workspace) before calling run_unchecked, so
// every variant rejects what it cannot do with a clear error instead of a wrong answer.
//
// A variant that scans one array per block may also define
//   template <class T, class Op>
//   static void run_batch_unchecked(const T* in, index_t n, index_t batch, T* out,
//                                   scan_kind kind, T init, Op op, cudaStream_t stream);
// which scans `batch` independent arrays of n items stored back to back (array b is
// in[b*n, b*n + n) and goes to out[b*n, ...)) in one launch, one block per array. Timing
// one launch of one block measures launch latency, not the algorithm; a batch amortises
// the launch, so time per block = launch time / batch. It is called through
// run_scan_batch<Variant>(...), checked like run_scan, and has_batch<Variant> says
// whether it exists. Such variants take no workspace (run_scan_batch has no parameter for
// one), and their run_unchecked is the batch == 1 case.
//
// Semantics are those of the production scan: inclusive out[i] = in[0] op ... op in[i];
// exclusive out[i] = init op in[0] op ... op in[i-1]; op associative, not necessarily
// commutative; in == out allowed. Variants are workspace-style: they never allocate.
#pragma once

#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "onepass/detail/launch.cuh"
#include "onepass/device/dispatch_scan.cuh"
#include "onepass/functional.cuh"
#include "onepass/ladder/common.cuh"

namespace onepass::ladder {

enum class scan_kind { inclusive, exclusive };

inline const char* to_string(scan_kind k) {
  return k == scan_kind::inclusive ? "inclusive" : "exclusive";
}

namespace detail {
template <class Variant>
void check_max_items(index_t n) {
  if (Variant::max_items != no_limit && n > Variant::max_items)
    throw invalid_argument("n", "is " + std::to_string(n) + " but the " + Variant::id +
                                    " variant handles at most " +
                                    std::to_string(Variant::max_items) + " items");
}
}  // namespace detail

template <class Variant, class T, class Op>
void run_scan(const T* in, index_t n, T* out, scan_kind kind, T init, Op op, workspace ws,
              cudaStream_t stream) {
  onepass::detail::check_scan_args(in, n, out);
  detail::check_max_items<Variant>(n);
  onepass::detail::check_workspace(ws, Variant::template workspace_bytes<T, Op>(n));
  onepass::detail::check_scan_memory(in, n, out);
  if (n == 0) return;
  Variant::run_unchecked(in, n, out, kind, init, op, ws, stream);
}

// Whether Variant has run_batch_unchecked. A variant must work for every T and Op, so
// probing with int and plus asks only whether the member exists.
template <class Variant, class = void>
struct has_batch : std::false_type {};
template <class Variant>
struct has_batch<Variant, std::void_t<decltype(Variant::template run_batch_unchecked<int, plus>(
                              std::declval<const int*>(), index_t{}, index_t{},
                              std::declval<int*>(), scan_kind{}, int{}, plus{},
                              cudaStream_t{}))>> : std::true_type {};
template <class Variant>
inline constexpr bool has_batch_v = has_batch<Variant>::value;

// One block per array, and a grid's x dimension holds at most 2^31 - 1 blocks.
constexpr index_t max_batch = std::numeric_limits<int>::max();

template <class Variant, class T, class Op>
void run_scan_batch(const T* in, index_t n, index_t batch, T* out, scan_kind kind, T init, Op op,
                    cudaStream_t stream) {
  static_assert(has_batch_v<Variant>, "this scan variant has no run_batch_unchecked");
  static_assert(std::is_base_of_v<needs_no_workspace, Variant>,
                "a batched variant gets no workspace, so it must not need one");
  onepass::detail::check_count(n, "n");
  onepass::detail::check_count(batch, "batch");
  detail::check_max_items<Variant>(n);
  if (batch > max_batch)
    throw invalid_argument("batch", "is " + std::to_string(batch) + ", more than the " +
                                        std::to_string(max_batch) +
                                        " blocks of one grid (one block per array)");
  // Only a variant without an item limit can get here with a product past index_t; the
  // range checks below need the true total.
  if (n > 0 && batch > std::numeric_limits<index_t>::max() / n)
    throw invalid_argument("batch", "is " + std::to_string(batch) + "; times n = " +
                                        std::to_string(n) + " it overflows a 64-bit count");
  const index_t total = n * batch;
  // The arrays are one contiguous range, so the pointer, overlap and device-memory checks
  // apply to it as a whole: in == out is fine, a partial overlap anywhere is not.
  onepass::detail::check_scan_args(in, total, out);
  onepass::detail::check_scan_memory(in, total, out);
  if (total == 0) return;
  Variant::run_batch_unchecked(in, n, batch, out, kind, init, op, stream);
}

}  // namespace onepass::ladder
