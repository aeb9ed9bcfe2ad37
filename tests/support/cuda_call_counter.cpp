// The CUDA runtime functions the tests count (see cuda_call_counter.hpp). tests/CMakeLists.txt
// reads the X(name, ...) lines below and links every test with -Wl,--wrap=name for each, so
// a call to name anywhere in the binary's own objects reaches __wrap_name here, which
// counts it and calls the runtime's name as __real_name. Calls made inside the shared
// libcudart are not seen, and need not be: what matters is what onepass and CUB ask for.
// Compiled by nvcc (LANGUAGE CUDA): what <<< >>> lowers to is declared for CUDA code only.
#include "support/cuda_call_counter.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM) || defined(__CUDART_API_PER_THREAD_DEFAULT_STREAM)
#error "the per-thread default stream renames the stream functions (name_ptsz): wrap those names"
#endif

// X(name, enqueues, return type, (parameters), (arguments)): what onepass's headers call
// (test_cuda_call_counter checks that), what CUB's device algorithms call (nm -u on the
// test objects), and the kernel launch that <<< >>> lowers to (__cudaPushCallConfiguration
// in the caller, __cudaLaunchKernel in the kernel's host stub).
// clang-format off
#define ONEPASS_COUNTED_CUDA_FUNCTIONS(X) \
  X(cudaDeviceGetAttribute, false, cudaError_t, (int* value, cudaDeviceAttr attr, int device), (value, attr, device)) \
  X(cudaDeviceSynchronize, false, cudaError_t, (), ()) \
  X(cudaFree, false, cudaError_t, (void* ptr), (ptr)) \
  X(cudaFreeAsync, true, cudaError_t, (void* ptr, cudaStream_t stream), (ptr, stream)) \
  X(cudaFuncGetAttributes, false, cudaError_t, (cudaFuncAttributes* attr, const void* func), (attr, func)) \
  X(cudaFuncSetAttribute, false, cudaError_t, (const void* func, cudaFuncAttribute attr, int value), (func, attr, value)) \
  X(cudaGetDevice, false, cudaError_t, (int* device), (device)) \
  X(cudaGetDeviceCount, false, cudaError_t, (int* count), (count)) \
  X(cudaGetErrorName, false, const char*, (cudaError_t error), (error)) \
  X(cudaGetErrorString, false, const char*, (cudaError_t error), (error)) \
  X(cudaGetLastError, false, cudaError_t, (), ()) \
  X(cudaLaunchCooperativeKernel, true, cudaError_t, (const void* func, dim3 grid, dim3 block, void** args, std::size_t smem, cudaStream_t stream), (func, grid, block, args, smem, stream)) \
  X(cudaLaunchKernel, true, cudaError_t, (const void* func, dim3 grid, dim3 block, void** args, std::size_t smem, cudaStream_t stream), (func, grid, block, args, smem, stream)) \
  X(cudaLaunchKernelExC, true, cudaError_t, (const cudaLaunchConfig_t* config, const void* func, void** args), (config, func, args)) \
  X(cudaMalloc, false, cudaError_t, (void** ptr, std::size_t bytes), (ptr, bytes)) \
  X(cudaMallocAsync, true, cudaError_t, (void** ptr, std::size_t bytes, cudaStream_t stream), (ptr, bytes, stream)) \
  X(cudaMemcpy, true, cudaError_t, (void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind), (dst, src, bytes, kind)) \
  X(cudaMemcpyAsync, true, cudaError_t, (void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream), (dst, src, bytes, kind, stream)) \
  X(cudaMemset, true, cudaError_t, (void* ptr, int value, std::size_t bytes), (ptr, value, bytes)) \
  X(cudaMemsetAsync, true, cudaError_t, (void* ptr, int value, std::size_t bytes, cudaStream_t stream), (ptr, value, bytes, stream)) \
  X(cudaOccupancyMaxActiveBlocksPerMultiprocessor, false, cudaError_t, (int* blocks, const void* func, int block_size, std::size_t smem), (blocks, func, block_size, smem)) \
  X(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, false, cudaError_t, (int* blocks, const void* func, int block_size, std::size_t smem, unsigned flags), (blocks, func, block_size, smem, flags)) \
  X(cudaPeekAtLastError, false, cudaError_t, (), ()) \
  X(cudaPointerGetAttributes, false, cudaError_t, (cudaPointerAttributes* attr, const void* ptr), (attr, ptr)) \
  X(cudaSetDevice, false, cudaError_t, (int device), (device)) \
  X(cudaStreamSynchronize, false, cudaError_t, (cudaStream_t stream), (stream)) \
  X(__cudaPushCallConfiguration, false, unsigned, (dim3 grid, dim3 block, std::size_t smem, CUstream_st* stream), (grid, block, smem, stream)) \
  X(__cudaLaunchKernel, true, cudaError_t, (cudaKernel_t kernel, dim3 grid, dim3 block, void** args, std::size_t smem, cudaStream_t stream), (kernel, grid, block, args, smem, stream))
// clang-format on

namespace {

enum counted_id {
#define ONEPASS_ID(name, ...) id_##name,
  ONEPASS_COUNTED_CUDA_FUNCTIONS(ONEPASS_ID)
#undef ONEPASS_ID
  counted_functions
};

std::atomic<long long> calls[counted_functions];  // static storage: starts at zero

}  // namespace

// __wrap_name counts and forwards. Its type must be the runtime's, or the link would quietly
// join two different functions; decltype(::name) cannot say (cuda_runtime.h, which nvcc
// includes, overloads eight of the names with templates), so name is declared again, with
// C linkage and the wrapper's type, in a namespace of its own: a C function's declarations
// in any namespace are one function, and where the types differ nvcc reports diagnostic 338
// ("more than one instance of overloaded function has C linkage"), an error here.
#pragma nv_diag_error 338
#define ONEPASS_WRAP(name, enqueues, R, params, args)                                            \
  extern "C" R __real_##name params;                                                             \
  extern "C" R __wrap_##name params {                                                            \
    calls[id_##name].fetch_add(1, std::memory_order_relaxed);                                    \
    return __real_##name args;                                                                   \
  }                                                                                              \
  namespace runtime_type_check {                                                                 \
  extern "C" decltype(__wrap_##name) name;                                                       \
  }
ONEPASS_COUNTED_CUDA_FUNCTIONS(ONEPASS_WRAP)
#undef ONEPASS_WRAP

namespace onepass::test {

const std::vector<counted_cuda_function>& counted_cuda_functions() {
  static const std::vector<counted_cuda_function> all = {
#define ONEPASS_ENTRY(name, enqueues, ...) {#name, enqueues},
      ONEPASS_COUNTED_CUDA_FUNCTIONS(ONEPASS_ENTRY)
#undef ONEPASS_ENTRY
  };
  return all;
}

std::vector<long long> cuda_call_counts() {
  std::vector<long long> counts(counted_functions);
  for (int i = 0; i < counted_functions; ++i) counts[i] = calls[i].load(std::memory_order_relaxed);
  return counts;
}

long long cuda_runtime_calls() {
  long long sum = 0;
  for (const long long c : cuda_call_counts()) sum += c;
  return sum;
}

long long cuda_enqueuing_calls() {
  const std::vector<long long> counts = cuda_call_counts();
  long long sum = 0;
  for (std::size_t i = 0; i < counts.size(); ++i)
    if (counted_cuda_functions()[i].enqueues) sum += counts[i];
  return sum;
}

std::string cuda_calls_since(const std::vector<long long>& before, bool enqueuing_only) {
  const std::vector<long long> now = cuda_call_counts();
  std::string made;
  for (std::size_t i = 0; i < now.size(); ++i) {
    const counted_cuda_function& f = counted_cuda_functions()[i];
    if (now[i] == before.at(i) || (enqueuing_only && !f.enqueues)) continue;
    made += (made.empty() ? "" : ", ") + std::string(f.name) + " x" + std::to_string(now[i] - before[i]);
  }
  return made;
}

}  // namespace onepass::test
