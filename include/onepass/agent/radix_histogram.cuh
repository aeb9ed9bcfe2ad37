// onepass/agent/radix_histogram.cuh — the radix sort's up-front histogram: one read of
// the keys counts the digits of every pass (agent/radix_sort.cuh says how the sort runs).
#pragma once

#include "onepass/agent/radix_common.cuh"

namespace onepass::detail {

// Counts, for every pass, how many keys have each digit: hist[pass * 256 + digit] +=
// count (hist zeroed beforehand). Grid: (blocks per portion, portions) to spread the
// work; each block strides over its portion. Each thread keeps Unroll 16-byte loads in
// flight (4 or 2 keys each) when the portion starts 16-byte aligned: with 4-byte loads
// the kernel ran at a fraction of the read bandwidth, held back by too few bytes in flight
// per SM, and behind CUB's (docs/perf/radix_sort.md, "Second round"). Unaligned inputs
// and the tail go one key per load.
// Plain shared-memory atomics: testing each warp for a shared digit first
// (__match_all_sync, so that constant inputs add 32 at once) made the kernel twice as slow
// on random keys; constant inputs, whose adds meet on one address, run as fast as random
// ones (measured at 2^24).
// Copies: each digit's counter exists Copies times, interleaved, and lane l adds to copy
// l % Copies, which sits in bank l % 32 whatever the digit (Copies = 32: no bank conflicts
// between a warp's adds; 16: at most two-way). With one counter a digit, a warp's 32 adds
// to random digits met in the same banks, and counting 4 passes fell well short of the
// read bandwidth where 1 or 2 passes reached it (docs/perf/radix_sort.md, "counters in
// copies"). The counters take
// radix_histogram_shared_bytes<MaxPasses, Copies> of dynamic shared memory.
template <int MaxPasses, int Copies>
inline constexpr int radix_histogram_shared_bytes =
    MaxPasses * radix_digits * Copies * static_cast<int>(sizeof(unsigned));

// The last block to finish (`blocks_done`, zeroed beforehand, counts them) also turns every
// pass's counts into where each digit's keys start in that pass's output — starts[pass *
// 256 + digit], the sum of the smaller digits' counts — which the onesweep kernel's first
// portion reads; every tile used to scan the 256 totals itself.
template <class Key, int BlockThreads, int MaxPasses, int Copies, int Unroll = 4>
__global__ void __launch_bounds__(BlockThreads)
    radix_histogram_kernel(const Key* keys, index_t n, index_t portion_items, int begin_bit, int end_bit,
                           bool descending, unsigned long long* hist, unsigned* blocks_done, index_t* starts) {
  static_assert(BlockThreads >= radix_digits, "the histogram block has a thread per digit at least");
  static_assert(Copies >= 1 && Copies <= 32 && (Copies & (Copies - 1)) == 0, "1, 2, 4, ... 32 copies a counter");
  // counts[(pass * 256 + digit) * Copies + copy]
  extern __shared__ unsigned counts[];  // radix_histogram_shared_bytes<MaxPasses, Copies>
  __shared__ typename block_scan<index_t, BlockThreads>::storage scan;
  __shared__ bool last_block;
  for (int i = threadIdx.x; i < MaxPasses * radix_digits * Copies; i += BlockThreads) counts[i] = 0;
  __syncthreads();
  using bits_t = typename radix_key<Key>::bits_type;
  const int passes = radix_pass_count(begin_bit, end_bit);
  // Integer keys are counted by their own bits: their ordered pattern is the bits XOR a
  // constant (ordered_bits of key 0: the sign bit of a signed key, every bit of a
  // descending sort), so an ordered digit's count is that of the raw digit XOR the
  // constant's, and the sums below read it from there. Floating-point keys are ordered
  // key by key.
  constexpr bool raw_bits = std::is_integral_v<Key>;
  const auto key_bits = [&](Key k) -> bits_t {
    if constexpr (raw_bits)
      return static_cast<bits_t>(k);
    else
      return ordered_bits(k, descending);
  };
  // Counter (pass, digit) of this lane's copy, as a shared-memory address: the pass and
  // the digit are an immediate offset and one shift-add from the lane's base, and each add
  // is a single reduction (red.shared); through a generic pointer the compiler rebuilt
  // the shared window's address for every add (10 instructions a key and pass).
  constexpr unsigned digit_stride = Copies * sizeof(unsigned);
  constexpr unsigned pass_stride = radix_digits * digit_stride;
  const unsigned my_copy = static_cast<unsigned>(__cvta_generic_to_shared(counts)) +
                           static_cast<unsigned>(lane_id() & (Copies - 1)) * static_cast<unsigned>(sizeof(unsigned));
  const auto add_one = [](unsigned address) {
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(address) : "memory");
  };
  // Any bit range: a digit is a shift and a mask, and pass p counts only if p < passes.
  const auto count = [&](bits_t bits) {
#pragma unroll
    for (int p = 0; p < MaxPasses; ++p) {
      if (p < passes) {
        const radix_pass pass = radix_pass_of(begin_bit, end_bit, p);
        add_one(my_copy + p * pass_stride + radix_digit(bits, pass.shift, pass.bits) * digit_stride);
      }
    }
  };
  // Every bit of the key (MaxPasses whole bytes): pass p's digit is byte p, one byte
  // permute; no test of p.
  const auto count_bytes = [&](bits_t bits) {
#pragma unroll
    for (int p = 0; p < MaxPasses; ++p) {
      const auto word = static_cast<unsigned>(bits >> (p / 4 * 32));
      add_one(my_copy + p * pass_stride + __byte_perm(word, 0u, 0x4440u | (p % 4)) * digit_stride);
    }
  };
  const bool whole_bytes = begin_bit == 0 && end_bit == radix_key<Key>::bits && passes == MaxPasses;

  const index_t portion_begin = static_cast<index_t>(blockIdx.y) * portion_items;
  const index_t items = portion_begin + portion_items < n ? portion_items : n - portion_begin;
  const Key* portion = keys + portion_begin;
  const index_t stride = static_cast<index_t>(gridDim.x) * BlockThreads;
  const index_t first = static_cast<index_t>(blockIdx.x) * BlockThreads + threadIdx.x;

  using vector_t = uint4;
  constexpr int per_vector = static_cast<int>(sizeof(vector_t) / sizeof(Key));
  const bool aligned = reinterpret_cast<std::uintptr_t>(portion) % sizeof(vector_t) == 0;
  const index_t vectors = aligned ? items / per_vector : 0;
  const auto* portion_vectors = reinterpret_cast<const vector_t*>(portion);
  // The vectors, counted by `count_key` (count or count_bytes, chosen once, not per key).
  const auto count_vectors = [&](const auto& count_key) {
    for (index_t base = first; base < vectors; base += Unroll * stride) {
      vector_t loaded[Unroll];
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        if (base + u * stride < vectors) loaded[u] = portion_vectors[base + u * stride];
#pragma unroll
      for (int u = 0; u < Unroll; ++u) {
        if (base + u * stride < vectors) {
          Key k[per_vector];
          memcpy(k, &loaded[u], sizeof(vector_t));
#pragma unroll
          for (int j = 0; j < per_vector; ++j) count_key(key_bits(k[j]));
        }
      }
    }
  };
  if (whole_bytes)
    count_vectors(count_bytes);
  else
    count_vectors(count);
  // The keys no vector covered: all of an unaligned portion, else fewer than per_vector.
  for (index_t i = vectors * per_vector + first; i < items; i += stride) count(key_bits(portion[i]));
  __syncthreads();
  // Counter i's copies, read from copy (k + lane) % Copies on: with 32 copies the warp's
  // reads then fall in distinct banks (each counter's copies share a row of 32 words);
  // with 16, at most two lanes share a bank. For integer keys, ordered digit d of pass p
  // was counted as raw digit d XOR the order's digit (key_bits above).
  const bits_t order = ordered_bits(Key{}, descending);
  for (int i = threadIdx.x; i < passes * radix_digits; i += BlockThreads) {
    int counter = i;
    if constexpr (raw_bits) {
      const int p = i / radix_digits;
      const radix_pass pass = radix_pass_of(begin_bit, end_bit, p);
      counter = p * radix_digits + static_cast<int>((i % radix_digits) ^ radix_digit(order, pass.shift, pass.bits));
    }
    unsigned c = 0;
#pragma unroll
    for (int k = 0; k < Copies; ++k) c += counts[counter * Copies + ((k + lane_id()) & (Copies - 1))];
    if (c != 0) atomicAdd(&hist[i], c);
  }

  // The block's adds, then the count of finished blocks (released at device scope: the
  // barrier orders every thread's adds before thread 0's release). The block that finishes
  // last sees every add (acquire) and computes the starts.
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> done(*blocks_done);
    last_block = done.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x * gridDim.y - 1;
  }
  __syncthreads();
  if (!last_block) return;
  const int d = threadIdx.x;
  for (int p = 0; p < passes; ++p) {
    index_t count = 0;
    if (d < radix_digits) {
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> total(hist[p * radix_digits + d]);
      count = static_cast<index_t>(total.load(cuda::memory_order_relaxed));
    }
    index_t smaller = 0, all;
    block_scan<index_t, BlockThreads>(scan).exclusive_prefix(count, plus{}, smaller, all);
    if (d < radix_digits) starts[p * radix_digits + d] = smaller;
    __syncthreads();  // the scan's storage is reused by the next pass
  }
}

}  // namespace onepass::detail
