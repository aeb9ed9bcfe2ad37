// barrier_probe.cu — does a block barrier wait for a participating warp's outstanding
// global loads? (docs/perf/scan.md, "Block barriers and outstanding loads", 2026-11-25.)
// Not part of the build: a throwaway driver kept so that the figures can be reproduced.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o barrier_probe docs/perf/experiments/barrier_probe.cu
//   ./barrier_probe
// Each mode: warp 0 (or every warp, where the name says so) issues the access, then the
// block runs 1 or 4 rounds of (shared store, barrier, shared load, barrier), then warp 0
// uses the loaded value. Thread 0 and thread 32 report the cycles of the barrier section,
// thread 0 also the cycles until the value was used (the access's own latency).
#include <cuda/atomic>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

template <int Mode, int Rounds>
__global__ void __launch_bounds__(256) probe(unsigned long long* far, long long far_words, int iters,
                                             long long* sect0, long long* use0, long long* sect32,
                                             unsigned long long* sink) {
  __shared__ unsigned buf[256];
  __shared__ __align__(16) unsigned long long landing[32];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  unsigned long long acc = 0;
  long long s0 = 0, u0 = 0, s32 = 0;
  unsigned x = tid;
  for (int it = 0; it < iters; ++it) {
    // A distinct 4 KiB-apart address per (block, iteration, lane): misses L2.
    const long long idx =
        ((static_cast<long long>(blockIdx.x) * iters + it) * 32 + lane) * 512 % far_words;
    __syncthreads();
    const long long t0 = clock64();
    unsigned long long v = 0;
    if (warp == 0) {
      if constexpr (Mode == 1) {
        v = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(far[idx]).load(
            cuda::std::memory_order_relaxed);
      } else if constexpr (Mode == 2) {
        v = __ldcg(far + idx);
      } else if constexpr (Mode == 3) {
        v = atomicAdd(far + idx, 1ull);
      } else if constexpr (Mode == 4) {
        const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&landing[lane]));
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(dst), "l"(far + idx) : "memory");
        asm volatile("cp.async.commit_group;\n" ::: "memory");
      } else if constexpr (Mode == 5) {
        far[idx] = static_cast<unsigned long long>(it);
      } else if constexpr (Mode == 6) {
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(far[idx]).store(
            static_cast<unsigned long long>(it), cuda::std::memory_order_relaxed);
      } else if constexpr (Mode == 7) {
        if (lane == 0)
          asm volatile("cp.async.bulk.prefetch.L2.global [%0], 4096;\n" ::"l"(far + idx) : "memory");
      } else if constexpr (Mode == 14) {  // descriptor-like: 32 consecutive words of a 512 KiB hot array
        const long long hot = ((static_cast<long long>(blockIdx.x) * iters + it) * 32) % 65536 + lane;
        v = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(far[hot]).load(
            cuda::std::memory_order_relaxed);
      } else if constexpr (Mode == 15) {  // claim-like: lane 0's atomicAdd on one hot counter
        if (lane == 0) v = atomicAdd(far + 65536 + 4096, 1ull);
      } else if constexpr (Mode == 8) {
        v = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(far[idx]).load(
            cuda::std::memory_order_relaxed);
      }
    }
    if constexpr (Mode == 9) {  // every thread: one 16-byte store to cold memory
      reinterpret_cast<uint4*>(far)[(idx / 2 + static_cast<long long>(tid) * 2) % (far_words / 2)] =
          make_uint4(it, it, it, it);
    }
    if constexpr (Mode == 10) {  // every thread: one 16-byte cp.async from cold memory
      __shared__ __align__(16) uint4 stage[256];
      const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&stage[tid]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst),
                   "l"(reinterpret_cast<uint4*>(far) + (idx / 2 + static_cast<long long>(tid) * 2) % (far_words / 2))
                   : "memory");
      asm volatile("cp.async.commit_group;\n" ::: "memory");
    }
    uint4 held = make_uint4(0, 0, 0, 0);
    if constexpr (Mode == 11 || Mode == 12) {  // 16-byte cp.async, coalesced: warp 0 only / every warp
      __shared__ __align__(16) uint4 stage2[256];
      if (Mode == 12 || warp == 0) {
        const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&stage2[tid]));
        const long long base = ((static_cast<long long>(blockIdx.x) * iters + it) * 256) % (far_words / 2 - 256);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst),
                     "l"(reinterpret_cast<uint4*>(far) + base + tid)
                     : "memory");
        asm volatile("cp.async.commit_group;\n" ::: "memory");
      }
    }
    if constexpr (Mode == 13) {  // every thread: a 16-byte register load, coalesced, used after
      const long long base = ((static_cast<long long>(blockIdx.x) * iters + it) * 256) % (far_words / 2 - 256);
      held = __ldcg(reinterpret_cast<const uint4*>(far) + base + tid);
    }
    if constexpr (Mode == 8) {  // warps 1-7 only: named barrier 1, warp 0 stays out
      if (warp != 0) {
#pragma unroll
        for (int r = 0; r < Rounds; ++r) {
          buf[tid] = x;
          asm volatile("bar.sync 1, 224;" ::: "memory");
          x = x * 1664525u + buf[32 + (tid + 37) % 224];
          asm volatile("bar.sync 1, 224;" ::: "memory");
        }
      }
    } else {
#pragma unroll
      for (int r = 0; r < Rounds; ++r) {
        buf[tid] = x;
        __syncthreads();
        x = x * 1664525u + buf[(tid + 37) & 255];
        __syncthreads();
      }
    }
    const long long t1 = clock64();
    if (warp == 0) {
      if constexpr (Mode == 4 || Mode == 10 || Mode == 11 || Mode == 12) {
        asm volatile("cp.async.wait_group 0;\n" ::: "memory");
        __syncwarp();
        v = landing[lane];
      }
      acc += v;
    }
    if constexpr (Mode == 12) asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    if constexpr (Mode == 13) acc += held.x ^ held.w;
    const long long t2 = (warp == 0) ? clock64() + static_cast<long long>(acc & 0) : clock64();
    if (tid == 0) { s0 += t1 - t0; u0 += t2 - t0; }
    if (tid == 32) s32 += t1 - t0;
  }
  if (tid == 0) { atomicAdd(reinterpret_cast<unsigned long long*>(sect0), s0); atomicAdd(reinterpret_cast<unsigned long long*>(use0), u0); }
  if (tid == 32) atomicAdd(reinterpret_cast<unsigned long long*>(sect32), s32);
  if (acc == 12345 && x == 7) sink[0] = acc;
}

template <int Mode, int Rounds>
void run(const char* name, unsigned long long* far, long long far_words, long long* d, unsigned long long* sink,
         int blocks, int iters) {
  CK(cudaMemset(d, 0, 3 * sizeof(long long)));
  probe<Mode, Rounds><<<blocks, 256>>>(far, far_words, iters, d, d + 1, d + 2, sink);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  long long h[3];
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  const double n = static_cast<double>(blocks) * iters;
  printf("%-28s rounds %d blocks %4d: barrier section t0 %7.0f cyc, t32 %7.0f cyc; until use t0 %7.0f cyc\n", name,
         Rounds, blocks, h[0] / n, h[2] / n, h[1] / n);
}

template <int Rounds>
void all_modes(unsigned long long* far, long long words, long long* d, unsigned long long* sink, int blocks) {
  const int iters = 200;
  run<0, Rounds>("none", far, words, d, sink, blocks, iters);
  run<1, Rounds>("ld.relaxed.gpu", far, words, d, sink, blocks, iters);
  run<2, Rounds>("ld.global.cg (weak)", far, words, d, sink, blocks, iters);
  run<3, Rounds>("atom.add (result used later)", far, words, d, sink, blocks, iters);
  run<4, Rounds>("cp.async 8 B", far, words, d, sink, blocks, iters);
  run<5, Rounds>("st.global weak (warp 0)", far, words, d, sink, blocks, iters);
  run<6, Rounds>("st.relaxed.gpu (warp 0)", far, words, d, sink, blocks, iters);
  run<7, Rounds>("prefetch.L2 4 KiB (lane 0)", far, words, d, sink, blocks, iters);
  run<8, Rounds>("ld.relaxed, warp 0 not in bar", far, words, d, sink, blocks, iters);
  run<9, Rounds>("16 B st.global, all threads", far, words, d, sink, blocks, iters);
  run<10, Rounds>("16 B cp.async, all threads", far, words, d, sink, blocks, iters);
  run<14, Rounds>("ld.relaxed hot 512 KiB, warp 0", far, words, d, sink, blocks, iters);
  run<15, Rounds>("atom.add hot counter, lane 0", far, words, d, sink, blocks, iters);
  run<11, Rounds>("16 B cp.async coalesced, warp 0", far, words, d, sink, blocks, iters);
  run<12, Rounds>("16 B cp.async coalesced, all", far, words, d, sink, blocks, iters);
  run<13, Rounds>("16 B ld.cg coalesced, all, used after", far, words, d, sink, blocks, iters);
}

int main() {
  const long long words = 1ll << 28;  // 2 GiB
  unsigned long long* far;
  long long* d;
  unsigned long long* sink;
  CK(cudaMalloc(&far, words * 8));
  CK(cudaMemset(far, 1, words * 8));
  CK(cudaMalloc(&d, 64));
  CK(cudaMalloc(&sink, 64));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int blocks : {sms, 4 * sms}) {
    all_modes<1>(far, words, d, sink, blocks);
    all_modes<4>(far, words, d, sink, blocks);
  }
  return 0;
}
