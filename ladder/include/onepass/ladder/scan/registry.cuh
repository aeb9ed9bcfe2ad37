// onepass/ladder/scan/registry.cuh — every scan variant by name, in ladder order.
//
// The registry is what tests and onepass-bench iterate over, so a variant added to
// `scan_ladder` below is automatically tested and benchmarked. Entries are typed by the
// element type and operator: only the combinations a program asks for are instantiated.
//
//   for (const auto& v : onepass::ladder::scan_registry<float, onepass::plus>())
//     v.run(in, n, out, scan_kind::exclusive, 0.f, onepass::plus{}, ws, stream);
//   onepass::ladder::find_scan<int, onepass::maximum>("lookback_warp").run(...);
//
// An entry's run_batch scans `batch` arrays of n items stored back to back, one block
// per array, in one launch (see common.cuh): it is run_scan_batch for the variants that
// have run_batch_unchecked (the one-block variants, whose `batched` is true) and nullptr
// for the others. It checks its arguments like run, and takes no workspace.
//
//   const auto& hs = onepass::ladder::find_scan<float, onepass::plus>("hillis_steele");
//   if (hs.run_batch) hs.run_batch(in, 1024, 10000, out, scan_kind::inclusive, 0.f, {}, stream);
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "onepass/ladder/scan/blelloch.cuh"
#include "onepass/ladder/scan/chained.cuh"
#include "onepass/ladder/scan/common.cuh"
#include "onepass/ladder/scan/cub.cuh"
#include "onepass/ladder/scan/deterministic.cuh"
#include "onepass/ladder/scan/hillis_steele.cuh"
#include "onepass/ladder/scan/lookback.cuh"
#include "onepass/ladder/scan/production.cuh"
#include "onepass/ladder/scan/sequential.cuh"
#include "onepass/ladder/scan/three_pass.cuh"
#include "onepass/ladder/scan/warp_shuffle.cuh"

namespace onepass::ladder {

// The ladder, slowest idea first; the production path and the peer last.
using scan_ladder =
    variant_list<sequential, hillis_steele, blelloch, blelloch_bcf, warp_shuffle, three_pass_smem,
                 three_pass_warp, chained, lookback_thread, lookback_warp, lookback_vec<4>,
                 lookback_vec<8>, lookback_vec<12>, lookback_vec<16>, production, deterministic, cub_scan>;

// What is known of a variant without choosing a type.
struct scan_variant_info {
  const char* id;
  const char* summary;
  index_t max_items;  // no_limit (-1) when any n works
  double passes;      // passes over device memory, 1 = each item read once and written once
  bool batched;       // has run_batch: many arrays of up to max_items, one block each
};

template <class T, class Op>
struct scan_entry : scan_variant_info {
  std::size_t (*workspace_bytes)(index_t n);
  void (*run)(const T* in, index_t n, T* out, scan_kind kind, T init, Op op, workspace ws,
              cudaStream_t stream);  // checks its arguments; throws onepass::invalid_argument
  // nullptr unless `batched`; checks its arguments like run.
  void (*run_batch)(const T* in, index_t n, index_t batch, T* out, scan_kind kind, T init, Op op,
                    cudaStream_t stream);
};

namespace detail {
template <class V>
constexpr scan_variant_info info_of() {
  return {V::id, V::summary, V::max_items, V::passes, has_batch_v<V>};
}
template <class V, class T, class Op>
constexpr auto run_batch_of() {
  using fn = decltype(scan_entry<T, Op>::run_batch);
  if constexpr (has_batch_v<V>) {
    return static_cast<fn>(&run_scan_batch<V, T, Op>);
  } else {
    return static_cast<fn>(nullptr);
  }
}
template <class... Vs>
std::vector<scan_variant_info> infos(variant_list<Vs...>) {
  return {info_of<Vs>()...};
}
template <class T, class Op, class... Vs>
std::vector<scan_entry<T, Op>> entries(variant_list<Vs...>) {
  return {scan_entry<T, Op>{info_of<Vs>(), &Vs::template workspace_bytes<T, Op>,
                            &run_scan<Vs, T, Op>, run_batch_of<Vs, T, Op>()}...};
}
}  // namespace detail

inline const std::vector<scan_variant_info>& scan_variants() {
  static const std::vector<scan_variant_info> all = detail::infos(scan_ladder{});
  return all;
}

template <class T, class Op>
const std::vector<scan_entry<T, Op>>& scan_registry() {
  static const std::vector<scan_entry<T, Op>> all = detail::entries<T, Op>(scan_ladder{});
  return all;
}

template <class T, class Op>
const scan_entry<T, Op>& find_scan(std::string_view id) {
  for (const auto& e : scan_registry<T, Op>())
    if (id == e.id) return e;
  std::string known;
  for (const auto& e : scan_variants()) known += std::string(known.empty() ? "" : ", ") + e.id;
  throw invalid_argument("id", "names no scan variant ('" + std::string(id) + "'); known: " + known);
}

}  // namespace onepass::ladder
