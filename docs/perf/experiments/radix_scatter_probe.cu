// radix_scatter_probe.cu — what does a onesweep pass's scatter cost with 2048 digits a
// tile (11-bit digits) against 256 (8-bit)? (docs/perf/radix_sort.md, "11-bit digits: the
// scatter probe", 2026-11-25, thirteenth session.)
// Not part of the build: a throwaway driver kept so that the figures can be reproduced.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o radix_scatter_probe docs/perf/experiments/radix_scatter_probe.cu
//   ./radix_scatter_probe [log2_n=28] [staged]   ("staged": the fourteenth session's modes only)
// One pass of a radix sort over the low B bits of random uint32 keys, with every tile's
// per-digit output offsets computed beforehand (no lookback, no descriptors): a block
// loads its tile, counts its digits in shared memory, places each key in tile-sorted order
// in shared memory (unstable: a shared atomic per key), then writes tile position j of
// digit d to offset[tile][d] + (j - start of d in the tile), consecutive threads on
// consecutive positions — the production kernel's step 7 ("scatter"). The same kernel
// writing tile position j to tile_begin + j ("coalesced") does the same work but writes
// whole lines: the difference is what the scattered writes cost. "filled": the scatter,
// then each run's first and last 32-byte sectors completed with filler (see `pass`).
// "merged": tiles in clusters of two blocks; block r of a pair writes both tiles' keys of
// half the digits as one run each, the other block's through distributed shared memory
// (runs twice as long, the same registers and blocks per SM).
// "staged" (2026-11-25, fourteenth session): clusters of two blocks again, but each block
// places its keys straight at their positions in the pair's merged order, half of which
// lives in the other block's shared memory (distributed shared memory stores), and each
// block then writes its half with consecutive threads on consecutive positions.
// "scatter in clusters": the scatter launched in clusters of two with a cluster barrier
// before the placement and before the writes ("no barrier": launched so, nothing else).
// "two sub-tiles a block" (pairs): a block takes two tiles and writes them as one, runs
// twice as long at the same registers per item (pass_two_subtiles below; "in clusters of
// 2": launched so, a cluster barrier before the writes).
// "pad P": every (tile, digit) run starts on a multiple of P keys of a padded output.
// Pairs move a 4-byte value (the key's input index, computed, not read) with each key.
// Every scatter output is checked: each run holds only keys of its digit, the keys' sum
// and xor are the input's, and for pairs key == input[value]. Timing: CUDA events, the L2
// flushed (a 128 MiB read) before each of 10 runs, the median. % of copy counts keys read
// and written (and values written) against cudaMemcpyAsync of the keys.
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#define CK(x)                                                              \
  do {                                                                     \
    cudaError_t e = (x);                                                   \
    if (e != cudaSuccess) {                                                \
      std::printf("%s: %s (line %d)\n", #x, cudaGetErrorString(e), __LINE__); \
      std::exit(1);                                                        \
    }                                                                      \
  } while (0)

constexpr int kMaxDigits = 2048;
bool g_staged_only = false;  // argv[2] == "staged": modes 0, 1 and 4 of the production shapes only

// counts[tile * digits + d] = keys of digit d in the tile.
__global__ void count_tiles(const unsigned* keys, long long n, int tile_items, int bits, unsigned* counts) {
  __shared__ unsigned c[kMaxDigits];
  const int digits = 1 << bits;
  for (int d = threadIdx.x; d < digits; d += blockDim.x) c[d] = 0;
  __syncthreads();
  const long long begin = static_cast<long long>(blockIdx.x) * tile_items;
  for (int j = threadIdx.x; j < tile_items && begin + j < n; j += blockDim.x)
    atomicAdd(&c[keys[begin + j] & (digits - 1)], 1u);
  __syncthreads();
  for (int d = threadIdx.x; d < digits; d += blockDim.x) counts[blockIdx.x * static_cast<long long>(digits) + d] = c[d];
}

// Shared memory, the same for every digit count so that occupancy does not differ.
template <int Threads, int Items, bool Pairs>
struct probe_shared {
  unsigned keys[Threads * Items];
  unsigned cursor[kMaxDigits];  // counts, then where each digit's next key goes in the tile
  long long base[kMaxDigits];   // output offset of tile position j of digit d: base[d] + j
  unsigned tile_start[kMaxDigits];  // where digit d starts in the tile
  unsigned sums[Threads];
  unsigned values[Pairs ? Threads * Items : 1];
};

// Mode 0 (coalesced): tile position j to tile_begin + j. 1 (scatter): to the digit's
// offset. 2 (scatter, sectors filled): as 1, then each digit's owner thread also writes
// 0xFFFFFFFF over the rest of the 32-byte sectors its run begins and ends in, so that no
// sector is left partly written by this tile (with runs padded to 8 keys that is only the
// padding; unpadded, the filler races with the neighbouring tiles' keys: timing only).
template <int Threads, int Items, bool Pairs, int Mode>
__global__ void __launch_bounds__(Threads) pass(const unsigned* keys_in, unsigned* keys_out, unsigned* values_out,
                                                const long long* offsets, int bits) {
  extern __shared__ __align__(16) unsigned char raw[];
  auto& s = *reinterpret_cast<probe_shared<Threads, Items, Pairs>*>(raw);
  constexpr int tile_items = Threads * Items;
  const int digits = 1 << bits;
  const unsigned mask = digits - 1;
  const long long tile = blockIdx.x;
  const long long tile_begin = tile * tile_items;
  for (int d = threadIdx.x; d < digits; d += Threads) s.cursor[d] = 0;
  __syncthreads();
  unsigned k[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i) k[i] = keys_in[tile_begin + i * Threads + threadIdx.x];
#pragma unroll
  for (int i = 0; i < Items; ++i) atomicAdd(&s.cursor[k[i] & mask], 1u);
  __syncthreads();
  // Exclusive scan of the digit counts: thread t owns digits [t * per, (t + 1) * per).
  const int per = digits >= Threads ? digits / Threads : 1;
  const bool owner = static_cast<int>(threadIdx.x) * per < digits;
  unsigned local = 0;
  if (owner)
    for (int q = 0; q < per; ++q) local += s.cursor[threadIdx.x * per + q];
  // Block scan of the threads' sums (Hillis-Steele: the probe's cost is not here).
  s.sums[threadIdx.x] = local;
  __syncthreads();
  for (int off = 1; off < Threads; off *= 2) {
    const unsigned v = threadIdx.x >= off ? s.sums[threadIdx.x - off] : 0;
    __syncthreads();
    s.sums[threadIdx.x] += v;
    __syncthreads();
  }
  unsigned start = s.sums[threadIdx.x] - local;
  if constexpr (Mode == 4) {
    // Staged across the cluster: the block pair's two tiles form one merged sequence M of
    // 2 x tile_items (digit-major, tile 2c's keys of a digit before tile 2c + 1's); block r
    // holds M[r * tile_items, (r + 1) * tile_items) in its `keys`. Each block places its own
    // keys straight at their M positions, in its own or the other block's shared memory,
    // then writes its half of M with consecutive threads on consecutive positions: runs
    // twice as long, written the way step 7 writes them.
    namespace cg = cooperative_groups;
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    if (owner)
      for (int q = 0; q < per; ++q) {
        const int d = threadIdx.x * per + q;
        s.tile_start[d] = start;  // s.cursor[d] still holds the count
        start += s.cursor[d];
      }
    cluster.sync();  // both blocks' starts and counts are readable
    auto* peer = cluster.map_shared_rank(&s, rank ^ 1u);
    const long long tile0 = blockIdx.x - rank;
    unsigned next[8];
    if (owner)
      for (int q = 0; q < per && q < 8; ++q) {
        const int d = threadIdx.x * per + q;
        const unsigned merged_start = s.tile_start[d] + peer->tile_start[d];
        s.base[d] = offsets[tile0 * digits + d] - merged_start;
        next[q] = merged_start + (rank == 1 ? peer->cursor[d] : 0u);
      }
    cluster.sync();  // the other block has read this block's counts
    if (owner)
      for (int q = 0; q < per && q < 8; ++q) s.cursor[threadIdx.x * per + q] = next[q];
    __syncthreads();
    auto* half0 = cluster.map_shared_rank(&s, 0);
    auto* half1 = cluster.map_shared_rank(&s, 1);
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      const unsigned m = atomicAdd(&s.cursor[k[i] & mask], 1u);
      auto* to = m < static_cast<unsigned>(tile_items) ? half0 : half1;
      const unsigned at = m < static_cast<unsigned>(tile_items) ? m : m - tile_items;
      to->keys[at] = k[i];
      if constexpr (Pairs) to->values[at] = static_cast<unsigned>(tile_begin + i * Threads + threadIdx.x);
    }
    cluster.sync();  // every key of this block's half of M has arrived
    const long long first = static_cast<long long>(rank) * tile_items;
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      const int j = i * Threads + threadIdx.x;
      const unsigned key = s.keys[j];
      const long long at = s.base[key & mask] + first + j;
      keys_out[at] = key;
      if constexpr (Pairs) values_out[at] = s.values[j];
    }
    return;
  }
  if (owner)
    for (int q = 0; q < per; ++q) {
      const int d = threadIdx.x * per + q;
      const unsigned c = s.cursor[d];
      s.base[d] = Mode != 0 ? offsets[tile * digits + d] - start : tile_begin;
      s.cursor[d] = start;
      s.tile_start[d] = start;
      start += c;
    }
  __syncthreads();
  if constexpr (Mode == 5) cooperative_groups::this_cluster().sync();  // as mode 1, in clusters (7: no barrier)
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const unsigned p = atomicAdd(&s.cursor[k[i] & mask], 1u);
    s.keys[p] = k[i];
    if constexpr (Pairs) s.values[p] = static_cast<unsigned>(tile_begin + i * Threads + threadIdx.x);
  }
  __syncthreads();
  if constexpr (Mode == 5) cooperative_groups::this_cluster().sync();
#pragma unroll
  for (int i = 0; i < (Mode == 3 ? 0 : Items); ++i) {
    const int j = i * Threads + threadIdx.x;
    const unsigned key = s.keys[j];
    const long long at = s.base[key & mask] + j;
    keys_out[at] = key;
    if constexpr (Pairs) values_out[at] = s.values[j];
  }
  if constexpr (Mode == 3) {
    // Merged: the block pair of a cluster writes tiles 2c and 2c + 1 as one tile. Block r
    // writes the merged runs of digits [r * digits / 2, (r + 1) * digits / 2), one warp a
    // digit: tile 2c's keys of d (from block 0's shared memory), then tile 2c + 1's (block
    // 1's), read through distributed shared memory.
    namespace cg = cooperative_groups;
    cg::cluster_group cluster = cg::this_cluster();
    cluster.sync();  // both tiles placed
    const unsigned rank = cluster.block_rank();
    auto* first = cluster.map_shared_rank(&s, 0);
    auto* second = cluster.map_shared_rank(&s, 1);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int half = digits / 2;
    const long long tile0 = blockIdx.x - rank;
    for (int d = static_cast<int>(rank) * half + warp; d < static_cast<int>(rank + 1) * half; d += Threads / 32) {
      const unsigned s0 = first->tile_start[d], c0 = first->cursor[d] - s0;
      const unsigned s1 = second->tile_start[d], c1 = second->cursor[d] - s1;
      const long long at = offsets[tile0 * digits + d];
      for (unsigned k = lane; k < c0 + c1; k += 32) {
        keys_out[at + k] = k < c0 ? first->keys[s0 + k] : second->keys[s1 + k - c0];
        if constexpr (Pairs) values_out[at + k] = k < c0 ? first->values[s0 + k] : second->values[s1 + k - c0];
      }
    }
    cluster.sync();  // the other block may still read this one's shared memory
    return;
  }
  if constexpr (Mode == 2) {
    if (owner)
      for (int q = 0; q < per; ++q) {
        const int d = threadIdx.x * per + q;
        if (s.cursor[d] == s.tile_start[d]) continue;  // no key of d in this tile
        const long long first = s.base[d] + s.tile_start[d], end = s.base[d] + s.cursor[d];
        for (long long i = first & ~7ll; i < first; ++i) {
          keys_out[i] = ~0u;
          if constexpr (Pairs) values_out[i] = ~0u;
        }
        for (long long i = end; i < ((end + 7) & ~7ll); ++i) {
          keys_out[i] = ~0u;
          if constexpr (Pairs) values_out[i] = ~0u;
        }
      }
  }
}

// Mode 6, "two sub-tiles a block" (pairs, at most 256 digits): block b takes tiles 2b and
// 2b + 1 as sub-tiles A and B of one tile. It counts both, computes where each digit's
// merged run starts (A's keys of d, then B's), places B's keys (still in registers) and
// then A's (loaded again) straight at their merged positions, keeping each item's
// position (16 bits a sub-tile, packed), and writes the keys with consecutive threads on
// consecutive positions, noting each position's digit. Then the values are placed at the
// kept positions in the same buffer and written the same way: values after the keys, as
// the production kernel does, with the same registers a sub-tile and runs twice as long.
template <int Threads>
struct two_shared {
  unsigned cursor_a[256], cursor_b[256];
  long long base[256];
  unsigned sums[Threads];
};

// Variant 0: plain; 1: launched in clusters of two, a cluster barrier before the writes.
template <int Threads, int Items, int Variant = 0>
__global__ void __launch_bounds__(Threads, 2) pass_two_subtiles(const unsigned* keys_in, unsigned* keys_out,
                                                                unsigned* values_out, const long long* offsets,
                                                                int bits) {
  constexpr int sub = Threads * Items;
  static_assert(2 * sub <= 65536, "positions are kept in 16 bits");
  extern __shared__ __align__(16) unsigned char raw[];
  auto& s = *reinterpret_cast<two_shared<Threads>*>(raw);
  unsigned* buffer = reinterpret_cast<unsigned*>(raw + sizeof(two_shared<Threads>));  // 2 x sub
  unsigned char* digit_at = reinterpret_cast<unsigned char*>(buffer + 2 * sub);       // 2 x sub
  const int digits = 1 << bits;
  const unsigned mask = digits - 1;
  const long long pair = blockIdx.x;
  const long long begin = pair * 2 * sub;
  for (int d = threadIdx.x; d < 256; d += Threads) s.cursor_a[d] = s.cursor_b[d] = 0;
  __syncthreads();
  unsigned k[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i) k[i] = keys_in[begin + i * Threads + threadIdx.x];
#pragma unroll
  for (int i = 0; i < Items; ++i) atomicAdd(&s.cursor_a[k[i] & mask], 1u);
#pragma unroll
  for (int i = 0; i < Items; ++i) k[i] = keys_in[begin + sub + i * Threads + threadIdx.x];
#pragma unroll
  for (int i = 0; i < Items; ++i) atomicAdd(&s.cursor_b[k[i] & mask], 1u);
  __syncthreads();
  const bool owner = static_cast<int>(threadIdx.x) < digits;
  const unsigned count_a = owner ? s.cursor_a[threadIdx.x] : 0, count_b = owner ? s.cursor_b[threadIdx.x] : 0;
  s.sums[threadIdx.x] = count_a + count_b;
  __syncthreads();
  for (int off = 1; off < Threads; off *= 2) {
    const unsigned v = threadIdx.x >= off ? s.sums[threadIdx.x - off] : 0;
    __syncthreads();
    s.sums[threadIdx.x] += v;
    __syncthreads();
  }
  if (owner) {
    const unsigned start = s.sums[threadIdx.x] - count_a - count_b;
    s.base[threadIdx.x] = offsets[2 * pair * digits + threadIdx.x] - start;
    s.cursor_a[threadIdx.x] = start;
    s.cursor_b[threadIdx.x] = start + count_a;
  }
  __syncthreads();
  unsigned at[Items];  // B's position in the high half, A's in the low
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const unsigned m = atomicAdd(&s.cursor_b[k[i] & mask], 1u);
    buffer[m] = k[i];
    at[i] = m << 16;
  }
#pragma unroll
  for (int i = 0; i < Items; ++i) k[i] = keys_in[begin + i * Threads + threadIdx.x];
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const unsigned m = atomicAdd(&s.cursor_a[k[i] & mask], 1u);
    buffer[m] = k[i];
    at[i] |= m;
  }
  __syncthreads();
  if constexpr (Variant == 1) cooperative_groups::this_cluster().sync();  // the pair's blocks write together
#pragma unroll 4
  for (int i = 0; i < 2 * Items; ++i) {
    const int j = i * Threads + threadIdx.x;
    const unsigned key = buffer[j];
    digit_at[j] = static_cast<unsigned char>(key & mask);
    keys_out[s.base[key & mask] + j] = key;
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    buffer[at[i] & 0xFFFFu] = static_cast<unsigned>(begin + i * Threads + threadIdx.x);
    buffer[at[i] >> 16] = static_cast<unsigned>(begin + sub + i * Threads + threadIdx.x);
  }
  __syncthreads();
#pragma unroll 4
  for (int i = 0; i < 2 * Items; ++i) {
    const int j = i * Threads + threadIdx.x;
    values_out[s.base[digit_at[j]] + j] = buffer[j];
  }
}

__global__ void flush(const uint4* a, long long words, unsigned* sink) {
  uint4 acc{0, 0, 0, 0};
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    acc.x ^= a[i].x;
  if (acc.x == 0x12345678u) *sink = acc.x;
}

struct timer {
  cudaEvent_t a, b;
  uint4* junk;
  unsigned* sink;
  long long junk_words = (128ll << 20) / 16;
  timer() {
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaMalloc(&junk, junk_words * 16));
    CK(cudaMemset(junk, 1, junk_words * 16));
    CK(cudaMalloc(&sink, 4));
  }
  template <class F>
  float median_ms(F&& f) {
    f();
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < 10; ++r) {
      flush<<<1024, 256>>>(junk, junk_words, sink);
      CK(cudaEventRecord(a));
      f();
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
};

// pad > 1: every (tile, digit) run starts on a multiple of `pad` keys in a padded output
// (the padding is not written): no sector or line is shared by two tiles' runs.
template <int Threads, int Items, bool Pairs>
void run_case(const char* label, int bits, int pad, long long n, const std::vector<unsigned>& host_keys,
              const unsigned* d_in, unsigned* d_out, unsigned* d_vout, long long out_capacity, timer& tm,
              float copy_ms) {
  constexpr int tile_items = Threads * Items;
  const long long tiles = n / tile_items / 4 * 4;  // whole tiles only, a multiple of 4 (clusters of two tile pairs)
  const long long m = tiles * tile_items;
  const int digits = 1 << bits;
  unsigned* d_counts;
  long long* d_offsets;
  CK(cudaMalloc(&d_counts, tiles * digits * sizeof(unsigned)));
  CK(cudaMalloc(&d_offsets, tiles * digits * sizeof(long long)));
  count_tiles<<<tiles, 256>>>(d_in, m, tile_items, bits, d_counts);
  CK(cudaGetLastError());
  std::vector<unsigned> counts(tiles * digits);
  CK(cudaMemcpy(counts.data(), d_counts, counts.size() * 4, cudaMemcpyDeviceToHost));
  // offsets[t][d]: digit-major, tile order within a digit (where an LSD pass puts them).
  std::vector<long long> offsets(tiles * digits);
  long long pos = 0;
  for (int d = 0; d < digits; ++d)
    for (long long t = 0; t < tiles; ++t) {
      pos = (pos + pad - 1) / pad * pad;
      offsets[t * digits + d] = pos;
      pos += counts[t * digits + d];
    }
  if (pos > out_capacity) {
    std::printf("%s: padded output too large\n", label);
    std::exit(1);
  }
  CK(cudaMemcpy(d_offsets, offsets.data(), offsets.size() * 8, cudaMemcpyHostToDevice));
  const int shared = sizeof(probe_shared<Threads, Items, Pairs>);
  // Modes 7-9 ask why "scatter in clusters" is faster: 7 is mode 1 launched in clusters of
  // two without a barrier, 8 is mode 0 (coalesced) in clusters of two, 9 is mode 6 in clusters of two
  // with a barrier before the writes.
  constexpr int kModes = 10;
  void (*kernels[kModes])(const unsigned*, unsigned*, unsigned*, const long long*, int) = {
      pass<Threads, Items, Pairs, 0>, pass<Threads, Items, Pairs, 1>, pass<Threads, Items, Pairs, 2>,
      pass<Threads, Items, Pairs, 3>, pass<Threads, Items, Pairs, 4>, pass<Threads, Items, Pairs, 5>,
      pass_two_subtiles<Threads, Items>,  pass<Threads, Items, Pairs, 1>, pass<Threads, Items, Pairs, 0>,
      pass_two_subtiles<Threads, Items, 1>};
  const unsigned cluster_of[kModes] = {1, 1, 1, 2, 2, 2, 1, 2, 2, 2};
  const auto two = [](int mode) { return mode == 6 || mode == 9; };
  const int two_shared_bytes = sizeof(two_shared<Threads>) + 2 * tile_items * 5;
  for (int mode = 0; mode < kModes; ++mode)
    CK(cudaFuncSetAttribute(kernels[mode], cudaFuncAttributeMaxDynamicSharedMemorySize,
                            two(mode) ? two_shared_bytes : shared));
  int blocks_per_sm = 0, two_per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernels[1], Threads, shared));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&two_per_sm, kernels[6], Threads, two_shared_bytes));
  // Bytes moved: keys read and written, values (made from the index, not read) written.
  const double bytes = static_cast<double>(m) * (Pairs ? 12.0 : 8.0);
  float ms[kModes];
  for (int mode = 0; mode < kModes; ++mode) {
    if ((g_staged_only && (mode == 2 || mode == 3 || mode == 4)) || (mode >= 3 && (pad != 1 || digits > 8 * Threads)) ||
        (two(mode) && (!Pairs || digits > 256 || digits > Threads))) {  // merging assumes the two tiles' runs adjoin
      ms[mode] = 0;
      continue;
    }
    auto kernel = kernels[mode];
    auto launch = [&] {
      cudaLaunchConfig_t config{};
      config.gridDim = dim3(static_cast<unsigned>(two(mode) ? tiles / 2 : tiles));
      config.blockDim = dim3(Threads);
      config.dynamicSmemBytes = two(mode) ? two_shared_bytes : shared;
      cudaLaunchAttribute cluster{};
      cluster.id = cudaLaunchAttributeClusterDimension;
      cluster.val.clusterDim.x = cluster_of[mode];
      cluster.val.clusterDim.y = cluster.val.clusterDim.z = 1;
      config.attrs = &cluster;
      config.numAttrs = 1;
      CK(cudaLaunchKernelEx(&config, kernel, static_cast<const unsigned*>(d_in), d_out, d_vout,
                            static_cast<const long long*>(d_offsets), bits));
    };
    CK(cudaMemset(d_out, 0xA5, pos * 4));
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    if (mode == 1 || (mode >= 3 && mode != 8) || (mode == 2 && pad % 8 == 0)) {  // verify: every run holds keys of its digit; the keys' sum and xor; pairs: key == input[value]
      std::vector<unsigned> got(pos), vals(Pairs ? pos : 0);
      CK(cudaMemcpy(got.data(), d_out, pos * 4, cudaMemcpyDeviceToHost));
      if (Pairs) CK(cudaMemcpy(vals.data(), d_vout, pos * 4, cudaMemcpyDeviceToHost));
      long long bad = 0;
      unsigned long long sum_in = 0, sum_out = 0;
      unsigned xor_in = 0, xor_out = 0;
      for (long long i = 0; i < m; ++i) sum_in += host_keys[i], xor_in ^= host_keys[i];
      for (long long t = 0; t < tiles; ++t)
        for (int d = 0; d < digits; ++d) {
          const long long at = offsets[t * digits + d];
          for (long long i = at; i < at + counts[t * digits + d]; ++i) {
            bad += (got[i] & (digits - 1)) != static_cast<unsigned>(d);
            sum_out += got[i], xor_out ^= got[i];
            if (Pairs) bad += vals[i] >= m || host_keys[vals[i]] != got[i];
          }
        }
      if (bad || sum_in != sum_out || xor_in != xor_out) {
        std::printf("%s %d bits: WRONG (%lld bad)\n", label, bits, bad);
        std::exit(1);
      }
    }
    ms[mode] = tm.median_ms(launch);
  }
  const double copy_rate = static_cast<double>(m) * 8.0 / copy_ms;  // per ms, keys' bytes
  std::printf("%-5s %2d bits  %4d x %2d  %5.1f keys/run  pad %2d  %d/SM  coalesced %.3f ms (%5.1f%% of copy)  "
              "scatter %.3f (%5.1f%%, %+.1f%%)  filled%s %.3f (%+.1f%%)  merged pairs of tiles %.3f (%+.1f%%)  "
              "staged pairs of tiles %.3f (%5.1f%%, %+.1f%%)  scatter in clusters %.3f (%+.1f%%)  "
              "two sub-tiles a block (%d/SM) %.3f (%5.1f%%, %+.1f%%)  clusters of 2, no barrier %.3f  "
              "coalesced in clusters of 2 %.3f  two sub-tiles in clusters of 2 %.3f\n",
              label, bits, Threads, Items, static_cast<double>(tile_items) / digits, pad, blocks_per_sm, ms[0],
              100.0 * bytes / ms[0] / copy_rate, ms[1], 100.0 * bytes / ms[1] / copy_rate,
              100.0 * (ms[1] / ms[0] - 1.0), pad % 8 == 0 ? "" : " (unverified)", ms[2],
              100.0 * (ms[2] / ms[0] - 1.0), ms[3], 100.0 * (ms[3] / ms[0] - 1.0), ms[4],
              100.0 * bytes / ms[4] / copy_rate, 100.0 * (ms[4] / ms[0] - 1.0), ms[5], 100.0 * (ms[5] / ms[0] - 1.0),
              two_per_sm, ms[6], 100.0 * bytes / ms[6] / copy_rate, 100.0 * (ms[6] / ms[0] - 1.0), ms[7], ms[8], ms[9]);
  CK(cudaFree(d_counts));
  CK(cudaFree(d_offsets));
}

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  const long long n = 1ll << log2n;
  std::vector<unsigned> keys(n);
  std::mt19937 rng(7);
  for (auto& k : keys) k = rng();
  unsigned *d_in, *d_out, *d_vout;
  const long long capacity = 2 * n;  // room for padded runs
  CK(cudaMalloc(&d_in, n * 4));
  CK(cudaMalloc(&d_out, capacity * 4));
  CK(cudaMalloc(&d_vout, capacity * 4));
  CK(cudaMemcpy(d_in, keys.data(), n * 4, cudaMemcpyHostToDevice));
  timer tm;
  const float copy_ms = tm.median_ms([&] { CK(cudaMemcpyAsync(d_out, d_in, n * 4, cudaMemcpyDeviceToDevice)); });
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, 2^%d uint32 keys: copy %.3f ms (%.0f GB/s, bytes read + written)\n", prop.name, log2n, copy_ms,
              2.0 * n * 4 / copy_ms / 1e6);
  const auto all = [&](int bits, int pad) {
    run_case<256, 24, false>("keys", bits, pad, n, keys, d_in, d_out, d_vout, capacity, tm, copy_ms);
    run_case<256, 48, false>("keys", bits, pad, n, keys, d_in, d_out, d_vout, capacity, tm, copy_ms);
    run_case<512, 48, false>("keys", bits, pad, n, keys, d_in, d_out, d_vout, capacity, tm, copy_ms);
    run_case<256, 36, true>("pairs", bits, pad, n, keys, d_in, d_out, d_vout, capacity, tm, copy_ms);
  };
  if (argc > 2 && std::string(argv[2]) == "staged") {
    g_staged_only = true;
    for (int bits : {8, 7}) {
      run_case<256, 24, false>("keys", bits, 1, n, keys, d_in, d_out, d_vout, capacity, tm, copy_ms);
      run_case<256, 48, false>("keys", bits, 1, n, keys, d_in, d_out, d_vout, capacity, tm, copy_ms);
      run_case<256, 36, true>("pairs", bits, 1, n, keys, d_in, d_out, d_vout, capacity, tm, copy_ms);
      run_case<384, 24, true>("pairs", bits, 1, n, keys, d_in, d_out, d_vout, capacity, tm, copy_ms);
    }
    return 0;
  }
  all(8, 1);
  all(8, 8);
  all(11, 1);
  // Longer runs at the same tile and occupancy: fewer digits a pass.
  for (int bits : {7, 6, 4}) {
    run_case<256, 48, false>("keys", bits, 1, n, keys, d_in, d_out, d_vout, capacity, tm, copy_ms);
    run_case<256, 36, true>("pairs", bits, 1, n, keys, d_in, d_out, d_vout, capacity, tm, copy_ms);
  }
  return 0;
}
