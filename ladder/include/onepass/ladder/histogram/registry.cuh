// onepass/ladder/histogram/registry.cuh — every histogram variant by name, in ladder order.
//
// What tests and onepass-bench iterate over: a variant added to `histogram_ladder` is
// automatically tested and benchmarked. Entries are typed by sample and counter type.
//
//   for (const auto& v : onepass::ladder::histogram_registry<std::uint8_t, unsigned>())
//     if (v.max_bins() == onepass::ladder::no_limit || bins <= v.max_bins())
//       v.run(samples, n, bins, 0, 256, counts, ws, stream);
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "onepass/ladder/histogram/block_private.cuh"
#include "onepass/ladder/histogram/common.cuh"
#include "onepass/ladder/histogram/cub.cuh"
#include "onepass/ladder/histogram/global_atomic.cuh"
#include "onepass/ladder/histogram/production.cuh"
#include "onepass/ladder/histogram/warp_private.cuh"

namespace onepass::ladder {

using histogram_ladder = variant_list<global_atomic, block_private, warp_private, histogram_production, cub_histogram>;

// What is known of a variant without choosing a type.
struct histogram_variant_info {
  const char* id;
  const char* summary;
};

template <class Sample, class Counter>
struct histogram_entry : histogram_variant_info {
  int (*max_bins)();  // the most bins it takes on the current GPU, or no_limit
  std::size_t (*workspace_bytes)(index_t n, int bins);
  void (*run)(const Sample* samples, index_t n, int bins, histogram_level_t<Sample> lower,
              histogram_level_t<Sample> upper, Counter* counts, workspace ws,
              cudaStream_t stream);  // checks its arguments; throws onepass::invalid_argument
};

namespace detail {
template <class V>
constexpr histogram_variant_info histogram_info_of() {
  return {V::id, V::summary};
}
template <class... Vs>
std::vector<histogram_variant_info> histogram_infos(variant_list<Vs...>) {
  return {histogram_info_of<Vs>()...};
}
template <class Sample, class Counter, class... Vs>
std::vector<histogram_entry<Sample, Counter>> histogram_entries(variant_list<Vs...>) {
  return {histogram_entry<Sample, Counter>{histogram_info_of<Vs>(), &Vs::template max_bins<Sample>,
                                           &Vs::template workspace_bytes<Sample, Counter>,
                                           &run_histogram<Vs, Sample, Counter>}...};
}
}  // namespace detail

inline const std::vector<histogram_variant_info>& histogram_variants() {
  static const std::vector<histogram_variant_info> all = detail::histogram_infos(histogram_ladder{});
  return all;
}

template <class Sample, class Counter>
const std::vector<histogram_entry<Sample, Counter>>& histogram_registry() {
  static const std::vector<histogram_entry<Sample, Counter>> all =
      detail::histogram_entries<Sample, Counter>(histogram_ladder{});
  return all;
}

template <class Sample, class Counter>
const histogram_entry<Sample, Counter>& find_histogram(std::string_view id) {
  for (const auto& e : histogram_registry<Sample, Counter>())
    if (id == e.id) return e;
  std::string known;
  for (const auto& e : histogram_variants()) known += std::string(known.empty() ? "" : ", ") + e.id;
  throw invalid_argument("id", "names no histogram variant ('" + std::string(id) + "'); known: " + known);
}

}  // namespace onepass::ladder
