// onepass/ladder/segmented_scan/registry.cuh — every segmented-scan variant by name, in
// ladder order.
//
// What tests and onepass-bench iterate over: a variant added to `segmented_scan_ladder` is
// automatically tested and benchmarked. Entries are typed by value, key and operator;
// each has the forms its variant has (the others are nullptr): head flags (one byte per
// item), CSR offsets (count + 1 boundaries), by key (onepass::equal_to) and begin/end
// arrays (count each; segments may leave gaps, whose items are not written).
//
//   using namespace onepass::ladder;
//   for (const auto& v : segmented_scan_registry<float, int, onepass::plus>())
//     if (v.run_by_key) v.run_by_key(keys, in, n, out, scan_kind::inclusive, 0.f, {}, ws, stream);
//   // ws: v.workspace_bytes(n) bytes, enough for every form of v
//   if (const auto* v = find_segmented_scan<float, int, onepass::plus>("warp_head_flags")) ...
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>
#include <vector>

#include "onepass/ladder/segmented_scan/common.cuh"
#include "onepass/ladder/segmented_scan/cub.cuh"
#include "onepass/ladder/segmented_scan/production.cuh"
#include "onepass/ladder/segmented_scan/warp_head_flags.cuh"

namespace onepass::ladder {

// The ladder, slowest idea first; the production path and the peer last.
using segmented_scan_ladder =
    variant_list<warp_head_flags, segmented_scan_production, segmented_scan_deterministic, cub_scan_by_key>;

// What is known of a variant without choosing a type: its forms.
struct segmented_scan_variant_info {
  const char* id;
  const char* summary;
  bool head_flags;  // has run_flags
  bool offsets;     // has run_offsets
  bool by_key;      // has run_by_key
  bool begin_end;   // has run_begin_end
  bool begin_end_gaps_copied = false;  // has run_begin_end_gaps_copied
  // Passes over the values (1 = each item read once and written once) of the head-flags
  // form when they depend on the flags (host memory); nullptr when the variant moves
  // every item once whatever the segments.
  double (*flags_passes)(const std::uint8_t* head_flags, index_t n) = nullptr;
};

// Each function checks its arguments (throws onepass::invalid_argument naming the
// argument) before enqueuing anything, as the production API does.
template <class T, class Key, class Op>
struct segmented_scan_entry : segmented_scan_variant_info {
  std::size_t (*workspace_bytes)(index_t n);  // enough for every form the variant has
  // each nullptr unless the matching flag is true; each checks its arguments first
  void (*run_flags)(const T* in, const std::uint8_t* head_flags, index_t n, T* out, scan_kind kind, T init, Op op,
                    workspace ws, cudaStream_t stream);
  void (*run_offsets)(const T* in, index_t n, const long long* offsets /* count + 1 CSR boundaries */,
                      index_t num_segments, T* out, scan_kind kind, T init, Op op, workspace ws,
                      cudaStream_t stream);
  void (*run_by_key)(const Key* keys, const T* in, index_t n, T* out, scan_kind kind, T init, Op op, workspace ws,
                     cudaStream_t stream);
  void (*run_begin_end)(const T* in, index_t n, const long long* begins, const long long* ends /* count each */,
                        index_t num_segments, T* out, scan_kind kind, T init, Op op, workspace ws,
                        cudaStream_t stream);
  // as run_begin_end, the items in no segment written with their input value; nullptr
  // unless begin_end_gaps_copied
  decltype(run_begin_end) run_begin_end_gaps_copied = nullptr;
};

namespace detail {
template <class V, class = void>
struct has_flags_passes : std::false_type {};
template <class V>
struct has_flags_passes<V, std::void_t<decltype(&V::flags_passes)>> : std::true_type {};

template <class V, class = void>
struct has_begin_end_gaps_copied : std::false_type {};
template <class V>
struct has_begin_end_gaps_copied<
    V, std::void_t<decltype(&V::template run_begin_end_gaps_copied<int, long long, plus>)>> : std::true_type {};

template <class V>
constexpr segmented_scan_variant_info segmented_scan_info_of() {
  segmented_scan_variant_info info{V::id, V::summary, V::has_flags, V::has_offsets, V::has_by_key, V::has_begin_end};
  info.begin_end_gaps_copied = has_begin_end_gaps_copied<V>::value;
  if constexpr (has_flags_passes<V>::value) info.flags_passes = &V::flags_passes;
  return info;
}
template <class... Vs>
std::vector<segmented_scan_variant_info> segmented_scan_infos(variant_list<Vs...>) {
  return {segmented_scan_info_of<Vs>()...};
}

template <class V, class T, class Key, class Op>
void by_key_with_equal_to(const Key* keys, const T* in, index_t n, T* out, scan_kind kind, T init, Op op,
                          workspace ws, cudaStream_t stream) {
  V::run_by_key(keys, in, n, out, kind, init, op, equal_to{}, ws, stream);
}

// The entry of V: the forms it has, nullptr for the others.
template <class V, class T, class Key, class Op>
segmented_scan_entry<T, Key, Op> segmented_scan_entry_of() {
  segmented_scan_entry<T, Key, Op> e{segmented_scan_info_of<V>(), &V::template workspace_bytes<T, Key, Op>, nullptr,
                                     nullptr, nullptr, nullptr};
  if constexpr (V::has_flags) e.run_flags = &V::template run_flags<T, std::uint8_t, Op>;
  if constexpr (V::has_offsets) e.run_offsets = &V::template run_offsets<T, long long, Op>;
  if constexpr (V::has_by_key) e.run_by_key = &by_key_with_equal_to<V, T, Key, Op>;
  if constexpr (V::has_begin_end) e.run_begin_end = &V::template run_begin_end<T, long long, Op>;
  if constexpr (has_begin_end_gaps_copied<V>::value)
    e.run_begin_end_gaps_copied = &V::template run_begin_end_gaps_copied<T, long long, Op>;
  return e;
}
template <class T, class Key, class Op, class... Vs>
std::vector<segmented_scan_entry<T, Key, Op>> segmented_scan_entries(variant_list<Vs...>) {
  return {segmented_scan_entry_of<Vs, T, Key, Op>()...};
}
}  // namespace detail

// The variants in ladder order.
inline std::vector<segmented_scan_variant_info> segmented_scan_variants() {
  return detail::segmented_scan_infos(segmented_scan_ladder{});
}

template <class T, class Key, class Op>
const std::vector<segmented_scan_entry<T, Key, Op>>& segmented_scan_registry() {
  static const std::vector<segmented_scan_entry<T, Key, Op>> all =
      detail::segmented_scan_entries<T, Key, Op>(segmented_scan_ladder{});
  return all;
}

// The entry of that id, or nullptr when no variant has it (segmented_scan_variants() lists them).
template <class T, class Key, class Op>
const segmented_scan_entry<T, Key, Op>* find_segmented_scan(std::string_view id) {
  for (const auto& e : segmented_scan_registry<T, Key, Op>())
    if (id == e.id) return &e;
  return nullptr;
}

}  // namespace onepass::ladder
