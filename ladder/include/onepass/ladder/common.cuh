// onepass/ladder/common.cuh — what the ladders of every primitive share: the variant
// list type their registries are built from, and the base of variants without scratch.
#pragma once

#include <cstddef>

#include "onepass/detail/config.cuh"
#include "onepass/functional.cuh"

namespace onepass::ladder {

// A registry's variants, in ladder order (slowest idea first).
template <class... Variants>
struct variant_list {};

constexpr index_t no_limit = -1;

namespace detail {
// Pieces of a variant's workspace start 16-byte aligned.
constexpr std::size_t round_up_16(std::size_t bytes) { return (bytes + 15) / 16 * 16; }
}  // namespace detail

// Base of the variants that need no scratch memory.
struct needs_no_workspace {
  template <class T, class Op = plus>
  static std::size_t workspace_bytes(index_t /*n*/) {
    return 0;
  }
};

}  // namespace onepass::ladder
