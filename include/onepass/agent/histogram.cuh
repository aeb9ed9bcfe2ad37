// onepass/agent/histogram.cuh — the production histogram's kernels: each block counts an
// even share of the samples into counters of its own, then adds them to the caller's
// counts, which a one-block kernel launched just before has zeroed.
//
// Where a block counts (tuning/histogram_tuning.cuh says why):
//   columns: shared memory, counter (bin, lane) at word bin * 32 + lane. Every lane owns a
//            bank, so one warp's 32 increments never conflict, whatever the samples are.
//   shared:  shared memory, one counter per bin.
//   global:  no private counters: atomics on the counts themselves.
// A block's counters are 32-bit; the dispatcher gives every block fewer than 2^31 samples.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "onepass/detail/config.cuh"
#include "onepass/detail/histogram_bins.cuh"
#include "onepass/detail/launch.cuh"

namespace onepass::detail {

enum class histogram_layout { columns, shared, global };

// Even bins for integer samples in 32-bit arithmetic, when the lower level is a value the
// sample type holds and the bin width is a power of two below 2^32 (the natural levels
// of every integer type, e.g. 256 bins over [0, 256) for uint8, are): the bin is then
// (s - lower) >> shift. make_shift_bins says whether it applies. `Total`: the levels
// cover every value of the type, so no sample is out of range and none is checked.
template <class Sample, bool Total>
struct shift_bins {
  static constexpr bool always_counted = Total;
  unsigned lower;  // as a 32-bit pattern: (s - lower) mod 2^32 is the offset
  unsigned last;   // the largest counted offset: min(upper, Sample's max + 1) - lower - 1
  unsigned shift;

  ONEPASS_HD ONEPASS_FORCEINLINE int operator()(Sample s) const {
    // For any s of the type, a sample below `lower` wraps to an offset above `last`: the
    // counted range [lower, lower + last] and the type's values below `lower` together
    // span at most 2^32 values.
    const unsigned x = static_cast<unsigned>(static_cast<int>(s)) - lower;
    if constexpr (Total) return static_cast<int>(x >> shift);
    return x <= last ? static_cast<int>(x >> shift) : -1;
  }
};

// Whether e has a shift form, and whether that form is Total.
template <class Sample>
bool make_shift_bins(const even_bins<Sample>& e, shift_bins<Sample, false>& out, bool& total) {
  if constexpr (std::is_floating_point_v<Sample>) {
    return false;
  } else {
    constexpr long long lowest = std::numeric_limits<Sample>::min();
    constexpr long long past_highest = static_cast<long long>(std::numeric_limits<Sample>::max()) + 1;
    if (e.shift < 0 || e.shift >= 32 || e.lower < lowest || e.lower >= past_highest) return false;
    const long long upper = e.lower + static_cast<long long>(e.range);
    const long long end = upper < past_highest ? upper : past_highest;
    out = {static_cast<unsigned>(e.lower), static_cast<unsigned>(end - e.lower - 1), static_cast<unsigned>(e.shift)};
    total = e.lower == lowest && end == past_highest;
    return true;
  }
}

// Calls f(bin_of) with the fastest form of the even bins `e`: the 32-bit shift form
// where it applies, the exact general form otherwise.
template <class Sample, class F>
void with_fastest_bins(const even_bins<Sample>& e, F&& f) {
  if constexpr (!std::is_floating_point_v<Sample>) {
    shift_bins<Sample, false> fast{};
    bool total = false;
    if (make_shift_bins(e, fast, total)) {
      if (total) return f(shift_bins<Sample, true>{fast.lower, fast.last, fast.shift});
      return f(fast);
    }
  }
  f(e);
}

// Whether Bins never answers -1 (it has `static constexpr bool always_counted = true`).
template <class Bins, class = void>
struct always_counted : std::false_type {};
template <class Bins>
struct always_counted<Bins, std::void_t<decltype(Bins::always_counted)>> : std::bool_constant<Bins::always_counted> {};

#if defined(__CUDACC__)
// counts[b] += v for the 32- and 64-bit counter types, signed or not (two's complement
// addition is the same operation).
template <class Counter>
__device__ ONEPASS_FORCEINLINE void add_count(Counter* c, unsigned v) {
  static_assert(sizeof(Counter) == 4 || sizeof(Counter) == 8, "counters are 32 or 64 bits");
  if constexpr (sizeof(Counter) == 4) {
    atomicAdd(reinterpret_cast<unsigned*>(c), v);
  } else {
    atomicAdd(reinterpret_cast<unsigned long long*>(c), static_cast<unsigned long long>(v));
  }
}

// counts[0, bins) = 0. Launched normally before the counting kernel, which is launched
// programmatically and waits for this grid only before it adds its counts: the zeroing
// costs no launch gap.
template <class Counter>
__global__ void zero_counts_kernel(Counter* counts, int bins) {
  allow_dependent_grids();
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < bins;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    counts[i] = 0;
}

// One increment of the shared-memory counter at 32-bit shared address `address`. The
// address arithmetic stays in 32 bits (one multiply-add per sample from the bin), which
// a generic pointer into shared memory does not get.
__device__ ONEPASS_FORCEINLINE void shared_increment(unsigned address) {
  asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(address) : "memory");
}

template <class Sample, class Counter, class Bins, histogram_layout Layout, int Threads>
struct histogram_agent {
  static constexpr int per_vector = 16 / sizeof(Sample);
  static constexpr unsigned stride = Layout == histogram_layout::columns ? 32 * 4 : 4;  // bytes per bin
  unsigned private_counts;  // shared address of bin 0's counter (columns: this lane's), unused for `global`
  Counter* counts;
  Bins bin_of;
  // Samples not counted go to a spare counter past the last bin: an unconditional
  // atomic costs fewer instructions than a branch around it.
  int spare;

  __device__ ONEPASS_FORCEINLINE void count_bin(int b) const {
    if constexpr (Layout == histogram_layout::global) {
      if (b >= 0) add_count(counts + b, 1u);
    } else if constexpr (always_counted<Bins>::value) {
      shared_increment(private_counts + static_cast<unsigned>(b) * stride);
    } else {
      shared_increment(private_counts + static_cast<unsigned>(b < 0 ? spare : b) * stride);
    }
  }

  __device__ ONEPASS_FORCEINLINE void count(Sample s) const { count_bin(bin_of(s)); }

  __device__ ONEPASS_FORCEINLINE void count_vector(const uint4& v) const {
    if constexpr (sizeof(Sample) == 1 && always_counted<Bins>::value) {
      // Bytes over their whole range: lower is the type's lowest value, so the offset of
      // every byte of a word at once is w - lower (per byte: wrapping, no carries, as
      // XOR with 0x80 for int8 and nothing for uint8), and the bins are the offsets
      // shifted right, masked per byte: two operations for four samples.
      const unsigned flip = bin_of.lower & 0x80u ? 0x80808080u : 0u;
      const unsigned keep = 0x01010101u * (0xFFu >> bin_of.shift);
      const unsigned words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const unsigned b4 = ((words[k] ^ flip) >> bin_of.shift) & keep;
#pragma unroll
        for (int j = 0; j < 4; ++j) count_bin(static_cast<int>(__byte_perm(b4, 0, 0x4440 + j)));
      }
    } else {
      Sample s[per_vector];
      std::memcpy(s, &v, sizeof v);
#pragma unroll
      for (int k = 0; k < per_vector; ++k) count(s[k]);
    }
  }
};

// Each block counts vectors [begin, end) of the 16-byte-aligned body, `Vectors` loads per
// thread in flight per round; block 0 also counts the unaligned head, the last block the
// tail.
template <class Sample, class Counter, class Bins, histogram_layout Layout, int Threads, int Vectors>
__global__ void __launch_bounds__(Threads)
    histogram_kernel(const Sample* samples, index_t n, Bins bin_of, int bins, Counter* counts) {
  extern __shared__ unsigned shared_counts[];
  constexpr int per_vector = 16 / static_cast<int>(sizeof(Sample));
  constexpr int private_words_per_bin = Layout == histogram_layout::columns ? 32 : 1;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  if constexpr (Layout == histogram_layout::global) {
    wait_for_prior_grids();  // the counts are being zeroed
  } else {
    for (int i = threadIdx.x; i < (bins + 1) * private_words_per_bin; i += Threads) shared_counts[i] = 0;
    __syncthreads();
  }
  const auto private_base = static_cast<unsigned>(__cvta_generic_to_shared(shared_counts));
  const histogram_agent<Sample, Counter, Bins, Layout, Threads> agent{
      private_base + (Layout == histogram_layout::columns ? 4u * lane : 0u), counts, bin_of, bins};

  // Samples before the first 16-byte boundary, the aligned body, the rest.
  const auto address = reinterpret_cast<std::uintptr_t>(samples);
  const index_t head_items = static_cast<index_t>((16 - address % 16) % 16 / sizeof(Sample));
  const index_t head = head_items < n ? head_items : n;
  const index_t vectors = (n - head) / per_vector;
  const index_t tail = head + vectors * per_vector;
  const auto* body = reinterpret_cast<const uint4*>(samples + head);

  const index_t begin = vectors * blockIdx.x / gridDim.x, end = vectors * (blockIdx.x + 1) / gridDim.x;
  constexpr index_t round = static_cast<index_t>(Threads) * Vectors;
  index_t base = begin;
  for (; base + round <= end; base += round) {
    uint4 v[Vectors];
#pragma unroll
    for (int k = 0; k < Vectors; ++k) v[k] = __ldg(body + base + k * Threads + threadIdx.x);
#pragma unroll
    for (int k = 0; k < Vectors; ++k) agent.count_vector(v[k]);
  }
  for (index_t i = base + threadIdx.x; i < end; i += Threads) agent.count_vector(__ldg(body + i));
  if (blockIdx.x == 0)
    for (index_t i = threadIdx.x; i < head; i += Threads) agent.count(samples[i]);
  if (blockIdx.x == gridDim.x - 1)
    for (index_t i = tail + threadIdx.x; i < n; i += Threads) agent.count(samples[i]);

  if constexpr (Layout != histogram_layout::global) {
    __syncthreads();
    wait_for_prior_grids();  // the counts are being zeroed
    for (int b = threadIdx.x; b < bins; b += Threads) {
      unsigned total = 0;
      if constexpr (Layout == histogram_layout::columns) {
        // Start each thread at its own column: consecutive bins read distinct banks.
#pragma unroll 8
        for (int c = 0; c < 32; ++c) total += shared_counts[b * 32 + ((c + b) & 31)];
      } else {
        total = shared_counts[b];
      }
      if (total != 0) add_count(counts + b, total);
    }
  }
}

// Copies levels passed by value into device memory: custom boundaries travel from the
// caller's host array to the workspace inside kernel parameters, so the call needs no
// pinned memory or host synchronisation and can be captured in a graph.
template <class Level, int Count>
struct level_chunk {
  Level values[Count];
};
template <class Level, int Count>
__global__ void store_levels_kernel(level_chunk<Level, Count> chunk, int count, Level* to) {
  for (int i = threadIdx.x; i < count; i += blockDim.x) to[i] = chunk.values[i];
}
#endif

}  // namespace onepass::detail
