// Definitions of api.h's templates over the onepass workspace-style calls. Each generated
// kernels_<primitive>_<type>.cu includes this file and instantiates one primitive for one
// type (see python/CMakeLists.txt), so the build compiles them in parallel.
#pragma once

#include <cuda_bf16.h>

#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "api.h"
#include "onepass/histogram.cuh"
#include "onepass/radix_sort.cuh"
#include "onepass/reduce.cuh"
#include "onepass/rms_norm.cuh"
#include "onepass/scan.cuh"
#include "onepass/segmented_scan.cuh"
#include "onepass/select.cuh"

namespace onepass_py {

// Makes `device` current for the call and restores the caller's device after it.
class device_guard {
 public:
  explicit device_guard(int device) {
    ONEPASS_CUDA_TRY(cudaGetDevice(&previous_));
    if (previous_ != device) ONEPASS_CUDA_TRY(cudaSetDevice(device));
  }
  ~device_guard() {
    int now = previous_;
    if (cudaGetDevice(&now) == cudaSuccess && now != previous_) (void)cudaSetDevice(previous_);
  }
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int previous_ = 0;
};

template <class T>
T* ptr(addr a) {
  return reinterpret_cast<T*>(a);
}
inline cudaStream_t stream_of(const launch& l) { return reinterpret_cast<cudaStream_t>(l.stream); }
inline onepass::workspace ws_of(const launch& l) { return {reinterpret_cast<void*>(l.ws), l.ws_bytes}; }

// A scalar of T from the 8 bytes the Python layer packed it in (little-endian, low bytes).
template <class T>
T from_bits(std::uint64_t bits) {
  static_assert(sizeof(T) <= sizeof(bits) && std::is_trivially_copyable_v<T>);
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

// Calls f(Op{}) with the functor named by o.
template <class F>
void visit_op(op o, F&& f) {
  switch (o) {
    case op::sum: return f(onepass::plus{});
    case op::max: return f(onepass::maximum{});
    case op::min: return f(onepass::minimum{});
  }
  throw std::invalid_argument("onepass: argument 'op' is not sum, max or min");
}

// item <c> value, with c chosen at run time (the same for every thread: no divergence).
template <class T>
struct compare_with {
  cmp c;
  T value;
  __host__ __device__ bool operator()(const T& x) const {
    switch (c) {
      case cmp::gt: return x > value;
      case cmp::ge: return x >= value;
      case cmp::lt: return x < value;
      case cmp::le: return x <= value;
      case cmp::eq: return x == value;
      case cmp::ne: return x != value;
    }
    return false;
  }
};

// --- scan, reduce ---
// det: 0 not_guaranteed, 1 run_to_run, 2 gpu_to_gpu (onepass::determinism's order).
inline onepass::determinism determinism_of(int det) { return static_cast<onepass::determinism>(det); }

template <class T>
std::size_t scan_workspace(long long n, int det) {
  return onepass::scan_workspace_bytes<T>(n, determinism_of(det));
}

template <class T>
void scan(op o, bool inclusive, addr in, long long n, addr out, std::uint64_t init_bits, int det, const launch& l) {
  device_guard g(l.device);
  visit_op(o, [&](auto f) {
    if (inclusive)
      onepass::inclusive_scan(ptr<const T>(in), n, ptr<T>(out), f, determinism_of(det), ws_of(l), stream_of(l));
    else
      onepass::exclusive_scan(ptr<const T>(in), n, ptr<T>(out), from_bits<T>(init_bits), f, determinism_of(det),
                              ws_of(l), stream_of(l));
  });
}

template <class T>
std::size_t reduce_workspace(long long n, int det) {
  return onepass::reduce_workspace_bytes<T>(n, determinism_of(det));
}

template <class T>
void reduce(op o, addr in, long long n, addr out, std::uint64_t init_bits, int det, const launch& l) {
  device_guard g(l.device);
  visit_op(o, [&](auto f) {
    onepass::reduce(ptr<const T>(in), n, ptr<T>(out), from_bits<T>(init_bits), f, determinism_of(det), ws_of(l),
                    stream_of(l));
  });
}

// --- histogram ---
template <class Sample, class F>
void visit_counter(bool counts64, F&& f) {
  if (counts64)
    f(static_cast<long long*>(nullptr));
  else
    f(static_cast<int*>(nullptr));
}

template <class Sample>
std::size_t histogram_range_workspace(bool counts64, int num_boundaries) {
  std::size_t bytes = 0;
  visit_counter<Sample>(counts64, [&](auto* tag) {
    using C = std::remove_pointer_t<decltype(tag)>;
    bytes = onepass::histogram_range_workspace_bytes<Sample, C>(0, num_boundaries);
  });
  return bytes;
}

template <class Sample>
void histogram_even(bool counts64, addr samples, long long n, int bins, long long lower_i, long long upper_i,
                    double lower_f, double upper_f, addr counts, const launch& l) {
  device_guard g(l.device);
  visit_counter<Sample>(counts64, [&](auto* tag) {
    using C = std::remove_pointer_t<decltype(tag)>;
    if constexpr (std::is_floating_point_v<Sample>)
      onepass::histogram_even(ptr<const Sample>(samples), n, bins, static_cast<float>(lower_f),
                              static_cast<float>(upper_f), ptr<C>(counts), ws_of(l), stream_of(l));
    else
      onepass::histogram_even(ptr<const Sample>(samples), n, bins, lower_i, upper_i, ptr<C>(counts), ws_of(l),
                              stream_of(l));
  });
}

template <class Sample>
void histogram_range(bool counts64, addr samples, long long n, const double* boundaries, int num_boundaries,
                     addr counts, const launch& l) {
  device_guard g(l.device);
  using level = onepass::histogram_level_t<Sample>;
  std::vector<level> levels(boundaries, boundaries + (num_boundaries > 0 ? num_boundaries : 0));
  visit_counter<Sample>(counts64, [&](auto* tag) {
    using C = std::remove_pointer_t<decltype(tag)>;
    onepass::histogram_range(ptr<const Sample>(samples), n, levels.data(), num_boundaries, ptr<C>(counts), ws_of(l),
                             stream_of(l));
  });
}

// --- compaction ---
template <class U>
std::size_t select_workspace(long long n) {
  return onepass::select_workspace_bytes<U>(n);
}

template <class U>
void select_flagged(addr in, addr flags, long long n, addr out, addr count, const launch& l) {
  device_guard g(l.device);
  onepass::select_flagged(ptr<const U>(in), ptr<const std::uint8_t>(flags), n, ptr<U>(out),
                          ptr<onepass::index_t>(count), ws_of(l), stream_of(l));
}

template <class T>
void select_if(cmp c, std::uint64_t value_bits, addr in, long long n, addr out, addr count, const launch& l) {
  device_guard g(l.device);
  onepass::select_if(ptr<const T>(in), n, ptr<T>(out), ptr<onepass::index_t>(count),
                     compare_with<T>{c, from_bits<T>(value_bits)}, ws_of(l), stream_of(l));
}

template <class T>
void partition(cmp c, std::uint64_t value_bits, addr in, long long n, addr out_selected, addr out_rejected,
               addr count, const launch& l) {
  device_guard g(l.device);
  onepass::partition(ptr<const T>(in), n, ptr<T>(out_selected), ptr<T>(out_rejected), ptr<onepass::index_t>(count),
                     compare_with<T>{c, from_bits<T>(value_bits)}, ws_of(l), stream_of(l));
}

template <class T>
void unique(addr in, long long n, addr out, addr count, const launch& l) {
  device_guard g(l.device);
  onepass::unique(ptr<const T>(in), n, ptr<T>(out), ptr<onepass::index_t>(count), onepass::equal_to{}, ws_of(l),
                  stream_of(l));
}

// --- radix sort ---
template <class F>
void visit_value_bytes(int value_bytes, F&& f) {
  switch (value_bytes) {
    case 0: return f(static_cast<onepass::detail::keys_only*>(nullptr));
    case 4: return f(static_cast<std::uint32_t*>(nullptr));
    case 8: return f(static_cast<std::uint64_t*>(nullptr));
  }
  throw std::invalid_argument("onepass: argument 'values' has items of " + std::to_string(value_bytes) +
                              " bytes; 4 or 8 are sorted");
}

template <class Key>
std::size_t sort_workspace(int value_bytes, long long n) {
  std::size_t bytes = 0;
  visit_value_bytes(value_bytes, [&](auto* tag) {
    using V = std::remove_pointer_t<decltype(tag)>;
    if constexpr (std::is_same_v<V, onepass::detail::keys_only>)
      bytes = onepass::radix_sort_workspace_bytes<Key>(n);
    else
      bytes = onepass::radix_sort_workspace_bytes<Key, V>(n);
  });
  return bytes;
}

template <class Key>
void sort(int value_bytes, addr keys_in, addr keys_out, addr values_in, addr values_out, long long n,
          bool descending, int begin_bit, int end_bit, const launch& l) {
  device_guard g(l.device);
  onepass::radix_sort_options options;
  options.order = descending ? onepass::sort_order::descending : onepass::sort_order::ascending;
  options.begin_bit = begin_bit;
  options.end_bit = end_bit;
  visit_value_bytes(value_bytes, [&](auto* tag) {
    using V = std::remove_pointer_t<decltype(tag)>;
    if constexpr (std::is_same_v<V, onepass::detail::keys_only>)
      onepass::radix_sort_keys(ptr<const Key>(keys_in), ptr<Key>(keys_out), n, options, ws_of(l), stream_of(l));
    else
      onepass::radix_sort_pairs(ptr<const Key>(keys_in), ptr<Key>(keys_out), ptr<const V>(values_in),
                                ptr<V>(values_out), n, options, ws_of(l), stream_of(l));
  });
}

// --- segmented scans ---
template <class T>
std::size_t segmented_scan_workspace(long long n, int det) {
  return onepass::segmented_scan_workspace_bytes<T>(n, determinism_of(det));
}

template <class T>
void segmented_scan_flags(op o, bool inclusive, addr in, addr flags, long long n, addr out, std::uint64_t init_bits,
                          int det, const launch& l) {
  device_guard g(l.device);
  visit_op(o, [&](auto f) {
    const auto* heads = ptr<const std::uint8_t>(flags);
    if (inclusive)
      onepass::segmented_inclusive_scan(ptr<const T>(in), heads, n, ptr<T>(out), f, determinism_of(det), ws_of(l),
                                        stream_of(l));
    else
      onepass::segmented_exclusive_scan(ptr<const T>(in), heads, n, ptr<T>(out), from_bits<T>(init_bits), f,
                                        determinism_of(det), ws_of(l), stream_of(l));
  });
}

template <class F>
void visit_offset_bytes(int offset_bytes, F&& f) {
  if (offset_bytes == 4) return f(static_cast<int*>(nullptr));
  if (offset_bytes == 8) return f(static_cast<long long*>(nullptr));
  throw std::invalid_argument("onepass: argument 'offsets' must be int32 or int64");
}

template <class T>
std::size_t segmented_scan_offsets_workspace(int offset_bytes, long long n, int det) {
  std::size_t bytes = 0;
  visit_offset_bytes(offset_bytes, [&](auto* tag) {
    using O = std::remove_pointer_t<decltype(tag)>;
    bytes = onepass::segmented_scan_workspace_bytes<T>(n, onepass::segment_offsets<O>{}, determinism_of(det));
  });
  return bytes;
}

template <class T>
void segmented_scan_offsets(op o, bool inclusive, addr in, long long n, int offset_bytes, addr begin, addr end,
                            long long count, bool copy_gaps, addr out, std::uint64_t init_bits, int det,
                            const launch& l) {
  device_guard g(l.device);
  visit_offset_bytes(offset_bytes, [&](auto* tag) {
    using O = std::remove_pointer_t<decltype(tag)>;
    const onepass::segment_offsets<O> segments{ptr<const O>(begin), ptr<const O>(end), count,
                                               copy_gaps ? onepass::gap_items::copied : onepass::gap_items::untouched};
    visit_op(o, [&](auto f) {
      if (inclusive)
        onepass::segmented_inclusive_scan(ptr<const T>(in), n, segments, ptr<T>(out), f, determinism_of(det), ws_of(l),
                                          stream_of(l));
      else
        onepass::segmented_exclusive_scan(ptr<const T>(in), n, segments, ptr<T>(out), from_bits<T>(init_bits), f,
                                          determinism_of(det), ws_of(l), stream_of(l));
    });
  });
}

template <class T>
void scan_by_key(op o, bool inclusive, int key_bytes, addr keys, addr in, long long n, addr out,
                 std::uint64_t init_bits, int det, const launch& l) {
  device_guard g(l.device);
  auto run = [&](auto* key_tag) {
    using K = std::remove_pointer_t<decltype(key_tag)>;
    visit_op(o, [&](auto f) {
      if (inclusive)
        onepass::inclusive_scan_by_key(ptr<const K>(keys), ptr<const T>(in), n, ptr<T>(out), f, onepass::equal_to{},
                                       determinism_of(det), ws_of(l), stream_of(l));
      else
        onepass::exclusive_scan_by_key(ptr<const K>(keys), ptr<const T>(in), n, ptr<T>(out), from_bits<T>(init_bits),
                                       f, onepass::equal_to{}, determinism_of(det), ws_of(l), stream_of(l));
    });
  };
  if (key_bytes == 4) return run(static_cast<std::uint32_t*>(nullptr));
  if (key_bytes == 8) return run(static_cast<std::uint64_t*>(nullptr));
  throw std::invalid_argument("onepass: argument 'keys' must have items of 4 or 8 bytes");
}

// --- rms_norm ---
template <class T>
void rms_norm(addr x, addr weight, addr y, long long rows, long long width, float eps, const launch& l) {
  device_guard g(l.device);
  using D = std::conditional_t<std::is_same_v<T, bf16_bits>, __nv_bfloat16, T>;
  onepass::rms_norm(ptr<const D>(x), ptr<const D>(weight), ptr<D>(y), rows, width, eps, stream_of(l));
}

}  // namespace onepass_py

// Explicit instantiations, one primitive for one type per generated file (which opens
// namespace onepass_py around them).
#define ONEPASS_PY_INSTANTIATE_scan(T)                                                        \
  template std::size_t scan_workspace<T>(long long, int);                              \
  template void scan<T>(op, bool, addr, long long, addr, std::uint64_t, int, const launch&);
#define ONEPASS_PY_INSTANTIATE_reduce(T)                                                      \
  template std::size_t reduce_workspace<T>(long long, int);                            \
  template void reduce<T>(op, addr, long long, addr, std::uint64_t, int, const launch&);
#define ONEPASS_PY_INSTANTIATE_histogram(T)                                                   \
  template std::size_t histogram_range_workspace<T>(bool, int);                   \
  template void histogram_even<T>(bool, addr, long long, int, long long, long long, double, double, \
                                              addr, const launch&);                           \
  template void histogram_range<T>(bool, addr, long long, const double*, int, addr, const launch&);
#define ONEPASS_PY_INSTANTIATE_flagged(U)                                                     \
  template std::size_t select_workspace<U>(long long);                            \
  template void select_flagged<U>(addr, addr, long long, addr, addr, const launch&);
#define ONEPASS_PY_INSTANTIATE_select(T)                                                      \
  template void select_if<T>(cmp, std::uint64_t, addr, long long, addr, addr, const launch&); \
  template void partition<T>(cmp, std::uint64_t, addr, long long, addr, addr, addr, const launch&); \
  template void unique<T>(addr, long long, addr, addr, const launch&);
#define ONEPASS_PY_INSTANTIATE_sort(T)                                                        \
  template std::size_t sort_workspace<T>(int, long long);                         \
  template void sort<T>(int, addr, addr, addr, addr, long long, bool, int, int, const launch&);
#define ONEPASS_PY_INSTANTIATE_segflags(T)                                                                  \
  template std::size_t segmented_scan_workspace<T>(long long, int);                                         \
  template void segmented_scan_flags<T>(op, bool, addr, addr, long long, addr, std::uint64_t, int, const launch&);
#define ONEPASS_PY_INSTANTIATE_segoffsets(T)                                                                \
  template std::size_t segmented_scan_offsets_workspace<T>(int, long long, int);                            \
  template void segmented_scan_offsets<T>(op, bool, addr, long long, int, addr, addr, long long, bool, addr, \
                                          std::uint64_t, int, const launch&);
#define ONEPASS_PY_INSTANTIATE_bykey(T) \
  template void scan_by_key<T>(op, bool, int, addr, addr, long long, addr, std::uint64_t, int, const launch&);
#define ONEPASS_PY_INSTANTIATE_rms_norm(T)                                                    \
  template void rms_norm<T>(addr, addr, addr, long long, long long, float, const launch&);
