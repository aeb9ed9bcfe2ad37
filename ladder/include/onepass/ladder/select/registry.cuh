// onepass/ladder/select/registry.cuh — every stream-compaction variant by name, in ladder
// order.
//
// What tests and onepass-bench iterate over: a variant added to `select_ladder` is
// automatically tested and benchmarked. Entries are typed by item type and predicate
// (the predicate of select_if and partition; unique compares with onepass::equal_to).
//
//   struct below { float t; __host__ __device__ bool operator()(float x) const { return x < t; } };
//   for (const auto& v : onepass::ladder::select_registry<float, below>())
//     v.select_if(in, n, out, count, below{0.5f}, ws, stream);  // ws: v.workspace_bytes(n) bytes
//   if (const auto* v = onepass::ladder::find_select<float, below>("three_kernel")) ...
//
// Through the registry, use predicates of the item alone: the cub entry refuses one that
// reads the index (pred(item, i)) with onepass::invalid_argument (index_predicates).
#pragma once

#include <string_view>
#include <vector>

#include "onepass/ladder/select/common.cuh"
#include "onepass/ladder/select/cub.cuh"
#include "onepass/ladder/select/production.cuh"
#include "onepass/ladder/select/three_kernel.cuh"

namespace onepass::ladder {

using select_ladder = variant_list<three_kernel, select_production, cub_select>;

// What is known of a variant without choosing a type.
struct select_variant_info {
  const char* id;
  const char* summary;
  bool in_place;          // select_if and unique accept out == in
  bool index_predicates;  // accepts pred(item, i) as well as pred(item)
};

// Each function checks its arguments (throws onepass::invalid_argument naming the
// argument) before enqueuing anything, as the production API does.
template <class T, class Pred>
struct select_entry : select_variant_info {
  std::size_t (*workspace_bytes)(index_t n);  // one size for all three calls
  void (*select_if)(const T* in, index_t n, T* out, index_t* count_out, Pred pred, workspace ws,
                    cudaStream_t stream);
  void (*unique)(const T* in, index_t n, T* out, index_t* count_out, workspace ws, cudaStream_t stream);
  void (*partition)(const T* in, index_t n, T* out_selected, T* out_rejected, index_t* count_out, Pred pred,
                    workspace ws, cudaStream_t stream);
};

namespace detail {
template <class V>
constexpr select_variant_info select_info_of() {
  return {V::id, V::summary, V::in_place, V::index_predicates};
}
template <class... Vs>
std::vector<select_variant_info> select_infos(variant_list<Vs...>) {
  return {select_info_of<Vs>()...};
}

template <class V, class T, class Pred>
void select_if_with(const T* in, index_t n, T* out, index_t* count_out, Pred pred, workspace ws, cudaStream_t stream) {
  run_select<V>(onepass::detail::select_if_job<T, Pred>{in, pred}, n, out, nullptr, count_out, ws, stream);
}
// Sized with the entry's Pred, as its workspace_bytes is.
template <class V, class T, class Pred>
void unique_with(const T* in, index_t n, T* out, index_t* count_out, workspace ws, cudaStream_t stream) {
  using job = onepass::detail::unique_job<T, equal_to>;
  run_select<V, job, Pred>(job{in, equal_to{}}, n, out, nullptr, count_out, ws, stream);
}
template <class V, class T, class Pred>
void partition_with(const T* in, index_t n, T* out_selected, T* out_rejected, index_t* count_out, Pred pred,
                    workspace ws, cudaStream_t stream) {
  run_select<V>(onepass::detail::select_if_job<T, Pred>{in, pred}, n, out_selected, out_rejected, count_out, ws,
                stream);
}

template <class T, class Pred, class... Vs>
std::vector<select_entry<T, Pred>> select_entries(variant_list<Vs...>) {
  return {select_entry<T, Pred>{select_info_of<Vs>(), &Vs::template workspace_bytes<T, Pred>,
                                &select_if_with<Vs, T, Pred>, &unique_with<Vs, T, Pred>,
                                &partition_with<Vs, T, Pred>}...};
}
}  // namespace detail

inline const std::vector<select_variant_info>& select_variants() {
  static const std::vector<select_variant_info> all = detail::select_infos(select_ladder{});
  return all;
}

template <class T, class Pred>
const std::vector<select_entry<T, Pred>>& select_registry() {
  static const std::vector<select_entry<T, Pred>> all = detail::select_entries<T, Pred>(select_ladder{});
  return all;
}

// The entry of that id, or nullptr when no variant has it (select_variants() lists them).
template <class T, class Pred>
const select_entry<T, Pred>* find_select(std::string_view id) {
  for (const auto& e : select_registry<T, Pred>())
    if (id == e.id) return &e;
  return nullptr;
}

}  // namespace onepass::ladder
