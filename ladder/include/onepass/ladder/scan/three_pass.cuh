// onepass/ladder/scan/three_pass.cuh — ids "three_pass_smem" and "three_pass_warp": the
// classic multi-block scan in three steps.
//
//   1. every block scans its 1024-item chunk and writes the chunk's total to `sums`;
//   2. `sums` is scanned, recursively, by the same algorithm until it fits one block;
//   3. every block folds the combination of the chunks before it into its items.
// The whole GPU works, but the data crosses device memory twice (steps 1 and 3 each read
// and write every item): at best half the bandwidth of a single-pass scan, plus a kernel
// launch per step and level. The two ids differ only in the block scan of step 1: the
// Hillis–Steele shared-memory scan, or onepass::block_scan (warp shuffles).
//
// Exclusive without an identity: step 1 writes, for every item but the first of its
// chunk, the combination of the chunk's earlier items, and step 3 seeds it with
// init op (earlier chunks); the first item of a chunk gets that seed alone.
#pragma once

#include <limits>

#include "onepass/block/block_scan.cuh"
#include "onepass/functional.cuh"
#include "onepass/ladder/scan/common.cuh"
#include "onepass/ladder/scan/hillis_steele.cuh"

namespace onepass::ladder {

namespace detail {

constexpr int three_pass_threads = 1024;  // one item per thread: a chunk is a block

constexpr index_t three_pass_blocks(index_t n) {
  return (n + three_pass_threads - 1) / three_pass_threads;
}
// Each level's sums start 16-byte aligned in the workspace.
template <class T>
constexpr std::size_t three_pass_sums_bytes(index_t blocks) {
  return (static_cast<std::size_t>(blocks) * sizeof(T) + 15) / 16 * 16;
}

template <class T, class Op, bool WarpScan>
__global__ void __launch_bounds__(three_pass_threads)
    three_pass_scan_chunks(const T* in, index_t n, T* out, T* sums, bool exclusive, Op op) {
  const int t = static_cast<int>(threadIdx.x);
  const index_t i = static_cast<index_t>(blockIdx.x) * three_pass_threads + t;
  // Threads past the end repeat the last item: only the last chunk's total, which no
  // later chunk reads, sees them.
  const T x = in[i < n ? i : n - 1];
  T prefix, total;  // prefix: the chunk's items before i (none for t == 0)
  if constexpr (WarpScan) {
    using scan_t = block_scan<T, three_pass_threads>;
    __shared__ typename scan_t::storage storage;
    scan_t(storage).exclusive_prefix(x, op, prefix, total);
  } else {
    __shared__ hillis_steele_storage<T, three_pass_threads> storage;
    const T* incl = hillis_steele_block_inclusive(x, op, storage);
    if (t > 0) prefix = incl[t - 1];
    total = incl[three_pass_threads - 1];
  }
  if (t == 0) sums[blockIdx.x] = total;
  // Each thread rewrites only the item it read: in == out works.
  if (i >= n) return;
  if (!exclusive) {
    out[i] = t > 0 ? op(prefix, x) : x;
  } else if (t > 0) {
    out[i] = prefix;  // the chunk's first item is written by step 3 alone
  }
}

// scanned_sums: inclusive scan of the chunk totals.
template <class T, class Op>
__global__ void __launch_bounds__(three_pass_threads)
    three_pass_add(T* out, index_t n, const T* scanned_sums, bool exclusive, T init, Op op) {
  const int t = static_cast<int>(threadIdx.x);
  const index_t chunk = blockIdx.x;
  const index_t i = chunk * three_pass_threads + t;
  if (i >= n) return;
  if (!exclusive) {
    if (chunk > 0) out[i] = op(scanned_sums[chunk - 1], out[i]);
    return;
  }
  const T seed = chunk > 0 ? op(init, scanned_sums[chunk - 1]) : init;
  out[i] = t > 0 ? op(seed, out[i]) : seed;
}

template <bool WarpScan>
struct three_pass_variant {
  // Largest n whose chunk count fits a one-dimensional grid.
  static constexpr index_t max_items =
      static_cast<index_t>(std::numeric_limits<int>::max()) * three_pass_threads;
  // Steps 1 and 3 each read and write all n items; the sums add 2/1024 per level.
  static constexpr double passes = 2.0;

  // One sums array per recursion level, as scan_level below lays them out.
  template <class T, class Op = plus>
  static std::size_t workspace_bytes(index_t n) {
    if (n <= 0) return 0;
    std::size_t bytes = 0;
    index_t items = n;
    do {
      items = three_pass_blocks(items);
      bytes += three_pass_sums_bytes<T>(items);
    } while (items > 1);
    return bytes;
  }

  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, scan_kind kind, T init, Op op,
                            workspace ws, cudaStream_t stream) {
    scan_level(in, n, out, kind == scan_kind::exclusive, init, op,
               static_cast<unsigned char*>(ws.data), stream);
  }

 private:
  template <class T, class Op>
  static void scan_level(const T* in, index_t n, T* out, bool exclusive, T init, Op op,
                         unsigned char* scratch, cudaStream_t stream) {
    const index_t blocks = three_pass_blocks(n);
    const dim3 grid(static_cast<unsigned>(blocks));
    T* sums = reinterpret_cast<T*>(scratch);
    onepass::detail::launch(three_pass_scan_chunks<T, Op, WarpScan>, grid, three_pass_threads, 0,
                            stream, in, n, out, sums, exclusive, op);
    if (blocks > 1) {
      scan_level(sums, blocks, sums, false, init, op, scratch + three_pass_sums_bytes<T>(blocks),
                 stream);
    }
    // One inclusive chunk is already final; an exclusive one still needs its seed.
    if (blocks > 1 || exclusive) {
      onepass::detail::launch(three_pass_add<T, Op>, grid, three_pass_threads, 0, stream, out, n,
                              sums, exclusive, init, op);
    }
  }
};

}  // namespace detail

struct three_pass_smem : detail::three_pass_variant<false> {
  static constexpr const char* id = "three_pass_smem";
  static constexpr const char* summary =
      "scan chunks, scan chunk totals recursively, add: Hillis-Steele block scan";
};

struct three_pass_warp : detail::three_pass_variant<true> {
  static constexpr const char* id = "three_pass_warp";
  static constexpr const char* summary =
      "scan chunks, scan chunk totals recursively, add: warp-shuffle block scan";
};

}  // namespace onepass::ladder
