// radix_sort_tuning_sweep — tries shapes of the production radix sort against CUB's
// DeviceRadixSort in the same run: uint32 keys and uint32 pairs at 2^k, uint64 keys at
// 2^(k-1), random keys. Every output is checked against a CPU sort before it is timed;
// timed like onepass-bench (bench/gpu.cuh: L2 flushed, median of 20).
// Used to choose include/onepass/tuning/radix_sort_tuning.cuh (docs/perf/radix_sort.md).
//   radix_sort_tuning_sweep [log2_n=28] [keys|pairs|u64|wide_pairs|all]
//                           [quick|prefetch|prefetch_shapes|clusters|subtiles|occupancy|small|mid]
// (wide_pairs: uint32 keys with uint64 values at 2^k, uint64 keys and values at 2^(k-1),
// and with small or mid uint64 keys with uint32 values at 2^(k-1) too; the clusters,
// subtiles, occupancy, small or mid rows only)
// quick: CUB and the production row only (for profiling one sort under ncu); prefetch: the
// production row with the onesweep kernel's L2 prefetch at several distances, alternated
// twice with the production row as it is; prefetch_shapes: keys alone, shapes near
// production's with its prefetch; clusters: the production row launched plain and in
// clusters of two blocks, with and without a barrier before the scatter; subtiles: one
// and two sub-tiles a onesweep block, in and out of clusters, and shapes of two;
// occupancy: pairs of 4-byte keys, two sub-tiles at three or four blocks a SM; small:
// smaller tiles than production's (one sub-tile, no clusters) for sorts of 2^16 to 2^22
// keys, where production's large tiles leave most SMs idle (every sort); mid: pairs,
// production's shape in and out of clusters and shapes between it and the small one, for
// 2^19-2^24 (pairs, or in wide_pairs uint32 keys with uint64 values and uint64 keys with
// values).
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>

#include "gpu.cuh"
#include "onepass/radix_sort.cuh"

using namespace onepass;

// A shape: threads per block, items per thread, lookback window, blocks per SM the
// registers must allow, where the values wait (pairs), whether the tile-sorted keys have
// shared memory of their own (tuning::radix_sort_tuning::keys_apart), items ranked at a
// time, the lookback's first pause (ns), and the histogram kernel's blocks per SM, threads
// and counter copies (16 by default: fits the 8 passes of 8-byte keys in 128 KiB too).
template <int Threads, int Items, int Window, int MinBlocks,
          tuning::radix_value_load Values = tuning::radix_value_load::async_to_shared, bool KeysApart = true,
          int RankGroup = 4, unsigned PauseNs = 32, int HistogramBlocks = 1, int HistogramThreads = 1024,
          int HistogramCopies = 16>
struct row {
  static constexpr tuning::radix_sort_tuning value = [] {
    tuning::radix_sort_tuning t{};
    t.onesweep_items_per_thread = Items;
    t.histogram_block_threads = HistogramThreads;
    t.histogram_blocks_per_sm = HistogramBlocks;
    t.portion_items = 1ll << 28;
    t.lookback_window = Window;
    t.lookback_first_pause_ns = PauseNs;
    t.rank_group = RankGroup;
    t.value_load = Values;
    t.onesweep_min_blocks_per_sm = MinBlocks;
    t.onesweep_block_threads = Threads;
    t.keys_apart = KeysApart;
    t.histogram_counter_copies = HistogramCopies;
    return t;
  }();
};
// The production row with the onesweep kernel's L2 prefetch `KiB` ahead (in keys' bytes;
// 0: none) from any portion size on. (Production: 1 MiB for keys alone, none for pairs.)
template <class Key, class Value, int KiB>
struct production_prefetch {
  static constexpr tuning::radix_sort_tuning value = [] {
    tuning::radix_sort_tuning t = tuning::default_radix_sort_tuning<Key, Value>::value;
    t.l2_prefetch_bytes = static_cast<long long>(KiB) << 10;
    t.l2_prefetch_min_input_bytes = 0;
    return t;
  }();
};
// Any row with production's prefetch for keys alone (1 MiB ahead, every size).
template <class Row>
struct prefetching {
  static constexpr tuning::radix_sort_tuning value = [] {
    tuning::radix_sort_tuning t = Row::value;
    t.l2_prefetch_bytes = tuning::radix_keys_l2_prefetch_bytes;
    t.l2_prefetch_min_input_bytes = 0;
    return t;
  }();
};
// The production row with its onesweep blocks launched in clusters of `Blocks` (1: plain),
// with or without the cluster's barrier before the scatter.
template <class Key, class Value, int Blocks, bool WriteTogether>
struct production_in_clusters {
  static constexpr tuning::radix_sort_tuning value = [] {
    tuning::radix_sort_tuning t = tuning::default_radix_sort_tuning<Key, Value>::value;
    t.onesweep_cluster_blocks = Blocks;
    t.cluster_write_together = WriteTogether;
    return t;
  }();
};
// The production row with `Subtiles` sub-tiles a onesweep block of Threads x Items each,
// registers for MinBlocks blocks a SM, launched in clusters of ClusterBlocks (with the
// barrier before the scatter where WriteTogether).
template <class Key, class Value, int Subtiles, int Threads, int Items, int MinBlocks, int ClusterBlocks = 2,
          bool WriteTogether = true>
struct production_subtiles {
  static constexpr tuning::radix_sort_tuning value = [] {
    tuning::radix_sort_tuning t = tuning::default_radix_sort_tuning<Key, Value>::value;
    t.onesweep_subtiles = Subtiles;
    t.onesweep_block_threads = Threads;
    t.onesweep_items_per_thread = Items;
    t.onesweep_min_blocks_per_sm = MinBlocks;
    t.onesweep_cluster_blocks = ClusterBlocks;
    t.cluster_write_together = WriteTogether;
    return t;
  }();
};
constexpr auto staged = tuning::radix_value_load::async_to_shared;
constexpr auto after_keys = tuning::radix_value_load::after_keys;

// The stable ascending sort of `keys` on the CPU (LSD, 8 bits a pass), and the
// permutation it applied.
template <class Key>
void cpu_sort(std::vector<Key>& keys, std::vector<unsigned>& order) {
  const std::size_t n = keys.size();
  order.resize(n);
  std::iota(order.begin(), order.end(), 0u);
  std::vector<Key> k2(n);
  std::vector<unsigned> o2(n);
  for (int shift = 0; shift < static_cast<int>(8 * sizeof(Key)); shift += 8) {
    std::size_t count[257] = {};
    for (Key k : keys) ++count[((k >> shift) & 255) + 1];
    for (int d = 0; d < 256; ++d) count[d + 1] += count[d];
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t to = count[(keys[i] >> shift) & 255]++;
      k2[to] = keys[i];
      o2[to] = order[i];
    }
    keys.swap(k2);
    order.swap(o2);
  }
}

template <class Key, bool Pairs, class Value = unsigned>
struct sweep {
  using value_t = std::conditional_t<Pairs, Value, detail::keys_only>;
  long long n;
  std::vector<Key> host;
  std::vector<Key> expected;
  std::vector<unsigned> expected_order;
  bench::device_array<Key> in, out;
  bench::device_array<Value> vin, vout;
  bench::timer& time;
  int failures = 0;

  sweep(long long n_, bench::timer& t) : n(n_), in(n_), out(n_), vin(Pairs ? n_ : 0), vout(Pairs ? n_ : 0), time(t) {
    std::mt19937_64 rng(n);
    host.resize(static_cast<std::size_t>(n));
    for (auto& k : host) k = static_cast<Key>(rng());
    expected = host;
    cpu_sort(expected, expected_order);
    in.upload(host);
    if (Pairs) {
      std::vector<Value> index(static_cast<std::size_t>(n));
      std::iota(index.begin(), index.end(), Value{0});
      vin.upload(index);
    }
    const auto c = time.run([&] {
      ONEPASS_CUDA_TRY(cudaMemcpyAsync(out.get(), in.get(), in.bytes(), cudaMemcpyDeviceToDevice, time.stream()));
    });
    std::printf("%s%s n=%lld, copy %.0f GB/s\n", sizeof(Key) == 4 ? "uint32" : "uint64",
                Pairs ? (sizeof(Value) == 4 ? " pairs (uint32)" : " pairs (uint64)") : " keys", n, 2.0 * in.bytes() / c.median / 1e6);
  }

  template <class F>
  void measure(const char* name, F&& call) {
    ONEPASS_CUDA_TRY(cudaMemsetAsync(out.get(), 0xA5, out.bytes(), time.stream()));  // ordered before the call
    call();
    ONEPASS_CUDA_TRY(cudaDeviceSynchronize());
    std::vector<Key> got(static_cast<std::size_t>(n));
    ONEPASS_CUDA_TRY(cudaMemcpy(got.data(), out.get(), out.bytes(), cudaMemcpyDeviceToHost));
    bool ok = got == expected;
    if (ok && Pairs) {
      std::vector<Value> order(static_cast<std::size_t>(n));
      ONEPASS_CUDA_TRY(cudaMemcpy(order.data(), vout.get(), vout.bytes(), cudaMemcpyDeviceToHost));
      ok = std::equal(order.begin(), order.end(), expected_order.begin(), expected_order.end(),
                      [](Value got, unsigned want) { return got == static_cast<Value>(want); });
    }
    if (!ok) {
      std::printf("  %-32s FAILED (output differs from the CPU sort)\n", name);
      ++failures;
      return;
    }
    const auto t = time.run(call);
    std::printf("  %-32s %8.3f ms  %6.2f G keys/s\n", name, t.median, n / t.median / 1e6);
  }

  template <class Tuning>
  void try_row(const char* name) {
    bench::device_array<unsigned char> ws(
        static_cast<long long>(detail::radix_sort_plan_for<Key, value_t, Tuning>::workspace_bytes(n, false)));
    const workspace w{ws.get(), ws.bytes()};
    measure(name, [&] {
      if constexpr (Pairs)
        detail::radix_sort_copy_dispatch<Tuning>(in.get(), out.get(), vin.get(), vout.get(), n, {}, &w, time.stream());
      else
        detail::radix_sort_copy_dispatch<Tuning, Key, value_t>(in.get(), out.get(), nullptr, nullptr, n, {}, &w,
                                                               time.stream());
    });
  }

  // CUB given an int count ("cub") and a 64-bit one ("cub, 64-bit count"): two code paths,
  // the second 14-17% faster for 4-byte keys alone (docs/perf/radix_sort.md).
  void try_cub() {
    try_cub_with(static_cast<int>(n), "cub");
    try_cub_with(static_cast<long long>(n), "cub, 64-bit count");
  }

  template <class Count>
  void try_cub_with(Count items, const char* name) {
    std::size_t bytes = 0;
    if constexpr (Pairs)
      ONEPASS_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, in.get(), out.get(), vin.get(), vout.get(), items));
    else
      ONEPASS_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in.get(), out.get(), items));
    bench::device_array<unsigned char> ws(static_cast<long long>(bytes));
    measure(name, [&] {
      std::size_t b = bytes;
      if constexpr (Pairs)
        ONEPASS_CUDA_TRY(cub::DeviceRadixSort::SortPairs(ws.get(), b, in.get(), out.get(), vin.get(), vout.get(), items,
                                                         0, 8 * sizeof(Key), time.stream()));
      else
        ONEPASS_CUDA_TRY(
            cub::DeviceRadixSort::SortKeys(ws.get(), b, in.get(), out.get(), items, 0, 8 * sizeof(Key), time.stream()));
    });
  }

  void try_prefetch() {
    try_cub();
    for (int round = 0; round < 2; ++round) {
      try_row<tuning::default_radix_sort_tuning<Key, value_t>>("onepass (production row)");
      try_row<production_prefetch<Key, value_t, 0>>("production, no L2 prefetch");
      try_row<production_prefetch<Key, value_t, 256>>("production, L2 prefetch 256 KiB");
      try_row<production_prefetch<Key, value_t, 512>>("production, L2 prefetch 512 KiB");
      try_row<production_prefetch<Key, value_t, 1024>>("production, L2 prefetch 1 MiB");
      try_row<production_prefetch<Key, value_t, 2048>>("production, L2 prefetch 2 MiB");
    }
  }

  // The production row's onesweep blocks launched plain and in clusters of two blocks,
  // with and without a barrier before the scatter (docs/perf/radix_sort.md, "Clusters"),
  // alternated twice with the production row as it is.
  void try_clusters() {
    try_cub();
    for (int round = 0; round < 2; ++round) {
      try_row<tuning::default_radix_sort_tuning<Key, value_t>>("onepass (production row)");
      try_row<production_in_clusters<Key, value_t, 1, false>>("no clusters");
      try_row<production_in_clusters<Key, value_t, 2, false>>("clusters of 2");
      try_row<production_in_clusters<Key, value_t, 2, true>>("clusters of 2, write together");
    }
  }

  // Two sub-tiles a onesweep block against one (the 4-byte pairs' production until
  // 2026-11-26: 384 x 24, clusters that write together), in and out of clusters, and
  // other shapes of two, alternated twice (docs/perf/radix_sort.md, "Two sub-tiles").
  void try_subtiles() {
    constexpr bool pairs4 = Pairs && sizeof(Key) == 4 && sizeof(Value) == 4;
    constexpr bool keys4 = !Pairs && sizeof(Key) == 4;
    constexpr bool wide_values = Pairs && sizeof(Value) == 8;
    if constexpr (!pairs4 && !keys4 && !wide_values) {
      std::printf("  (no subtiles rows for this sort)\n");
    } else {
      try_cub();
      for (int round = 0; round < 2; ++round) {
        try_row<tuning::default_radix_sort_tuning<Key, value_t>>("onepass (production row)");
        if constexpr (pairs4) {
          try_row<production_subtiles<Key, value_t, 1, 384, 24, 2>>("one sub-tile, 384 x 24");
          try_row<production_subtiles<Key, value_t, 2, 384, 24, 2>>("two sub-tiles, 384 x 24");
          try_row<production_subtiles<Key, value_t, 2, 384, 24, 2, 1, false>>("two, 384 x 24, no clusters");
          try_row<production_subtiles<Key, value_t, 2, 384, 24, 2, 2, false>>("two, 384 x 24, no barrier");
          try_row<production_subtiles<Key, value_t, 2, 256, 36, 2>>("two sub-tiles, 256 x 36");
          try_row<production_subtiles<Key, value_t, 2, 384, 20, 2>>("two sub-tiles, 384 x 20");
          try_row<production_subtiles<Key, value_t, 2, 512, 16, 2>>("two sub-tiles, 512 x 16");
          try_row<production_subtiles<Key, value_t, 2, 512, 12, 2>>("two sub-tiles, 512 x 12");
          try_row<production_subtiles<Key, value_t, 2, 448, 16, 2>>("two sub-tiles, 448 x 16");
          try_row<production_subtiles<Key, value_t, 2, 512, 12, 2, 1, false>>("two, 512 x 12, no clusters");
        } else if constexpr (keys4) {  // production: one sub-tile of 384 x 32, no clusters
          try_row<production_subtiles<Key, value_t, 2, 384, 24, 2, 1, false>>("two sub-tiles, 384 x 24");
          try_row<production_subtiles<Key, value_t, 2, 384, 24, 2>>("two, 384 x 24, clusters");
          try_row<production_subtiles<Key, value_t, 2, 384, 20, 2, 1, false>>("two sub-tiles, 384 x 20");
          try_row<production_subtiles<Key, value_t, 2, 448, 16, 2, 1, false>>("two sub-tiles, 448 x 16");
          try_row<production_subtiles<Key, value_t, 2, 512, 16, 2, 1, false>>("two sub-tiles, 512 x 16");
          try_row<production_subtiles<Key, value_t, 2, 512, 12, 2, 1, false>>("two sub-tiles, 512 x 12");
        } else {  // 8-byte values; production: one sub-tile of 384 x 16, staged, clusters
          try_row<production_subtiles<Key, value_t, 2, 256, 16, 2>>("two sub-tiles, 256 x 16");
          try_row<production_subtiles<Key, value_t, 2, 384, 12, 2>>("two sub-tiles, 384 x 12");
          try_row<production_subtiles<Key, value_t, 2, 512, 8, 2>>("two sub-tiles, 512 x 8");
          try_row<production_subtiles<Key, value_t, 2, 256, 24, 2>>("two sub-tiles, 256 x 24");
          try_row<production_subtiles<Key, value_t, 2, 384, 16, 1>>("two sub-tiles, 384 x 16, 1 b");
        }
      }
    }
  }

  // Pairs with 4-byte keys: two sub-tiles a block at three and four blocks a SM (smaller
  // tiles, more of them in flight; the shapes whose full-tile path spills at most 9
  // stores) against production's two, alternated twice (docs/perf/radix_sort.md, "Three
  // and four blocks a SM").
  void try_occupancy() {
    if constexpr (Pairs && sizeof(Key) == 4) {
      try_cub();
      for (int round = 0; round < 2; ++round) {
        try_row<tuning::default_radix_sort_tuning<Key, value_t>>("onepass (production row)");
        if constexpr (sizeof(Value) == 4) {
          try_row<production_subtiles<Key, value_t, 2, 256, 20, 3>>("two sub-tiles, 256 x 20, 3 b");
          try_row<production_subtiles<Key, value_t, 2, 256, 24, 3>>("two sub-tiles, 256 x 24, 3 b");
          try_row<production_subtiles<Key, value_t, 2, 256, 16, 4>>("two sub-tiles, 256 x 16, 4 b");
          try_row<production_subtiles<Key, value_t, 2, 256, 12, 4>>("two sub-tiles, 256 x 12, 4 b");
        } else {
          try_row<production_subtiles<Key, value_t, 2, 256, 12, 3>>("two sub-tiles, 256 x 12, 3 b");
          try_row<production_subtiles<Key, value_t, 2, 256, 8, 4>>("two sub-tiles, 256 x 8, 4 b");
        }
      }
    } else {
      std::printf("  (no occupancy rows for this sort)\n");
    }
  }

  // Tiles smaller than production's, for small sorts: at 2^16 uint32 pairs production's
  // two sub-tiles of 384 x 20 make 5 blocks for 132 SMs, and the sort took 1.5x CUB's
  // time on an H200 (docs/perf/radix_sort.md, "Small sorts"). One sub-tile a block, no
  // clusters, 256 to 384 threads, alternated twice with the production row (its large
  // tiles named as the tuning), the public call (Tuning void: the small-sort switch,
  // tuning::radix_sort_tuning::small_sort_max_items) and production's shape out of clusters.
  void try_small() {
    try_cub();
    for (int round = 0; round < 2; ++round) {
      try_row<tuning::default_radix_sort_tuning<Key, value_t>>("onepass (production row)");
      try_row<void>("onepass (public call)");
      if constexpr (Pairs && sizeof(Key) == 4 && sizeof(Value) == 4) {
        try_row<production_subtiles<Key, value_t, 2, 384, 20, 2, 1, false>>("production shape, no clusters");
        try_row<production_subtiles<Key, value_t, 1, 256, 8, 2, 1, false>>("one, 256 x 8");
        try_row<production_subtiles<Key, value_t, 1, 256, 4, 2, 1, false>>("one, 256 x 4");
        try_row<production_subtiles<Key, value_t, 1, 256, 16, 2, 1, false>>("one, 256 x 16");
        try_row<production_subtiles<Key, value_t, 1, 384, 12, 2, 1, false>>("one, 384 x 12");
        try_row<production_subtiles<Key, value_t, 2, 256, 8, 2, 1, false>>("two, 256 x 8");
      } else if constexpr (!Pairs && sizeof(Key) == 4) {  // production: 384 x 32, no clusters
        try_row<production_subtiles<Key, value_t, 1, 256, 8, 2, 1, false>>("one, 256 x 8");
        try_row<production_subtiles<Key, value_t, 1, 256, 4, 2, 1, false>>("one, 256 x 4");
        try_row<production_subtiles<Key, value_t, 1, 256, 16, 2, 1, false>>("one, 256 x 16");
        try_row<production_subtiles<Key, value_t, 1, 384, 16, 2, 1, false>>("one, 384 x 16");
        try_row<production_subtiles<Key, value_t, 1, 256, 32, 2, 1, false>>("one, 256 x 32");
      } else if constexpr (!Pairs) {  // 8-byte keys; production: 512 x 16, no clusters
        try_row<production_subtiles<Key, value_t, 1, 256, 8, 2, 1, false>>("one, 256 x 8");
        try_row<production_subtiles<Key, value_t, 1, 256, 4, 2, 1, false>>("one, 256 x 4");
        try_row<production_subtiles<Key, value_t, 1, 256, 16, 2, 1, false>>("one, 256 x 16");
        try_row<production_subtiles<Key, value_t, 1, 384, 8, 2, 1, false>>("one, 384 x 8");
      } else if constexpr (Pairs && sizeof(Key) == 4) {  // 8-byte values; production: two of 256 x 16
        try_row<production_subtiles<Key, value_t, 2, 256, 16, 2, 1, false>>("production shape, no clusters");
        try_row<production_subtiles<Key, value_t, 1, 256, 8, 2, 1, false>>("one, 256 x 8");
        try_row<production_subtiles<Key, value_t, 1, 256, 4, 2, 1, false>>("one, 256 x 4");
        try_row<production_subtiles<Key, value_t, 1, 256, 12, 2, 1, false>>("one, 256 x 12");
        try_row<production_subtiles<Key, value_t, 1, 256, 16, 2, 1, false>>("one, 256 x 16");
        try_row<production_subtiles<Key, value_t, 1, 384, 8, 2, 1, false>>("one, 384 x 8");
      } else if constexpr (Pairs) {  // 8-byte keys with values; production: one of 384 x 16
        try_row<production_subtiles<Key, value_t, 1, 384, 16, 2, 1, false>>("production shape, no clusters");
        try_row<production_subtiles<Key, value_t, 1, 256, 8, 2, 1, false>>("one, 256 x 8");
        try_row<production_subtiles<Key, value_t, 1, 256, 4, 2, 1, false>>("one, 256 x 4");
        try_row<production_subtiles<Key, value_t, 1, 256, 12, 2, 1, false>>("one, 256 x 12");
        try_row<production_subtiles<Key, value_t, 1, 256, 16, 2, 1, false>>("one, 256 x 16");
        try_row<production_subtiles<Key, value_t, 1, 384, 8, 2, 1, false>>("one, 384 x 8");
      }
    }
  }

  // Pairs at mid sizes (2^19-2^24), where the small shape stops paying and production's
  // tiles do not yet fill the GPU (docs/perf/radix_sort.md, "Medium sorts"): production's
  // shape in and out of clusters against shapes between it and the small one, all plain
  // launches, alternated twice; 4-byte keys with 4-byte values, or 8-byte keys with values.
  void try_mid() {
    if constexpr (Pairs && sizeof(Key) == 4 && sizeof(Value) == 4) {
      try_cub();
      for (int round = 0; round < 2; ++round) {
        try_row<tuning::default_radix_sort_tuning<Key, value_t>>("onepass (production row)");
        try_row<void>("onepass (public call)");
        try_row<production_subtiles<Key, value_t, 2, 384, 20, 2, 1, false>>("production shape, no clusters");
        try_row<production_subtiles<Key, value_t, 2, 384, 20, 2, 2, false>>("clusters, no barrier");
        try_row<production_subtiles<Key, value_t, 1, 384, 20, 2, 1, false>>("one, 384 x 20");
        try_row<production_subtiles<Key, value_t, 1, 512, 16, 2, 1, false>>("one, 512 x 16");
        try_row<production_subtiles<Key, value_t, 2, 256, 16, 2, 1, false>>("two, 256 x 16");
        try_row<production_subtiles<Key, value_t, 2, 256, 20, 2, 1, false>>("two, 256 x 20");
        try_row<production_subtiles<Key, value_t, 1, 256, 16, 2, 1, false>>("one, 256 x 16 (small)");
        try_row<production_subtiles<Key, value_t, 1, 512, 12, 2, 1, false>>("one, 512 x 12");
        try_row<production_subtiles<Key, value_t, 1, 384, 16, 2, 1, false>>("one, 384 x 16");
      }
    } else if constexpr (Pairs && sizeof(Key) == 4) {  // 8-byte values; production: two of 256 x 16 in clusters
      try_cub();
      for (int round = 0; round < 2; ++round) {
        try_row<tuning::default_radix_sort_tuning<Key, value_t>>("onepass (production row)");
        try_row<void>("onepass (public call)");
        try_row<production_subtiles<Key, value_t, 2, 256, 16, 2, 1, false>>("production shape, no clusters");
        try_row<production_subtiles<Key, value_t, 1, 512, 16, 2, 1, false>>("one, 512 x 16");
        try_row<production_subtiles<Key, value_t, 1, 512, 12, 2, 1, false>>("one, 512 x 12");
        try_row<production_subtiles<Key, value_t, 1, 384, 16, 2, 1, false>>("one, 384 x 16");
        try_row<production_subtiles<Key, value_t, 2, 256, 12, 2, 1, false>>("two, 256 x 12");
        try_row<production_subtiles<Key, value_t, 1, 256, 16, 2, 1, false>>("one, 256 x 16 (small)");
      }
    } else if constexpr (Pairs && sizeof(Key) == 8) {  // production: one of 384 x 16 in clusters
      try_cub();
      for (int round = 0; round < 2; ++round) {
        try_row<tuning::default_radix_sort_tuning<Key, value_t>>("onepass (production row)");
        try_row<void>("onepass (public call)");
        try_row<production_subtiles<Key, value_t, 1, 384, 16, 2, 1, false>>("production shape, no clusters");
        try_row<production_subtiles<Key, value_t, 1, 512, 16, 2, 1, false>>("one, 512 x 16");
        try_row<production_subtiles<Key, value_t, 1, 512, 12, 2, 1, false>>("one, 512 x 12");
        try_row<production_subtiles<Key, value_t, 1, 384, 12, 2, 1, false>>("one, 384 x 12");
        try_row<production_subtiles<Key, value_t, 1, 256, 16, 2, 1, false>>("one, 256 x 16 (small)");
      }
    } else {
      std::printf("  (no mid rows for this sort)\n");
    }
  }

  // Keys alone: shapes near production's, all with its L2 prefetch (which shortens the
  // loads, so the best shape may have moved), alternated twice.
  void try_prefetch_shapes() {
    if constexpr (!Pairs) {
      try_cub();
      for (int round = 0; round < 2; ++round) {
        try_row<tuning::default_radix_sort_tuning<Key, detail::keys_only>>("onepass (production row)");
        if constexpr (sizeof(Key) == 4) {
          try_row<prefetching<row<384, 32, 2, 2, staged, true, 2, 32, 1, 1024, 32>>>("384 x 32, w 2, g 2, prefetch");
          try_row<prefetching<row<384, 32, 8, 2, staged, true, 2, 32, 1, 1024, 32>>>("384 x 32, w 8, g 2, prefetch");
          try_row<prefetching<row<256, 32, 4, 3, staged, true, 2, 32, 1, 1024, 32>>>("256 x 32, 3 b, g 2, prefetch");
          try_row<prefetching<row<384, 28, 4, 2, staged, true, 2, 32, 1, 1024, 32>>>("384 x 28, g 2, prefetch");
          try_row<prefetching<row<512, 24, 4, 2, staged, true, 2, 32, 1, 1024, 32>>>("512 x 24, g 2, prefetch");
          try_row<prefetching<row<384, 32, 4, 2, staged, true, 4, 32, 1, 1024, 32>>>("384 x 32, g 4, prefetch");
        } else {
          try_row<prefetching<row<512, 16, 4, 2, staged, true, 2>>>("512 x 16, g 2, prefetch");
          try_row<prefetching<row<512, 16, 2, 2>>>("512 x 16, w 2, prefetch");
          try_row<prefetching<row<512, 16, 8, 2>>>("512 x 16, w 8, prefetch");
          try_row<prefetching<row<384, 16, 4, 2>>>("384 x 16, prefetch");
          try_row<prefetching<row<512, 20, 4, 2>>>("512 x 20, prefetch");
        }
      }
    }
  }

  void try_all(bool quick) {
    try_cub();
    try_row<tuning::default_radix_sort_tuning<Key, value_t>>(
        "onepass (production row)");
    if (quick) return;
    if constexpr (Pairs) {
      // Values staged in shared memory at the load ("staged") or loaded once the keys are
      // written (the rest); tile-sorted keys over the ranking's offsets unless "keys apart".
      try_row<row<512, 16, 2, 2, staged, false>>("512 x 16, w 2, 2 b, staged (production until 2026-11-25)");
      try_row<row<512, 16, 2, 2>>("512 x 16, w 2, 2 b, staged, keys apart");
      try_row<row<384, 24, 2, 2, staged, false>>("384 x 24, w 2, 2 b, staged");
      try_row<row<384, 20, 2, 2, staged, false>>("384 x 20, w 2, 2 b, staged");
      try_row<row<512, 16, 4, 2, after_keys, false>>("512 x 16, w 4, 2 b");
      try_row<row<384, 24, 4, 2, after_keys, false>>("384 x 24, w 4, 2 b");
      try_row<row<384, 28, 2, 2, after_keys, false>>("384 x 28, w 2, 2 b");
      try_row<row<448, 20, 2, 2, after_keys, false>>("448 x 20, w 2, 2 b");
      try_row<row<320, 28, 2, 2, after_keys, false>>("320 x 28, w 2, 2 b");
      try_row<row<384, 24, 2, 2, after_keys, true>>("384 x 24, w 2, 2 b, keys apart");
      try_row<row<384, 24, 2, 2, after_keys, false, 2>>("384 x 24, w 2, 2 b, rank group 2");
      try_row<row<384, 24, 2, 2, after_keys, false, 3>>("384 x 24, w 2, 2 b, rank group 3");
      try_row<row<384, 24, 2, 2, after_keys, false, 6>>("384 x 24, w 2, 2 b, rank group 6");
      try_row<row<384, 24, 2, 2, after_keys, false, 8>>("384 x 24, w 2, 2 b, rank group 8");
    } else if constexpr (sizeof(Key) == 4) {
      try_row<row<384, 32, 4, 2, staged, false>>("384 x 32, w 4, 2 b, overlaid");
      try_row<row<384, 32, 4, 2, staged, true, 4>>("384 x 32, w 4, 2 b, rank group 4");
      try_row<row<384, 32, 4, 2, staged, true, 8>>("384 x 32, w 4, 2 b, rank group 8");
      // The production shape's lookback and histogram.
      try_row<row<384, 32, 2, 2, staged, true, 2>>("384 x 32, w 2, 2 b, g 2");
      try_row<row<384, 32, 8, 2, staged, true, 2>>("384 x 32, w 8, 2 b, g 2");
      try_row<row<384, 32, 16, 2, staged, true, 2>>("384 x 32, w 16, 2 b, g 2");
      try_row<row<384, 32, 4, 2, staged, true, 2, 0>>("384 x 32, w 4, 2 b, g 2, pause 0");
      try_row<row<384, 32, 4, 2, staged, true, 2, 128>>("384 x 32, w 4, 2 b, g 2, pause 128");
      try_row<row<384, 32, 8, 2, staged, true, 2, 128>>("384 x 32, w 8, 2 b, g 2, pause 128");
      try_row<row<384, 32, 4, 2, staged, true, 2, 32, 1, 1024, 32>>("production, histogram 32 copies");
      try_row<row<384, 32, 4, 2, staged, true, 2, 32, 4, 256, 1>>("production, histogram 1 copy");
      // Three blocks a SM (CUB's faster uint32 call runs 3 of 384 x 19 at 56 registers); the
      // rows without full-tile spills at rank group 2.
      try_row<row<256, 32, 4, 3, staged, true, 2>>("256 x 32, w 4, 3 b, rank group 2");
      try_row<row<256, 24, 4, 3, staged, true, 2>>("256 x 24, w 4, 3 b, rank group 2");
      try_row<row<384, 16, 4, 3, staged, true, 2>>("384 x 16, w 4, 3 b, rank group 2");
      try_row<row<384, 20, 4, 3, staged, true, 2>>("384 x 20, w 4, 3 b, rank group 2");
      try_row<row<256, 32, 2, 3, staged, true, 2>>("256 x 32, w 2, 3 b, rank group 2");
      try_row<row<256, 32, 8, 3, staged, true, 2>>("256 x 32, w 8, 3 b, rank group 2");
      try_row<row<512, 20, 4, 2>>("512 x 20, w 4, 2 b");
      try_row<row<512, 24, 4, 2>>("512 x 24, w 4, 2 b");
      try_row<row<384, 28, 4, 2>>("384 x 28, w 4, 2 b");
      try_row<row<384, 36, 4, 2>>("384 x 36, w 4, 2 b");
      try_row<row<384, 20, 4, 3>>("384 x 20, w 4, 3 b");
    } else {
      try_row<row<512, 16, 4, 2, staged, false>>("512 x 16, w 4, 2 b, overlaid");
      try_row<row<384, 16, 4, 2>>("384 x 16, w 4, 2 b");
      try_row<row<448, 16, 4, 2>>("448 x 16, w 4, 2 b");
      try_row<row<512, 20, 4, 2>>("512 x 20, w 4, 2 b");
      try_row<row<384, 20, 4, 2>>("384 x 20, w 4, 2 b");
      try_row<row<384, 24, 4, 2>>("384 x 24, w 4, 2 b");
      try_row<row<512, 16, 2, 2>>("512 x 16, w 2, 2 b");
      try_row<row<512, 16, 4, 2, staged, true, 2>>("512 x 16, w 4, 2 b, rank group 2");
    }
  }
};

int main(int argc, char** argv) try {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "radix_sort_tuning_sweep: no usable CUDA device\n");
    return 2;
  }
  const int log2_n = argc > 1 ? std::atoi(argv[1]) : 28;
  if (log2_n < 10 || log2_n > 30) {
    std::fprintf(stderr, "radix_sort_tuning_sweep: log2_n must be in [10, 30]\n");
    return 2;
  }
  const std::string only = argc > 2 ? argv[2] : "all";
  const std::string rows = argc > 3 ? argv[3] : "all";
  const bool quick = rows == "quick";
  if (rows != "all" && rows != "quick" && rows != "prefetch" && rows != "prefetch_shapes" && rows != "clusters" &&
      rows != "subtiles" && rows != "occupancy" && rows != "small" && rows != "mid") {
    std::fprintf(stderr, "radix_sort_tuning_sweep: the rows are all, quick, prefetch, prefetch_shapes, clusters, "
                         "subtiles, occupancy, small or mid\n");
    return 2;
  }
  if (only != "all" && only != "keys" && only != "pairs" && only != "u64" && only != "wide_pairs") {
    std::fprintf(stderr, "radix_sort_tuning_sweep: the sorts are keys, pairs, u64, wide_pairs or all\n");
    return 2;
  }
  if (only == "wide_pairs" && rows != "clusters" && rows != "subtiles" && rows != "occupancy" && rows != "small" &&
      rows != "mid") {
    std::fprintf(stderr, "radix_sort_tuning_sweep: wide_pairs runs the clusters, subtiles, occupancy, small or "
                         "mid rows only\n");
    return 2;
  }
  const long long n = 1ll << log2_n;
  cudaStream_t stream;
  ONEPASS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  bench::timer time(stream, 2, 10, bench::query_device().l2_bytes);
  int failures = 0;
  // The chosen rows on one of the sorts, its failures counted.
  const auto run_rows = [&](auto& s) {
    if (rows == "prefetch") s.try_prefetch();
    else if (rows == "prefetch_shapes") s.try_prefetch_shapes();
    else if (rows == "clusters") s.try_clusters();
    else if (rows == "subtiles") s.try_subtiles();
    else if (rows == "occupancy") s.try_occupancy();
    else if (rows == "small") s.try_small();
    else if (rows == "mid") s.try_mid();
    else s.try_all(quick);
    failures += s.failures;
  };
  if (only == "all" || only == "keys") {
    sweep<unsigned, false> s(n, time);
    run_rows(s);
  }
  if (only == "all" || only == "pairs") {
    sweep<unsigned, true> s(n, time);
    run_rows(s);
  }
  if (only == "wide_pairs") {  // 8-byte values with uint32 keys at 2^k, uint64 keys and values at 2^(k-1)
    // (the clusters, subtiles or occupancy rows only: try_all's shapes are not built for them)
    const auto run_wide_rows = [&](auto& s) {
      if (rows == "subtiles") s.try_subtiles();
      else if (rows == "occupancy") s.try_occupancy();
      else if (rows == "small") s.try_small();
      else if (rows == "mid") s.try_mid();
      else s.try_clusters();
      failures += s.failures;
    };
    {
      sweep<unsigned, true, unsigned long long> s(n, time);
      run_wide_rows(s);
    }
    if (rows == "small" || rows == "mid") {  // and uint64 keys with uint32 values at 2^(k-1)
      sweep<unsigned long long, true, unsigned> s(n / 2, time);
      run_wide_rows(s);
    }
    sweep<unsigned long long, true, unsigned long long> s(n / 2, time);
    run_wide_rows(s);
  }
  if (only == "all" || only == "u64") {
    sweep<unsigned long long, false> s(n / 2, time);
    run_rows(s);
  }
  return failures ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "radix_sort_tuning_sweep: %s\n", e.what());
  return 1;
}
