// onepass/ladder/radix_sort/registry.cuh — every radix sort variant by name, in ladder
// order.
//
// What tests and onepass-bench iterate over: a variant added to `radix_sort_ladder` is
// automatically tested and benchmarked. Entries are typed by key and value type; a sort
// of keys alone is Value = onepass::detail::keys_only, with null value pointers.
//
//   using onepass::detail::keys_only;
//   for (const auto& v : onepass::ladder::radix_sort_registry<float, keys_only>())
//     v.sort(keys, sorted, nullptr, nullptr, n, {onepass::sort_order::descending}, ws, stream);
//   if (const auto* v = onepass::ladder::find_radix_sort<unsigned, int>("split_1bit")) ...
//
// ws: v.workspace_bytes(n) bytes, enough for either order and any bit range.
#pragma once

#include <string_view>
#include <vector>

#include "onepass/ladder/radix_sort/common.cuh"
#include "onepass/ladder/radix_sort/cub.cuh"
#include "onepass/ladder/radix_sort/production.cuh"
#include "onepass/ladder/radix_sort/split_1bit.cuh"

namespace onepass::ladder {

using radix_sort_ladder = variant_list<split_1bit, radix_sort_production, cub_radix_sort, cub_radix_sort_64bit_count>;

// What is known of a variant without choosing a type.
struct radix_sort_variant_info {
  const char* id;
  const char* summary;
};

// sort checks its arguments (throws onepass::invalid_argument naming the argument) before
// enqueuing anything, as the production API does.
template <class Key, class Value>
struct radix_sort_entry : radix_sort_variant_info {
  std::size_t (*workspace_bytes)(index_t n);  // any order, any bit range
  void (*sort)(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, index_t n,
               const radix_sort_options& options, workspace ws, cudaStream_t stream);
};

namespace detail {
template <class V>
constexpr radix_sort_variant_info radix_sort_info_of() {
  return {V::id, V::summary};
}
template <class... Vs>
std::vector<radix_sort_variant_info> radix_sort_infos(variant_list<Vs...>) {
  return {radix_sort_info_of<Vs>()...};
}

template <class V, class Key, class Value>
void radix_sort_with(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, index_t n,
                     const radix_sort_options& options, workspace ws, cudaStream_t stream) {
  run_radix_sort<V>(keys_in, keys_out, values_in, values_out, n, options, ws, stream);
}

template <class Key, class Value, class... Vs>
std::vector<radix_sort_entry<Key, Value>> radix_sort_entries(variant_list<Vs...>) {
  return {radix_sort_entry<Key, Value>{radix_sort_info_of<Vs>(), &Vs::template workspace_bytes<Key, Value>,
                                       &radix_sort_with<Vs, Key, Value>}...};
}
}  // namespace detail

inline const std::vector<radix_sort_variant_info>& radix_sort_variants() {
  static const std::vector<radix_sort_variant_info> all = detail::radix_sort_infos(radix_sort_ladder{});
  return all;
}

template <class Key, class Value>
const std::vector<radix_sort_entry<Key, Value>>& radix_sort_registry() {
  static const std::vector<radix_sort_entry<Key, Value>> all =
      detail::radix_sort_entries<Key, Value>(radix_sort_ladder{});
  return all;
}

// The entry of that id, or nullptr when no variant has it (radix_sort_variants() lists them).
template <class Key, class Value>
const radix_sort_entry<Key, Value>* find_radix_sort(std::string_view id) {
  for (const auto& e : radix_sort_registry<Key, Value>())
    if (id == e.id) return &e;
  return nullptr;
}

}  // namespace onepass::ladder
