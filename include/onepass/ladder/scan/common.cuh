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
// Semantics are those of the production scan: inclusive out[i] = in[0] op ... op in[i];
// exclusive out[i] = init op in[0] op ... op in[i-1]; op associative, not necessarily
// commutative; in == out allowed. Variants are workspace-style: they never allocate.
#pragma once

#include <string>

#include "onepass/detail/launch.cuh"
#include "onepass/device/dispatch_scan.cuh"
#include "onepass/functional.cuh"

namespace onepass::ladder {

enum class scan_kind { inclusive, exclusive };

inline const char* to_string(scan_kind k) {
  return k == scan_kind::inclusive ? "inclusive" : "exclusive";
}

constexpr index_t no_limit = -1;

// Base of the variants that need no scratch memory.
struct needs_no_workspace {
  template <class T, class Op = plus>
  static std::size_t workspace_bytes(index_t /*n*/) {
    return 0;
  }
};

template <class Variant, class T, class Op>
void run_scan(const T* in, index_t n, T* out, scan_kind kind, T init, Op op, workspace ws,
              cudaStream_t stream) {
  onepass::detail::check_scan_args(in, n, out);
  if (Variant::max_items != no_limit && n > Variant::max_items)
    throw invalid_argument("n", "is " + std::to_string(n) + " but the " + Variant::id +
                                    " variant handles at most " +
                                    std::to_string(Variant::max_items) + " items");
  onepass::detail::check_workspace(ws, Variant::template workspace_bytes<T, Op>(n));
  onepass::detail::check_scan_memory(in, n, out);
  if (n == 0) return;
  Variant::run_unchecked(in, n, out, kind, init, op, ws, stream);
}

}  // namespace onepass::ladder
