// partial_store_probe.cu — what do stores that skip some items cost the memory system?
// (docs/perf/segmented_scan.md, "The marking, warp by warp": begin/end arrays with gaps
// leave the items between segments as `out` held them, so the scan stores around them.)
// Not part of the build: a throwaway driver kept so that the figures can be reproduced.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o partial_store_probe docs/perf/experiments/partial_store_probe.cu
//   ./partial_store_probe [log2_n=28]
// Every kernel copies int32 `in` to `out` with 16-byte loads, four items a thread, one
// grid-stride pass, and keeps the items a pattern marks (a hash of the index) as `out`
// held them:
//   full         no item kept (a plain copy);
//   skip         the chunks with a kept item are stored item by item, the rest as vectors
//                (the scan's gap stores);
//   merge        the chunks with a kept item load `out`'s 16 bytes, merge, store 16 bytes;
//   striped      (added 2026-11-29) 4-byte loads and stores in the warp-striped order the
//                scan's gap stores use: each store instruction of a warp writes 32
//                consecutive items, the kept items' lanes predicated off, so every sector
//                gets one store; beside it "striped full", the same order with no item kept;
//   prefetched   (added 2026-11-29) striped, and before its loads each warp asks L2 for
//                the `out` sectors it will write in part (prefetch.global.L2, one lane a
//                sector), so that the masked stores find them there;
// with every 2nd item kept at random (each 32-byte sector partly written), 1 item in 64
// kept, and whole 32-byte sectors kept (1 in 2, at random: never a partial sector). Every
// output is checked against the host's answer; times are medians of 20 with the L2 flushed
// (a 256 MiB read) before each, as bench/gpu.cuh times.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                       \
  do {                                                              \
    cudaError_t e = (x);                                            \
    if (e != cudaSuccess) {                                         \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e));           \
      std::exit(1);                                                 \
    }                                                               \
  } while (0)

__host__ __device__ inline unsigned hash(unsigned long long i) {
  unsigned long long x = i * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  return static_cast<unsigned>(x >> 32);
}

enum pattern { half_items = 0, one_in_64 = 1, whole_sectors = 2, one_in_256 = 3 };

// Whether item i keeps out's value.
__host__ __device__ inline bool kept(long long i, int p) {
  if (p == half_items) return hash(i) & 1;
  if (p == one_in_64) return hash(i) % 64 == 0;
  if (p == one_in_256) return hash(i) % 256 == 0;
  return hash(i / 8) & 1;  // a 32-byte sector is 8 int32 items
}

enum mode { full = 0, skip = 1, merge = 2, striped_full = 3, striped = 4, prefetched = 5 };

// A warp copies 128 consecutive items an iteration, four stores of 32 consecutive items.
template <bool Masked, bool Prefetch = false>
__global__ void __launch_bounds__(256) striped_copy(const int* in, int* out, long long n, int p) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const long long warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32);
  for (long long w = blockIdx.x * static_cast<long long>(blockDim.x / 32) + threadIdx.x / 32; w * 128 < n;
       w += warps) {
    // Which items keep out's value, known before anything is loaded (as the scan knows its
    // gaps from the bitmaps before its values arrive).
    bool keep[4];
    for (int k = 0; k < 4; ++k) keep[k] = Masked && kept(w * 128 + k * 32 + lane, p);
    if (Prefetch)
      for (int k = 0; k < 4; ++k) {
        const unsigned mask = __ballot_sync(~0u, keep[k]);
        const unsigned sector = (mask >> (lane & ~7)) & 0xFFu;  // this lane's 8-item sector
        if (lane % 8 == 0 && sector != 0 && sector != 0xFFu)
          asm volatile("prefetch.global.L2 [%0];" ::"l"(out + w * 128 + k * 32 + lane));
      }
    int v[4];
    for (int k = 0; k < 4; ++k) v[k] = in[w * 128 + k * 32 + lane];
    for (int k = 0; k < 4; ++k)
      if (!keep[k]) out[w * 128 + k * 32 + lane] = v[k];
  }
}

template <int Mode>
__global__ void __launch_bounds__(256) masked_copy(const int4* in, int4* out, long long chunks, int p) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long c = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; c < chunks; c += stride) {
    const int4 v = in[c];
    unsigned keep = 0;
    if (Mode != full)
      for (int k = 0; k < 4; ++k) keep |= static_cast<unsigned>(kept(c * 4 + k, p)) << k;
    if (keep == 0) {
      out[c] = v;
    } else if (Mode == skip) {
      int* o = reinterpret_cast<int*>(out + c);
      if (!(keep & 1)) o[0] = v.x;
      if (!(keep & 2)) o[1] = v.y;
      if (!(keep & 4)) o[2] = v.z;
      if (!(keep & 8)) o[3] = v.w;
    } else if (keep != 0xF) {
      int4 w = out[c];
      if (!(keep & 1)) w.x = v.x;
      if (!(keep & 2)) w.y = v.y;
      if (!(keep & 4)) w.z = v.z;
      if (!(keep & 8)) w.w = v.w;
      out[c] = w;
    }
  }
}

__global__ void read_flush(const int4* p, long long n, int* sink) {
  int acc = 0;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    acc ^= p[i].x;
  if (acc == 0x12345678) *sink = acc;
}

int main(int argc, char** argv) {
  const long long n = 1ll << (argc > 1 ? std::atoi(argv[1]) : 28);
  const long long chunks = n / 4;
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int grid = sms * 8;
  std::vector<int> host_in(n), host_out0(n);
  for (long long i = 0; i < n; ++i) {
    host_in[i] = static_cast<int>(hash(i + 1));
    host_out0[i] = static_cast<int>(hash(i + 7) | 1);
  }
  int4 *in, *out, *flush;
  int* sink;
  const long long flush_chunks = (256ll << 20) / 16;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMalloc(&flush, flush_chunks * 16));
  CK(cudaMalloc(&sink, 4));
  CK(cudaMemset(flush, 1, flush_chunks * 16));
  CK(cudaMemcpy(in, host_in.data(), n * 4, cudaMemcpyHostToDevice));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  auto launch = [&](int m, int p) {
    if (m == full) masked_copy<full><<<grid, 256>>>(in, out, chunks, p);
    if (m == skip) masked_copy<skip><<<grid, 256>>>(in, out, chunks, p);
    if (m == merge) masked_copy<merge><<<grid, 256>>>(in, out, chunks, p);
    if (m == striped_full) striped_copy<false><<<grid, 256>>>(reinterpret_cast<const int*>(in), reinterpret_cast<int*>(out), n, p);
    if (m == striped) striped_copy<true><<<grid, 256>>>(reinterpret_cast<const int*>(in), reinterpret_cast<int*>(out), n, p);
    if (m == prefetched)
      striped_copy<true, true><<<grid, 256>>>(reinterpret_cast<const int*>(in), reinterpret_cast<int*>(out), n, p);
    CK(cudaGetLastError());
  };
  const char* mode_names[] = {"full", "skip", "merge", "striped full", "striped", "prefetched"};
  const char* pattern_names[] = {"every 2nd item kept", "1 item in 64 kept", "whole sectors kept",
                                 "1 item in 256 kept"};
  double full_ms = 0;
  int failures = 0;
  std::vector<int> got(n);
  std::printf("n = 2^%d int32, %d blocks of 256; ms (median of 20, L2 flushed), and against the plain copy\n",
              argc > 1 ? std::atoi(argv[1]) : 28, grid);
  for (int p = 0; p < 4; ++p)
    for (int m = 0; m < 6; ++m) {
      if ((m == full || m == striped_full) && p > 0) continue;
      CK(cudaMemcpy(out, host_out0.data(), n * 4, cudaMemcpyHostToDevice));
      launch(m, p);
      CK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
      long long bad = 0;
      for (long long i = 0; i < n; ++i)
        bad += got[i] != (m != full && m != striped_full && kept(i, p) ? host_out0[i] : host_in[i]);
      if (bad) {
        std::printf("%-12s %-22s FAILED: %lld items wrong\n", mode_names[m], pattern_names[p], bad);
        ++failures;
        continue;
      }
      std::vector<float> t;
      for (int r = 0; r < 23; ++r) {
        read_flush<<<grid, 256>>>(flush, flush_chunks, sink);
        CK(cudaEventRecord(a));
        launch(m, p);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (r >= 3) t.push_back(ms);
      }
      std::sort(t.begin(), t.end());
      const double med = (t[9] + t[10]) / 2;
      if (m == full) full_ms = med;
      std::printf("%-12s %-22s %8.4f ms  %5.3fx the copy's time\n", mode_names[m],
                  m == full || m == striped_full ? "-" : pattern_names[p], med, med / full_ms);
    }
  return failures ? 1 : 0;
}
