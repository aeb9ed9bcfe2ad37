// onepass/tuning/radix_sort_tuning.cuh — shapes of the production radix sort, as data.
//
// The onesweep kernel has a thread per digit (256, 8-bit digits) and possibly more that
// hold items only; a tile is block_threads * items_per_thread keys. Larger tiles mean
// fewer descriptors to clear and fewer lookbacks per key; more items per thread mean more
// registers (keys, digits and positions stay in registers from the load to the scatter).
// Chosen with bench/radix_sort_tuning_sweep (docs/perf/radix_sort.md).
#pragma once

#include <cstddef>
#include <type_traits>

namespace onepass::tuning {

// Where a pass's values wait while their keys are ranked (pairs only).
enum class radix_value_load {
  with_keys,        // loaded with the keys, held in registers until the scatter
  async_to_shared,  // copied to shared memory with cp.async at the key load: no registers
                    // (4- and 8-byte values that fit; others fall back to with_keys)
  after_keys,       // loaded once the keys are written out, as CUB's Onesweep does
};

// The kernels' shapes: tiles, occupancy, clusters, lookback windows, and the shapes of the small, tiny and medium sorts.
struct radix_sort_shape {
  int onesweep_items_per_thread;
  int histogram_block_threads;
  // Histogram blocks per SM and portion: enough to keep every SM's loads in flight.
  int histogram_blocks_per_sm;
  // Keys per onesweep launch: descriptor counts are 30-bit, and the descriptors of one
  // portion's tiles are cleared before each launch.
  long long portion_items;
  // Descriptors each onesweep lookback step reads at once (lookback_window); 1 walks back
  // one tile per memory latency.
  int lookback_window = 4;
  // The lookback's first pause after finding a predecessor not yet published (ns).
  unsigned lookback_first_pause_ns = 32;
  // Ranking: items whose warp matches (ballots) are computed together before their
  // offset updates; divides the items per thread.
  int rank_group = 4;
  // Onesweep blocks that must fit on one SM by registers (__launch_bounds__'s minimum):
  // caps the registers at 65536 / (block threads * this). Left to itself the compiler's choice
  // swings between 64 and 123 registers with small changes to the kernel.
  int onesweep_min_blocks_per_sm = 3;
  // Onesweep threads per block: one per digit (256), or more, the rest holding items only
  // — larger tiles (fewer lookbacks, longer runs per digit in the output) without more
  // registers per thread.
  int onesweep_block_threads = 256;
  // Copies of each histogram counter (1-32, a power of two; lane l adds to copy l % copies,
  // in its own bank): the counters take max passes * 256 * copies * 4 bytes of shared
  // memory a histogram block.
  int histogram_counter_copies = 1;
  // Onesweep blocks launched as thread-block clusters of this many (1 or 2; clusters need
  // sm_90, elsewhere the launch is plain), which the GPU schedules together on one GPC.
  // cluster_write_together: a cluster barrier before the scatter, so that the cluster's
  // blocks write their tiles out at the same time.
  int onesweep_cluster_blocks = 1;
  // Sub-tiles a onesweep block ranks one after the other and writes out as one tile (1 or
  // 2): with 2, each digit's runs in the output are twice as long at the same registers a
  // thread — the first sub-tile's keys are read twice (the second time from L2) and every
  // item's position waits in 16 bits. The tile-sorted keys are then always apart from the
  // ranking's offsets (keys_apart is not read) and values are loaded into registers, not
  // staged (value_load is not read; when: values_before_keys_out); a tile holds at most
  // 65536 items.
  int onesweep_subtiles = 1;
  int small_sort_block_threads = 256;
  int small_sort_items_per_thread = 16;
  int tiny_sort_items_per_thread = 8;
  int medium_sort_block_threads = 512;
  int medium_sort_items_per_thread = 16;
};

// Which kernel variant and which shape a sort runs, and what it asks of the memory system.
struct radix_sort_choice {
  radix_value_load value_load = radix_value_load::async_to_shared;
  // The tile-sorted keys in shared memory of their own, rather than over the ranking's
  // per-warp digit offsets: each key is stored as soon as it is ranked, so neither the
  // keys nor their positions stay in registers past the ranking, and one barrier goes.
  // Costs shared memory: warps * 1 KiB a block for keys alone, a whole tile of keys with
  // values (which then take the offsets' place).
  bool keys_apart = true;
  // How far ahead of its own tile a onesweep block asks L2 to prefetch the keys (and
  // values) of a later tile, in bytes of keys, rounded down to whole tiles; 0 = none. Only
  // with 16-byte aligned keys (values: aligned ones only) in a portion of at least
  // l2_prefetch_min_input_bytes of keys.
  long long l2_prefetch_bytes = 0;
  long long l2_prefetch_min_input_bytes = 0;
  bool cluster_write_together = false;
  // With two sub-tiles and values: the first sub-tile's values are loaded into registers
  // before the keys go out (their loads fly meanwhile) instead of after. Measured at 2^28
  // (docs/perf/radix_sort.md, "Values loaded before the keys go out"): with 4-byte values
  // a gain on one sm_90 part and level to a small loss on another; with 8-byte values a
  // gain on one and a loss on the other, so 4-byte values only.
  bool values_before_keys_out = false;
  // Small sorts: the public calls sort at most small_sort_max_items keys (0: none) with
  // this tuning's shape changed to one sub-tile of small_sort_block_threads x
  // small_sort_items_per_thread a onesweep block, launched plain (radix_small_sort_tuning
  // below). Large tiles leave most SMs idle there: at 2^16 uint32 pairs two sub-tiles of
  // 384 x 20 are 5 blocks for 132 SMs, each pass one tile's whole life.
  long long small_sort_max_items = 0;
  // Tiny sorts: at most tiny_sort_max_items keys (0: none; at most small_sort_max_items)
  // run the small shape with tiny_sort_items_per_thread items a thread instead
  // (radix_tiny_sort_tuning below): half the tile again, twice the blocks.
  long long tiny_sort_max_items = 0;
  // Medium sorts: more than small_sort_max_items keys and at most medium_sort_max_items (0:
  // none) run one sub-tile of medium_sort_block_threads x medium_sort_items_per_thread a
  // block, launched plain (radix_medium_sort_tuning below): at 2^21 uint32 pairs 8192-item
  // tiles are one full wave of two blocks a SM on 132 SMs where production's 15,360 are
  // half of one.
  long long medium_sort_max_items = 0;
  // Sorts of at most plain_sort_max_items (0: none) past the medium-sort switch, on GPUs
  // whose peak DRAM bandwidth (memory clock x bus width) is above plain_sort_min_dram_gbps,
  // run this shape launched plain: no clusters and no cluster barrier. (On the higher-
  // bandwidth part measured, clusters pay only for the largest pair sorts; on the lower-
  // bandwidth one they were measured at 2^27-2^28 only.)
  long long plain_sort_max_items = 0;
  int plain_sort_min_dram_gbps = 0;
};

// A row of the table: a shape and a choice, each field read by its name.
struct radix_sort_tuning : radix_sort_shape, radix_sort_choice {
  constexpr int onesweep_tile_items() const {
    return onesweep_block_threads * onesweep_items_per_thread * onesweep_subtiles;
  }
};

// Measured on sm_90 (docs/perf/radix_sort.md): large tiles win — fewer lookbacks per
// key, longer runs per digit in the output — so blocks have more threads than digits, two
// per SM. Keys alone have their tile-sorted keys apart from the ranking's offsets (placed
// as they are ranked, which freed the registers for larger tiles): 4-byte keys 384 x 32
// ranked 2 items at a time (faster than 4 on both parts measured, and no spills), 8-byte
// keys 512 x 16 ranked 4 at a time (2 was faster on one part and slower on the other;
// "Rank group 2 for 4-byte keys, adopted"). Pairs keep the keys over the offsets (apart
// gained nothing measurable, and it would push 8-byte staged values past the staging
// limit) and a 2-descriptor lookback window: 4-byte pairs 384 x 24 with the values loaded
// once the keys are written (faster than 512 x 16 with them staged in shared memory, whose
// tile is smaller; until two sub-tiles, below); 8-byte keys or values 384 x 16, staged.
// Pairs run their onesweep blocks in clusters of two that start their scatters together
// (a cluster barrier): a clear gain for pairs on the lower-bandwidth sm_90 part measured,
// about level on the higher-bandwidth one; keys alone, 8-byte keys most, lost that way
// (docs/perf/radix_sort.md, "Clusters"). Since two sub-tiles, on a GPU with more DRAM
// bandwidth the same shape launched plain is faster up to 2^25 pairs (plain_sort_max_items),
// so above 2^25 clusters stay. GPUs of less peak DRAM bandwidth than
// radix_plain_sort_min_dram_gbps, a threshold between the two sm_90 parts measured, keep
// clusters at every size: they were measured there at 2^27-2^28 only
// (docs/perf/radix_sort.md, "Plain launches up to 2^25 pairs").
// Pairs with 4-byte keys then rank two sub-tiles a block and write them out as one tile
// (runs twice as long at the same registers; values loaded after the keys): with 4-byte
// values two of 384 x 20, faster than one of 384 x 24 on both parts measured; with 8-byte
// values two of 256 x 16, faster than one of 384 x 16 staged. 8-byte keys with 8-byte
// values stay at one (two of 256 x 16: slower on one part, faster on the other), and so do
// keys alone (two sub-tiles slower) (docs/perf/radix_sort.md, "Two sub-tiles").
// The histogram kernel's counters in 32 (4-byte keys) or 16 (8-byte) copies, one a bank:
// a warp's adds fall in distinct banks whatever the digits, which beat one counter a digit
// clearly (docs/perf/radix_sort.md, "counters in copies"). With 3 instructions a key and
// pass around each atomic it reads 4-byte keys close to DRAM's rate (docs/perf/
// radix_sort.md, "The histogram kernel was bound by the instructions around its atomics").
// Keys alone ask L2 for the keys 1 MiB ahead of each onesweep tile (faster at the largest
// sizes and never slower at the smaller ones measured, so at every size). Pairs do not:
// with the values prefetched too, the lower-bandwidth part lost at every distance, and
// with the keys alone it still lost (docs/perf/radix_sort.md, "The L2 prefetch for keys
// alone").
inline constexpr long long radix_keys_l2_prefetch_bytes = 1ll << 20;

// Small sorts (small_sort_max_items) run one sub-tile of 256 x 16 a block, plain launches;
// tiny ones (tiny_sort_max_items) 256 x 8: production's large tiles leave most SMs idle
// there. Every sort's switches are where 256 x 16 stops beating production and 256 x 8
// stops beating 256 x 16, measured with radix_sort_tuning_sweep at each power of two
// (docs/perf/radix_sort.md, "Small sorts" and "Tiny sorts and 8-byte pairs"): 256 x 16 up
// to 2^21 keys for 4-byte keys alone, 2^19 for 8-byte keys alone, 2^20 for pairs of 4-byte
// keys (2^19 with 4-byte values: medium sorts below), 2^21 for pairs of 8-byte keys (4- or
// 8-byte values alike); 256 x 8 up to 2^17 for 4-byte keys (level with 256 x 16 at 2^18)
// and 2^18 for 8-byte keys (still faster there).
// Medium sorts (medium_sort_max_items) run one sub-tile of 512 x 16, plain launches: between
// where the small shape stops paying and where production's tiles fill the GPU. 4-byte
// pairs take 256 x 16 up to 2^19 and 512 x 16 up to 2^23, measured with
// radix_sort_tuning_sweep at each power of two (docs/perf/radix_sort.md, "Medium sorts");
// the other sorts have no medium shape (uint64 keys with uint32 values gained at 2^21 only,
// with uint64 values they lost; 4-byte keys with 8-byte values were not measured, being
// ahead of CUB at 2^21 already).
inline constexpr long long radix_small_sort_max_items_4byte_keys = 1ll << 21;
inline constexpr long long radix_small_sort_max_items_8byte_keys = 1ll << 19;
inline constexpr long long radix_small_sort_max_items_4byte_pairs = 1ll << 19;  // 4-byte keys and values
inline constexpr long long radix_medium_sort_max_items_4byte_pairs = 1ll << 23;
inline constexpr long long radix_small_sort_max_items_4byte_keys_8byte_values = 1ll << 20;
inline constexpr long long radix_small_sort_max_items_8byte_keys_with_values = 1ll << 21;
inline constexpr long long radix_plain_sort_max_items_pairs = 1ll << 25;
inline constexpr int radix_plain_sort_min_dram_gbps = 4000;
inline constexpr long long radix_tiny_sort_max_items_4byte_keys = 1ll << 17;
inline constexpr long long radix_tiny_sort_max_items_8byte_keys = 1ll << 18;

constexpr radix_sort_tuning radix_sort_tuning_for(std::size_t key_bytes, std::size_t value_bytes) {
  constexpr auto staged = radix_value_load::async_to_shared;
  constexpr auto after_keys = radix_value_load::after_keys;
  const bool wide = key_bytes > 4 || value_bytes > 4;
  // The histogram (keys only, so the same for pairs): one block of 1024 threads a SM with
  // 128 KiB of counter copies, 32 of each counter for 4 passes, 16 for 8.
  const int copies = key_bytes > 4 ? 16 : 32;
  radix_sort_tuning t{};
  t.histogram_block_threads = 1024;
  t.histogram_blocks_per_sm = 1;
  t.histogram_counter_copies = copies;
  t.portion_items = 1ll << 28;
  t.lookback_first_pause_ns = 32;
  t.onesweep_min_blocks_per_sm = 2;
  if (value_bytes == 0) {
    radix_sort_tuning keys = t;
    keys.onesweep_items_per_thread = wide ? 16 : 32;
    keys.lookback_window = 4;
    keys.rank_group = wide ? 4 : 2;
    keys.value_load = staged;
    keys.onesweep_block_threads = wide ? 512 : 384;
    keys.keys_apart = true;
    keys.l2_prefetch_bytes = radix_keys_l2_prefetch_bytes;
    keys.small_sort_max_items = wide ? radix_small_sort_max_items_8byte_keys : radix_small_sort_max_items_4byte_keys;
    keys.tiny_sort_max_items =
        key_bytes > 4 ? radix_tiny_sort_max_items_8byte_keys : radix_tiny_sort_max_items_4byte_keys;
    return keys;
  }
  radix_sort_tuning pairs = t;
  pairs.onesweep_items_per_thread = wide ? 16 : 20;
  pairs.lookback_window = 2;
  pairs.rank_group = 4;
  pairs.value_load = wide ? staged : after_keys;
  pairs.onesweep_block_threads = 384;
  pairs.keys_apart = false;
  pairs.onesweep_cluster_blocks = 2;
  pairs.cluster_write_together = true;
  pairs.plain_sort_max_items = radix_plain_sort_max_items_pairs;
  pairs.plain_sort_min_dram_gbps = radix_plain_sort_min_dram_gbps;
  if (key_bytes == 4) {  // two sub-tiles: 384 x 20 with 4-byte values, 256 x 16 with 8-byte ones
    pairs.onesweep_subtiles = 2;
    pairs.onesweep_block_threads = value_bytes > 4 ? 256 : 384;
    pairs.values_before_keys_out = value_bytes == 4;
  }
  pairs.small_sort_max_items = key_bytes > 4     ? radix_small_sort_max_items_8byte_keys_with_values
                               : value_bytes > 4 ? radix_small_sort_max_items_4byte_keys_8byte_values
                                                 : radix_small_sort_max_items_4byte_pairs;
  if (!wide) pairs.medium_sort_max_items = radix_medium_sort_max_items_4byte_pairs;  // 4-byte keys and values
  pairs.tiny_sort_max_items =
      key_bytes > 4 ? radix_tiny_sort_max_items_8byte_keys : radix_tiny_sort_max_items_4byte_keys;
  return pairs;
}

// A tuning's own shape launched plain (no clusters, no cluster barrier); itself with no
// tiny-, small-, medium- or plain-sort switch.
constexpr radix_sort_tuning radix_plain_shape(radix_sort_tuning t) {
  t.onesweep_cluster_blocks = 1;
  t.cluster_write_together = false;
  t.small_sort_max_items = 0;
  t.tiny_sort_max_items = 0;
  t.medium_sort_max_items = 0;
  t.plain_sort_max_items = 0;
  return t;
}

// A tuning's shape for smaller inputs: one sub-tile of `threads` x `items`, registers for
// two blocks a SM, everything else as its plain shape's.
constexpr radix_sort_tuning radix_small_shape(radix_sort_tuning t, int threads, int items) {
  t = radix_plain_shape(t);
  t.onesweep_subtiles = 1;
  t.onesweep_block_threads = threads;
  t.onesweep_items_per_thread = items;
  t.onesweep_min_blocks_per_sm = 2;
  return t;
}

// Tuning's small-sort shape (small_sort_block_threads x small_sort_items_per_thread), its
// tiny-sort shape (small_sort_block_threads x tiny_sort_items_per_thread), its
// medium-sort shape (medium_sort_block_threads x medium_sort_items_per_thread) and its
// plain shape (its own, launched plain).
template <class Tuning>
struct radix_small_sort_tuning {
  static constexpr radix_sort_tuning value = radix_small_shape(
      Tuning::value, Tuning::value.small_sort_block_threads, Tuning::value.small_sort_items_per_thread);
};
template <class Tuning>
struct radix_tiny_sort_tuning {
  static constexpr radix_sort_tuning value = radix_small_shape(
      Tuning::value, Tuning::value.small_sort_block_threads, Tuning::value.tiny_sort_items_per_thread);
};
template <class Tuning>
struct radix_medium_sort_tuning {
  static constexpr radix_sort_tuning value = radix_small_shape(
      Tuning::value, Tuning::value.medium_sort_block_threads, Tuning::value.medium_sort_items_per_thread);
};
template <class Tuning>
struct radix_plain_sort_tuning {
  static constexpr radix_sort_tuning value = radix_plain_shape(Tuning::value);
};

// Whether the public calls sort n items of tuning `t` with its plain shape on a GPU whose
// peak DRAM bandwidth is dram_gbps (0: not known; then never, as plain_sort_min_dram_gbps
// is never negative).
constexpr bool radix_sorts_plain(const radix_sort_tuning& t, long long n, long long dram_gbps) {
  return n <= t.plain_sort_max_items && dram_gbps > t.plain_sort_min_dram_gbps;
}

template <class Key, class Value>
struct default_radix_sort_tuning {
  static constexpr radix_sort_tuning value =
      radix_sort_tuning_for(sizeof(Key), std::is_empty_v<Value> ? 0 : sizeof(Value));
};

}  // namespace onepass::tuning
