// onepass/single_pass/lookback.cuh — computing a tile's exclusive prefix from its
// predecessors' descriptors (Merrill & Garland's decoupled lookback).
//
// A tile t > 0 walks back over t-1, t-2, ...: an AGGREGATE is folded in and the walk
// continues, a PREFIX is folded in and ends it, an INVALID is waited on. Because tile
// indices are claimed in execution order (tile_counter), every awaited tile is already
// running and will publish, so the wait always ends. Tile 0 never looks back; it
// publishes PREFIX directly.
//
// Values are folded as op(earlier, later): non-commutative operators are handled.
#pragma once

#include <thread>
#include <type_traits>

#include "onepass/single_pass/tile_state.cuh"
#if defined(__CUDACC__)
#include "onepass/warp/warp_reduce.cuh"  // the warp-parallel lookback; device code only
#endif

namespace onepass::lookback {

// Pause between polls of a descriptor that is not ready yet: keeps spinning readers from
// flooding L2 with loads while the tile they wait on is still loading its data. The pause
// doubles from `ns` up to 256 ns; ns == 0 means poll again at once.
ONEPASS_HD ONEPASS_FORCEINLINE void backoff(unsigned& ns) {
#if ONEPASS_DEVICE_PASS
  if (ns == 0) return;
  __nanosleep(ns);
  ns = ns < 256 ? ns * 2 : ns;
#else
  (void)ns;
  std::this_thread::yield();
#endif
}

// One thread walks back one predecessor at a time. Returns the combination of all items
// of tiles [0, tile). Requires tile > 0. `State`: tile_state<T> or count_state<I>.
template <class State, class Op>
ONEPASS_HD typename State::value_type lookback_single(const State& state, index_t tile, Op op) {
  using T = typename State::value_type;
  index_t p = tile - 1;
  T running{};
  bool have_running = false;
  for (;;) {
    T value;
    tile_status s;
    unsigned ns = 32;
    while ((s = state.try_read(p, value)) == tile_status::invalid) backoff(ns);
    running = have_running ? op(value, running) : value;
    have_running = true;
    if (s == tile_status::prefix) return running;
    --p;
  }
}

// One thread walks back Window predecessors at a time: it reads tiles p, p - 1, ...,
// p - Window + 1 together — independent loads, so a window costs one memory latency
// rather than Window — then folds them nearest first until a PREFIX (done) or an INVALID
// (pause, then read a window again starting at that tile). Same result as
// lookback_single; Window == 1 is lookback_single. Requires tile > 0. first_backoff_ns:
// the first pause after an INVALID (see backoff).
template <int Window, class State, class Op>
ONEPASS_HD typename State::value_type lookback_window(const State& state, index_t tile, Op op,
                                                     unsigned first_backoff_ns = 32) {
  static_assert(Window >= 1, "a window holds at least one tile");
  using T = typename State::value_type;
  index_t p = tile - 1;  // the nearest predecessor not folded in yet
  T running{};
  bool have_running = false;
  unsigned ns = first_backoff_ns;
  for (;;) {
    T values[Window];
    tile_status status[Window];
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
    for (int w = 0; w < Window; ++w) {
      // Tile 0 is the last one ever needed (it publishes PREFIX); below it, nothing to read.
      status[w] = p - w >= 0 ? state.try_read(p - w, values[w]) : tile_status::invalid;
    }
    bool waiting = false;
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
    for (int w = 0; w < Window; ++w) {
      if (waiting) continue;
      if (status[w] == tile_status::invalid) {
        waiting = true;
        continue;
      }
      running = have_running ? op(values[w], running) : values[w];
      have_running = true;
      if (status[w] == tile_status::prefix) return running;
      --p;
    }
    if (waiting) backoff(ns);
  }
}

// lookback_window<Window>(state, tile, plus) for count descriptors, in about a third of
// the instructions per descriptor — the radix sort's tiles walk back over dozens of them
// per digit. A step reads Window words at immediate offsets from one pointer. The common
// case, all of them AGGREGATE, is folded without a branch per word: the words are added
// whole, and Window AGGREGATE tags (Window << 30, modulo 2^32) subtracted — exact, since
// the counts sum to less than 2^32. Otherwise the window is folded word by word as in
// lookback_window up to its first PREFIX (done) or INVALID (pause, read again from it).
// Returns the sum of the counts of tiles [0, tile). Requires tile > 0.
template <int Window, int Interleave>
ONEPASS_HD std::uint32_t lookback_counts(const count_state<Interleave>& state, index_t tile,
                                         unsigned first_backoff_ns = 32) {
  static_assert(Window >= 1, "a window holds at least one tile");
  using state_t = count_state<Interleave>;
  constexpr int shift = state_t::status_shift;
  constexpr auto aggregate = static_cast<std::uint32_t>(tile_status::aggregate);
  constexpr auto prefix = static_cast<std::uint32_t>(tile_status::prefix);
  index_t p = tile - 1;  // the nearest predecessor not added yet
  std::uint32_t sum = 0;
  unsigned ns = first_backoff_ns;
  for (;;) {
    std::uint32_t w[Window];
    std::uint32_t* const nearest = state.word(p);
    if (p >= Window - 1) {
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
      for (int k = 0; k < Window; ++k) w[k] = state_t::load(nearest - k * Interleave);
    } else {
      // Tile 0 is the last one ever needed (it publishes PREFIX); below it, nothing to
      // read, and nothing is folded past a PREFIX.
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
      for (int k = 0; k < Window; ++k) w[k] = p - k >= 0 ? state_t::load(nearest - k * Interleave) : prefix << shift;
    }
    std::uint32_t all_bits = w[0], any_bits = w[0], total = w[0];
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
    for (int k = 1; k < Window; ++k) {
      all_bits &= w[k];
      any_bits |= w[k];
      total += w[k];
    }
    // Every status is AGGREGATE (01): bit 30 set in all words, bit 31 in none.
    if ((all_bits >> shift & 1u) != 0 && (any_bits >> (shift + 1)) == 0) {
      sum += total - static_cast<std::uint32_t>(Window) * (aggregate << shift);
      p -= Window;
      continue;
    }
    bool waiting = false;
#if ONEPASS_DEVICE_PASS
#pragma unroll
#endif
    for (int k = 0; k < Window; ++k) {
      if (waiting) continue;
      const std::uint32_t status = w[k] >> shift;
      if (status == static_cast<std::uint32_t>(tile_status::invalid)) {
        waiting = true;
        continue;
      }
      sum += w[k] & state_t::max_count;
      if (status == prefix) return sum;
      --p;
    }
    backoff(ns);  // a window that is not all AGGREGATE and holds no PREFIX stops at an INVALID
  }
}

#if defined(__CUDACC__)
// A whole warp walks back 32 * TilesPerLane predecessors at a time: lane l reads the
// TilesPerLane consecutive tiles that start at position l * TilesPerLane of the window
// ending at w (so the last lane holds the nearest tiles; one lane's reads are one
// contiguous run of descriptors). The window is usable once some PREFIX lies above every
// still-INVALID tile; the tiles from the highest PREFIX to w are then folded in order:
// each lane folds its own tiles, one warp reduction the lanes. Returns the combination
// of all items of tiles [0, tile) in every lane. Requires tile > 0; all 32 lanes must
// call it. first_backoff_ns: the first pause between polls (see backoff).
//
// Why wider windows: a lookback ends at the nearest PREFIX, which lies further back the
// faster tiles are claimed, and each window read is one L2 round trip, a long one during
// a full-bandwidth scan. Measured on sm_90: 64 tiles a window gained a little for 4-byte
// values; 128 and 256 lost everywhere, every poll then reading and folding 1-2 KiB of
// descriptors (docs/perf/scan.md, "where the last points go"). TilesPerLane == 1 is the
// classic one-tile-per-lane walk.
//
// Two tiles a slot (tile_state's "Pairs") and an even TilesPerLane: a lane reads its
// tiles a slot at a time, one 16-byte load for two tiles, with the windows aligned to
// slots (below).
//
// WithTag: the walk also returns, in `prefix_tag`, the tag of the PREFIX that ended it
// (tile_state, "Tags"); the AGGREGATEs' tags are not read. For values whose tag is
// decided by the nearest PREFIX alone (the segmented scan's head kind: only tiles with no
// head publish AGGREGATEs), so that the warp folds plain values.
template <int TilesPerLane, bool WithTag, class T, int SlotWords, int TilesPerSlot, class Op>
__device__ T lookback_warp_walk(const tile_state<T, SlotWords, TilesPerSlot>& state, index_t tile, Op op,
                                unsigned first_backoff_ns, std::uint32_t& prefix_tag) {
  static_assert(TilesPerLane >= 1, "a lane reads at least one tile");
  constexpr int K = TilesPerLane;
  constexpr int window = 32 * K;
  // Two tiles a slot and an even K: each lane reads whole slots, one load a slot, so
  // windows start on an even tile and end on an odd one; when tile - 1 is even, the first
  // window's top position is `tile` itself, read but never folded (`skip_top`). With an
  // odd K, one tile a load as with one-tile slots.
  constexpr bool slots = TilesPerSlot == 2 && K % 2 == 0;
  static_assert(!(slots && WithTag), "slots of two tiles are read untagged");
  const int lane = detail::lane_id();
  index_t window_end = slots ? ((tile - 1) | 1) : tile - 1;
  bool skip_top = window_end != tile - 1;
  T running{};
  bool have_running = false;
  for (;;) {
    const index_t lane_first = window_end - (window - 1) + static_cast<index_t>(lane) * K;
    T values[K];
    std::uint32_t lane_tag = 0;  // WithTag: the tag of this lane's highest PREFIX
    int top_prefix, top_invalid;  // highest window position (0 ... window - 1) of each; -1: none
    unsigned ns = first_backoff_ns;
    for (;;) {
      int lane_prefix = -1, lane_invalid = -1;
      tile_status status[K];
#pragma unroll
      for (int k = 0; k < K; ++k) {
        values[k] = T{};
        status[k] = tile_status::prefix;  // tiles before 0 never count: tile 0 is PREFIX
      }
      if constexpr (slots) {
#pragma unroll
        for (int k = 0; k < K; k += 2) {  // lane_first is even: both tiles or neither below 0
          if (lane_first + k >= 0) state.try_read_slot(lane_first + k, values[k], status[k], values[k + 1], status[k + 1]);
        }
        // `tile` itself (AGGREGATE or INVALID): neither waited on nor a PREFIX
        if (skip_top && lane == 31) status[K - 1] = tile_status::aggregate;
      } else {
#pragma unroll
        for (int k = 0; k < K; ++k) {
          if constexpr (WithTag) {
            std::uint32_t tag = 0;
            if (lane_first + k >= 0) status[k] = state.try_read(lane_first + k, values[k], tag);
            if (status[k] == tile_status::prefix) lane_tag = tag;
          } else {
            if (lane_first + k >= 0) status[k] = state.try_read(lane_first + k, values[k]);
          }
        }
      }
#pragma unroll
      for (int k = 0; k < K; ++k) {
        if (status[k] == tile_status::prefix) lane_prefix = lane * K + k;
        if (status[k] == tile_status::invalid) lane_invalid = lane * K + k;
      }
      top_prefix = __reduce_max_sync(detail::full_warp_mask, lane_prefix);
      top_invalid = __reduce_max_sync(detail::full_warp_mask, lane_invalid);
      // Ready when no INVALID tile sits above the highest PREFIX (the tiles that will be
      // folded), or when the window holds neither (all AGGREGATE: fold, walk on).
      if (top_invalid < 0 || top_invalid < top_prefix) break;
      backoff(ns);
    }
    const int first = top_prefix < 0 ? 0 : top_prefix;  // fold window positions [first, window)
    // The lane's top tile is folded unless it is `tile` itself (drop_top). Lanes wholly
    // below `first` hold garbage that is never read.
    const bool drop_top = slots && skip_top && lane == 31;
    T mine = drop_top ? values[slots ? K - 2 : 0] : values[K - 1];
#pragma unroll
    for (int k = K - 2; k >= 0; --k) {
      if (drop_top && k == K - 2) continue;  // already `mine`
      if (lane * K + k >= first) mine = op(values[k], mine);
    }
    const T suffix = warp_reduce<T>::reduce_to_lane0(mine, op);  // lane i: lanes [i, 31]
    const T folded = detail::shfl_idx(suffix, first / K);
    running = have_running ? op(folded, running) : folded;
    have_running = true;
    if (top_prefix >= 0) {
      if constexpr (WithTag) prefix_tag = detail::shfl_idx(lane_tag, top_prefix / K);
      return running;
    }
    window_end -= window;
    skip_top = false;
  }
}

// absorbs_left for values that absorb nothing (the plain scan's): no vote for it.
struct absorbs_nothing {
  template <class V>
  ONEPASS_HD ONEPASS_FORCEINLINE constexpr bool operator()(const V&) const {
    return false;
  }
};

// The fixed-order lookback, for results that must not depend on timing (determinism):
// the tiles are taken in groups of G = 32 * TilesPerLane, and tile t of group g (t in
// [gG, gG + G)) combines, always grouped the same way,
//   the PREFIX of tile gG - 1, the previous group's last tile (none for g = 0), then
//   the AGGREGATEs of tiles gG ... t - 1:
// lane l folds tiles gG + l * TilesPerLane + [0, TilesPerLane) that lie below t, in
// order; then lanes are combined in pairs (l with l + 1 for even l, then l with l + 2 for
// l a multiple of 4, ...) down to lane 0, which puts the previous group's PREFIX first.
// Every grouping depends on t and G alone, never on which descriptors were published when,
// so the same inputs give the same bits on every run. The caller publishes a PREFIX only
// from a group's last tile (fixed_order_publishes_prefix), so the tiles [gG, t) read here
// all hold their AGGREGATEs; those are waited on until published, and tile gG - 1 until
// its PREFIX is. Requires tile > 0. Returns the combination in lane 0 (the other lanes'
// values are unspecified).
//
// The walk itself, over any descriptors: read(t, v) is try_read's contract (a value and
// its status, INVALID while unpublished); absorbs_left(v) says that op(x, v) == v for
// every x (a segmented scan's pair that holds a head). When the group's tiles fold to
// such a value, the previous group's PREFIX cannot change the result, and the walk does
// not wait for it: the bits are the same, only sooner.
template <int TilesPerLane, class V, class Read, class Op, class AbsorbsLeft>
__device__ V lookback_fixed_order_walk(index_t tile, Read read, Op op, AbsorbsLeft absorbs_left,
                                       unsigned first_backoff_ns) {
  static_assert(TilesPerLane >= 1, "a lane reads at least one tile");
  constexpr int K = TilesPerLane;
  constexpr index_t group = 32 * K;
  const int lane = detail::lane_id();
  const index_t group_first = tile - tile % group;
  const index_t lane_first = group_first + static_cast<index_t>(lane) * K;
  // Lane 0 also waits for the previous group's PREFIX (its last tile's inclusive prefix).
  const bool reads_previous = lane == 0 && group_first > 0;
  V values[K];
  V previous{};
  bool ready[K];
  bool previous_ready = !reads_previous;
#pragma unroll
  for (int k = 0; k < K; ++k) ready[k] = lane_first + k >= tile;  // nothing to read there
  unsigned ns = first_backoff_ns;
  for (;;) {
    // Every descriptor not yet seen is read at once (independent loads, one latency).
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (!ready[k]) ready[k] = read(lane_first + k, values[k]) != tile_status::invalid;
    if (!previous_ready) previous_ready = read(group_first - 1, previous) == tile_status::prefix;
    bool lane_ready = previous_ready;
#pragma unroll
    for (int k = 0; k < K; ++k) lane_ready = lane_ready && ready[k];
    if (__all_sync(detail::full_warp_mask, lane_ready)) break;
    if constexpr (!std::is_same_v<AbsorbsLeft, absorbs_nothing>) {
      // Every tile of the group below `tile` is read and one absorbs what is left of it.
      bool tiles_ready = true, absorbs = false;
#pragma unroll
      for (int k = 0; k < K; ++k) {
        tiles_ready = tiles_ready && ready[k];
        absorbs = absorbs || (ready[k] && lane_first + k < tile && absorbs_left(values[k]));
      }
      if (__all_sync(detail::full_warp_mask, tiles_ready) && __any_sync(detail::full_warp_mask, absorbs)) break;
    }
    backoff(ns);
  }
  // The lane's tiles in order; a lane whose first tile is at or past `tile` has none.
  V mine = values[0];
  const bool has = lane_first < tile;
#pragma unroll
  for (int k = 1; k < K; ++k)
    if (lane_first + k < tile) mine = op(mine, values[k]);
  // Pairs of lanes, then pairs of pairs: lane l (a multiple of 2d) takes lane l + d's fold
  // on its right. The lanes holding a fold are 0 ... m for some m, so a lane with none
  // never sits left of one with some.
  bool have = has;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const V right = detail::shfl_down(mine, d);
    const bool right_has = __shfl_down_sync(detail::full_warp_mask, have, d) != 0;
    if (lane % (2 * d) == 0 && lane + d < 32 && right_has) {
      mine = have ? op(mine, right) : right;
      have = true;
    }
  }
  // The previous group's PREFIX first, unless the fold absorbs it (then it may be unread).
  if (lane == 0 && group_first > 0 && !(have && absorbs_left(mine))) mine = have ? op(previous, mine) : previous;
  return mine;
}

// The walk over a plain scan's descriptors.
template <int TilesPerLane, class T, int SlotWords, int TilesPerSlot, class Op>
__device__ ONEPASS_FORCEINLINE T lookback_fixed_order(const tile_state<T, SlotWords, TilesPerSlot>& state,
                                                      index_t tile, Op op, unsigned first_backoff_ns = 32) {
  return lookback_fixed_order_walk<TilesPerLane, T>(
      tile, [&](index_t t, T& v) { return state.try_read(t, v); }, op, absorbs_nothing{}, first_backoff_ns);
}

// Under the fixed-order lookback, whether tile `tile` publishes its inclusive PREFIX: only
// each group's last tile (the others' AGGREGATEs stay, for the group's later tiles).
template <int TilesPerLane>
ONEPASS_HD constexpr bool fixed_order_publishes_prefix(index_t tile) {
  return tile % (32 * TilesPerLane) == 32 * TilesPerLane - 1;
}

template <int TilesPerLane = 1, class T, int SlotWords, int TilesPerSlot, class Op>
__device__ ONEPASS_FORCEINLINE T lookback_warp(const tile_state<T, SlotWords, TilesPerSlot>& state, index_t tile,
                                              Op op, unsigned first_backoff_ns = 32) {
  std::uint32_t unused;
  return lookback_warp_walk<TilesPerLane, false>(state, tile, op, first_backoff_ns, unused);
}

// lookback_warp for tagged publications: also returns the tag of the PREFIX that ended
// the walk (see WithTag above).
template <int TilesPerLane = 1, class T, int SlotWords, class Op>
__device__ ONEPASS_FORCEINLINE T lookback_warp_tagged(const tile_state<T, SlotWords>& state, index_t tile, Op op,
                                                     std::uint32_t& prefix_tag, unsigned first_backoff_ns = 32) {
  return lookback_warp_walk<TilesPerLane, true>(state, tile, op, first_backoff_ns, prefix_tag);
}
#endif

}  // namespace onepass::lookback

#if defined(__CUDACC__)
namespace onepass::detail {
// Test hook of the kernels built on the lookback: called by the publishing thread before
// each publication; the default does nothing. Tests pass a functor that stalls chosen
// tiles to prove the lookback waits correctly (ScanStress in tests/test_scan.cu,
// SelectStress, RadixSortStress).
struct no_delay {
  __device__ ONEPASS_FORCEINLINE void operator()(index_t /*tile*/, lookback::tile_status) const {}
};
}  // namespace onepass::detail
#endif
