// onepass/ladder/reduce/registry.cuh — every reduce variant by name, in ladder order.
//
// What tests and onepass-bench iterate over: a variant added to `reduce_ladder` is
// automatically tested and benchmarked. Entries are typed by element type and operator.
//
//   for (const auto& v : onepass::ladder::reduce_registry<float, onepass::plus>())
//     v.run(in, n, out, 0.f, onepass::plus{}, ws, stream);
//   onepass::ladder::find_reduce<int, onepass::maximum>("block_atomic").run(...);
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "onepass/ladder/reduce/atomic_global.cuh"
#include "onepass/ladder/reduce/atomic_shared.cuh"
#include "onepass/ladder/reduce/block_atomic.cuh"
#include "onepass/ladder/reduce/common.cuh"
#include "onepass/ladder/reduce/cooperative.cuh"
#include "onepass/ladder/reduce/cub.cuh"
#include "onepass/ladder/reduce/production.cuh"
#include "onepass/ladder/reduce/two_phase.cuh"

namespace onepass::ladder {

using reduce_ladder = variant_list<atomic_global, atomic_shared, block_atomic, two_phase, cooperative,
                                   reduce_production, cub_reduce>;

// What is known of a variant without choosing a type.
struct reduce_variant_info {
  const char* id;
  const char* summary;
  bool commutative_only;  // refuses an op without onepass::is_commutative
  bool deterministic;     // the same bits every run on one GPU, floats included
};

template <class T, class Op>
struct reduce_entry : reduce_variant_info {
  std::size_t (*workspace_bytes)(index_t n);
  void (*run)(const T* in, index_t n, T* out, T init, Op op, workspace ws,
              cudaStream_t stream);  // checks its arguments; throws onepass::invalid_argument
};

namespace detail {
template <class V>
constexpr reduce_variant_info reduce_info_of() {
  return {V::id, V::summary, V::commutative_only, V::deterministic};
}
template <class... Vs>
std::vector<reduce_variant_info> reduce_infos(variant_list<Vs...>) {
  return {reduce_info_of<Vs>()...};
}
template <class T, class Op, class... Vs>
std::vector<reduce_entry<T, Op>> reduce_entries(variant_list<Vs...>) {
  return {reduce_entry<T, Op>{reduce_info_of<Vs>(), &Vs::template workspace_bytes<T, Op>,
                              &run_reduce<Vs, T, Op>}...};
}
}  // namespace detail

inline const std::vector<reduce_variant_info>& reduce_variants() {
  static const std::vector<reduce_variant_info> all = detail::reduce_infos(reduce_ladder{});
  return all;
}

template <class T, class Op>
const std::vector<reduce_entry<T, Op>>& reduce_registry() {
  static const std::vector<reduce_entry<T, Op>> all = detail::reduce_entries<T, Op>(reduce_ladder{});
  return all;
}

template <class T, class Op>
const reduce_entry<T, Op>& find_reduce(std::string_view id) {
  for (const auto& e : reduce_registry<T, Op>())
    if (id == e.id) return e;
  std::string known;
  for (const auto& e : reduce_variants()) known += std::string(known.empty() ? "" : ", ") + e.id;
  throw invalid_argument("id", "names no reduce variant ('" + std::string(id) + "'); known: " + known);
}

}  // namespace onepass::ladder
