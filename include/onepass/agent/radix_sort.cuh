// onepass/agent/radix_sort.cuh — the production LSD radix sort's two kernels.
//
// A sort of bits [begin, end) is ceil((end - begin) / 8) stable counting passes over
// 8-bit digits, least significant first. Before the passes, one kernel reads the keys once
// and counts the digits of every pass (radix_histogram_kernel), and its last block turns
// the counts into where each digit's keys start in every pass's output. Each pass is then
// one kernel (radix_onesweep_kernel) that reads every key once and writes it once — the
// "onesweep" scheme (Adinets & Merrill, 2022): a tile must know, per digit, how many keys
// of that digit the tiles before it hold, and it learns that through the decoupled lookback with
// one interleaved count descriptor per digit (count_state, single_pass/tile_state.cuh)
// instead of a separate counting pass.
//
// Per tile (one per block, claimed in execution order; a block has a thread per digit,
// 0..255, and may have more that hold items only — larger tiles, fewer lookbacks):
//   1. load the tile's keys, warp-striped: item i of lane l of warp w is key
//      tile_begin + (w * ItemsPerThread + i) * 32 + l, so (w, i, l) is input order; the
//      values are copied asynchronously to shared memory (cp.async) or loaded once the
//      keys are written (the production 4-byte pairs), so they hold no registers through
//      the ranking (tuning::radix_value_load);
//   2. each warp counts its keys per digit in shared memory;
//   3. thread d (one per digit) sums the warps' counts of digit d and publishes the tile's
//      count (AGGREGATE) at once — before the expensive ranking, so successors find it
//      early (CUB's "early counts"); a block scan over digits gives where each digit
//      starts in the tile, and each warp's counts become where its keys of d start;
//   4. rank: per warp, item by item, lanes with the same digit find each other (one
//      ballot per digit bit, warp_match_digit); the lowest such lane advances the warp's
//      offset of that digit — each key's position in the tile-sorted order, stable;
//   5. the keys are placed in shared memory in tile-sorted order — more work between
//      publishing and looking back, so predecessors have had longer to publish PREFIXes.
//      With keys_apart (the tuning; keys alone) they have shared memory of their own and
//      each is stored as soon as it is ranked: neither keys nor positions stay in
//      registers, which is what let the tiles grow (docs/perf/radix_sort.md);
//   6. thread d looks back for the count of digit d in all earlier tiles, Window
//      descriptors at a time (lookback_counts), and publishes the inclusive count;
//   7. the keys are written out by consecutive threads to consecutive positions of each
//      digit's run; values follow through the same shared memory.
// With tuning.onesweep_subtiles = 2 (the production 4-byte pairs) a block takes a tile of
// two sub-tiles, ranks them one after the other with one sub-tile's registers, and writes
// them out as one tile in step 7 (process_two_subtiles below): each digit's runs in the
// output are twice as long.
// A pass in which every key has the same digit (the histogram says so: one digit counts
// all n keys) skips steps 1-7: the first blocks copy the keys (and values) as they are.
// Descriptors are count_state words (status and a 30-bit count in 32 bits). Every tile but
// a portion's last is full and runs a copy of steps 1-7 without bounds checks.
// Inputs longer than a "portion" (2^28 keys) are sorted a portion per launch within each
// pass, so descriptor counts stay within 30 bits. Where a digit's keys of portion q start cannot
// come from the up-front histogram (it counts the original array's portions, but pass
// p > 0 reads a permutation of it): the block holding a portion's last tile writes each
// digit's start for the next portion (its own start plus the portion's count), and the
// next launch, ordered after it on the stream, reads that.
//
// The pieces: agent/radix_common.cuh (digits, passes, ranking primitives, layouts),
// agent/radix_histogram.cuh (the histogram kernel), agent/radix_onesweep.cuh (a pass).
#pragma once

#include "onepass/agent/radix_histogram.cuh"
#include "onepass/agent/radix_onesweep.cuh"
