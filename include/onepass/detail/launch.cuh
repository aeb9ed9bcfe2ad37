// onepass/detail/launch.cuh — launching kernels and checking host-side arguments.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "onepass/error.cuh"

namespace onepass {

// Caller-provided scratch memory for the allocation-free ("workspace") call style.
struct workspace {
  void* data = nullptr;
  std::size_t bytes = 0;
};

namespace detail {

// Launches `kernel` and throws cuda_error if the launch itself fails. Unlike a <<< >>>
// launch followed by cudaGetLastError, the error returned is this launch's own, never an
// unrelated earlier one.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
            cudaStream_t stream, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "wrong number of kernel arguments");
  // Convert each argument to the parameter type first so the pointers below point at
  // objects of exactly the kernel's parameter types.
  auto launch_with = [&](std::remove_cv_t<std::remove_reference_t<Params>>... typed) {
    void* ptrs[] = {static_cast<void*>(&typed)..., nullptr};
    ONEPASS_CUDA_TRY(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, ptrs,
                                      smem, stream));
  };
  launch_with(static_cast<Params>(args)...);
}

inline std::string bytes_str(std::size_t b) { return std::to_string(b) + " bytes"; }

// Argument checks shared by every device-wide call. All of them run before anything is
// enqueued, so a call that throws has written nothing.
inline void check_count(long long n, const char* name = "n") {
  if (n < 0) throw invalid_argument(name, "is negative (" + std::to_string(n) + ")");
}

template <class T>
void check_pointer(const T* p, long long n, const char* name) {
  if (n == 0) return;  // an empty range may be null
  if (p == nullptr) throw invalid_argument(name, "is null but the range holds " +
                                                     std::to_string(n) + " items");
  if (reinterpret_cast<std::uintptr_t>(p) % alignof(T) != 0)
    throw invalid_argument(name, "is not aligned to its element type (" +
                                     std::to_string(alignof(T)) + "-byte alignment needed)");
}

// Two ranges of n items of T either coincide (in place) or do not overlap.
template <class T>
void check_no_partial_overlap(const T* in, const T* out, long long n, const char* in_name,
                              const char* out_name) {
  if (n == 0 || in == out) return;
  const auto a = reinterpret_cast<std::uintptr_t>(in);
  const auto b = reinterpret_cast<std::uintptr_t>(out);
  const auto len = static_cast<std::uintptr_t>(n) * sizeof(T);
  if (a < b + len && b < a + len)
    throw invalid_argument(out_name, std::string("overlaps '") + in_name +
                                         "' without being equal to it (in place means " +
                                         out_name + " == " + in_name + ")");
}

// The GPU must be able to read and write the memory: device or managed allocations.
// Pageable and pinned host memory are refused (pinned memory would work, at PCIe speed,
// which is never what a caller of a device-wide primitive wants).
inline void check_device_accessible(const void* p, long long n, const char* name) {
  if (n == 0 || p == nullptr) return;
  cudaPointerAttributes attr{};
  const cudaError_t e = cudaPointerGetAttributes(&attr, p);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // cudaPointerGetAttributes errors are not sticky; clear it
    throw cuda_error(e, std::string("cudaPointerGetAttributes('") + name + "')");
  }
  if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
    throw invalid_argument(name, attr.type == cudaMemoryTypeHost
                                     ? "points to pinned host memory; device or managed memory is needed"
                                     : "points to host memory; device or managed memory is needed");
}

inline void check_workspace(const workspace& ws, std::size_t needed) {
  if (needed == 0) return;
  if (ws.data == nullptr)
    throw invalid_argument("workspace", "is null but this call needs " + bytes_str(needed));
  if (ws.bytes < needed)
    throw invalid_argument("workspace", "holds " + bytes_str(ws.bytes) + " but this call needs " +
                                            bytes_str(needed));
  if (reinterpret_cast<std::uintptr_t>(ws.data) % 16 != 0)
    throw invalid_argument("workspace", "is not 16-byte aligned");
}

}  // namespace detail
}  // namespace onepass
