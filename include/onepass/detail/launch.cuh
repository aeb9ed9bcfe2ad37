// onepass/detail/launch.cuh — launching kernels and checking host-side arguments.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "onepass/detail/config.cuh"
#include "onepass/error.cuh"

namespace onepass {

namespace detail {

inline std::string bytes_str(std::size_t b) { return std::to_string(b) + " bytes"; }

// An attribute of the current device, asked of the runtime once per device (for the
// attributes used here, which are never 0).
template <cudaDeviceAttr Attr>
int device_attribute() {
  constexpr int max_devices = 64;
  static std::atomic<int> known[max_devices] = {};  // 0: not asked yet
  int device = 0;
  ONEPASS_CUDA_TRY(cudaGetDevice(&device));
  if (device < max_devices)
    if (const int value = known[device].load(std::memory_order_relaxed)) return value;
  int value = 0;
  ONEPASS_CUDA_TRY(cudaDeviceGetAttribute(&value, Attr, device));
  if (device < max_devices) known[device].store(value, std::memory_order_relaxed);
  return value;
}

// The current device's compute capability major version.
inline int device_major() { return device_attribute<cudaDevAttrComputeCapabilityMajor>(); }

// The current device's number of SMs.
inline int multiprocessor_count() { return device_attribute<cudaDevAttrMultiProcessorCount>(); }

// The most dynamic shared memory a block may opt into on the current device.
inline int max_shared_bytes_per_block() { return device_attribute<cudaDevAttrMaxSharedMemoryPerBlockOptin>(); }

// Peak DRAM bandwidth in GB/s from a memory clock (kHz) and bus width (bits): two
// transfers a clock on every bit (HBM3 at 2.619 GHz on a 5120-bit bus: 3352 GB/s).
constexpr long long peak_dram_gbps(long long memory_clock_khz, long long bus_width_bits) {
  return memory_clock_khz * 2 * (bus_width_bits / 8) / 1000000;
}

// The current device's peak DRAM bandwidth in GB/s.
inline long long peak_dram_gbps() {
  return peak_dram_gbps(device_attribute<cudaDevAttrMemoryClockRate>(),
                        device_attribute<cudaDevAttrGlobalMemoryBusWidth>());
}

inline bool supports_programmatic_launch() { return device_major() >= 9; }

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

// Launches `kernel` through cudaLaunchKernelExC with `attribute` (when `with_attribute`)
// and returns the launch's own error.
template <class... Params, class... Args>
cudaError_t launch_with_attribute_or_error(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
                                           cudaStream_t stream, cudaLaunchAttribute attribute, bool with_attribute,
                                           Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "wrong number of kernel arguments");
  cudaError_t e = cudaSuccess;
  auto launch_with = [&](std::remove_cv_t<std::remove_reference_t<Params>>... typed) {
    void* ptrs[] = {static_cast<void*>(&typed)..., nullptr};
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    config.attrs = &attribute;
    config.numAttrs = with_attribute ? 1 : 0;
    e = cudaLaunchKernelExC(&config, reinterpret_cast<const void*>(kernel), ptrs);
  };
  launch_with(static_cast<Params>(args)...);
  return e;
}

// The same, throwing cuda_error if the launch fails.
template <class... Params, class... Args>
void launch_with_attribute(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
                           cudaStream_t stream, cudaLaunchAttribute attribute, bool with_attribute,
                           Args&&... args) {
  ONEPASS_CUDA_TRY(launch_with_attribute_or_error(kernel, grid, block, smem, stream, attribute, with_attribute,
                                                  std::forward<Args>(args)...));
}

// Launches `kernel` with programmatic dependent launch (Hopper and newer): the grid may be
// scheduled while the previous kernel in the stream is still running, and must wait for
// it with wait_for_prior_grids() before touching memory that kernel may write. That hides
// most of the launch latency of a short second kernel. Where the device is older, this
// is a plain launch (and the wait is a no-op there).
template <class... Params, class... Args>
void launch_programmatic(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
                         cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  launch_with_attribute(kernel, grid, block, smem, stream, attribute, supports_programmatic_launch(),
                        std::forward<Args>(args)...);
}

// Launches `kernel` cooperatively: every block is resident at once, so the kernel may use
// cooperative_groups::this_grid().sync(). Capturable in a CUDA graph. Size the grid with
// resident_blocks. Returns false, with the error cleared, when the runtime refuses the grid
// because it does not fit at once (cudaErrorCooperativeLaunchTooLarge: the SMs this process
// may use can be fewer than the device's count that resident_blocks sizes grids by, under
// an MPS partition for instance) or refuses cooperative launches (cudaErrorNotSupported);
// the callers then take a path that needs no co-residency. Throws on any other error.
template <class... Params, class... Args>
bool try_launch_cooperative(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
                            cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeCooperative;
  attribute.val.cooperative = 1;
  const cudaError_t e = launch_with_attribute_or_error(kernel, grid, block, smem, stream, attribute, true,
                                                       std::forward<Args>(args)...);
  if (e == cudaErrorCooperativeLaunchTooLarge || e == cudaErrorNotSupported) {
    (void)cudaGetLastError();  // not sticky; clear it so that later checks do not see it
    return false;
  }
  ONEPASS_CUDA_TRY(e);
  return true;
}

// Lets Kernel launch with `shared_bytes` of dynamic shared memory on the current device:
// above 48 KiB that needs an opt-in, made once per device. Returns false, changing
// nothing, where the device gives a block less than that (its opt-in limit, e.g. 99 KiB on
// sm_86/sm_89/sm_120 against 227 KiB on sm_90): the callers then take a path that needs
// less, or report it (require_dynamic_shared).
template <auto Kernel>
bool allow_dynamic_shared(int shared_bytes) {
  if (shared_bytes <= 48 * 1024) return true;
  constexpr int max_devices = 64;
  static std::atomic<bool> done[max_devices] = {};
  int device = 0;
  ONEPASS_CUDA_TRY(cudaGetDevice(&device));
  if (device < max_devices && done[device].load(std::memory_order_relaxed)) return true;
  if (shared_bytes > max_shared_bytes_per_block()) return false;
  ONEPASS_CUDA_TRY(cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
  if (device < max_devices) done[device].store(true, std::memory_order_relaxed);
  return true;
}

// allow_dynamic_shared, for a kernel that has no smaller stand-in: throws cuda_error
// (cudaErrorNotSupported) naming `what` and both sizes where the device gives too little.
template <auto Kernel>
void require_dynamic_shared(int shared_bytes, const char* what) {
  if (!allow_dynamic_shared<Kernel>(shared_bytes))
    throw cuda_error(cudaErrorNotSupported, std::string("launching ") + what + " with " +
                                                bytes_str(static_cast<std::size_t>(shared_bytes)) +
                                                " of shared memory a block (this GPU allows " +
                                                bytes_str(static_cast<std::size_t>(max_shared_bytes_per_block())) +
                                                ")");
}

// How many blocks of Kernel (with `threads` threads and `shared_bytes` of dynamic shared
// memory) the current device runs at once: the persistent grid. 0 where the device cannot
// run one at all (too little shared memory: see allow_dynamic_shared); callers then take
// another path. Asked once per device and kernel; the dynamic shared memory limit is
// raised then when it passes 48 KiB.
template <auto Kernel>
int resident_blocks(int threads, int shared_bytes) {
  constexpr int max_devices = 64;
  static std::atomic<int> known[max_devices] = {};  // 0: not asked yet; -1: none fit
  int device = 0;
  ONEPASS_CUDA_TRY(cudaGetDevice(&device));
  if (device < max_devices)
    if (const int blocks = known[device].load(std::memory_order_relaxed)) return blocks > 0 ? blocks : 0;
  int blocks = 0;
  if (allow_dynamic_shared<Kernel>(shared_bytes)) {
    int per_sm = 0, sms = 0;
    ONEPASS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, threads, shared_bytes));
    ONEPASS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    blocks = per_sm > 0 ? per_sm * sms : 1;
  }
  if (device < max_devices) known[device].store(blocks > 0 ? blocks : -1, std::memory_order_relaxed);
  return blocks;
}

#if defined(__CUDACC__)
// The device side of launch_programmatic. Both are no-ops before sm_90 and in a grid
// that was launched normally.
// Waits until every grid this one depends on has finished and its writes are visible.
__device__ ONEPASS_FORCEINLINE void wait_for_prior_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
// Lets the next grid in the stream (if launched programmatically) be scheduled once
// every block of this grid has called this or exited; it still waits for this grid's
// completion in wait_for_prior_grids() before reading what this grid writes.
__device__ ONEPASS_FORCEINLINE void allow_dependent_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
#endif

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
