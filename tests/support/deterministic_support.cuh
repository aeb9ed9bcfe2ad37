// What the determinism tests share (tests/test_deterministic.cu,
// tests/test_segmented_deterministic.cu): inputs whose sums round differently in almost
// every grouping, a kernel that floods the GPU with other work, a hash of output bytes.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <random>
#include <vector>

#include "onepass/segmented_scan.cuh"
#include "support/segmented_scan_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {

// Inputs on which the order of combination shows in the bits: magnitudes over 2^-20 ...
// 2^20, both signs (a sum of them rounds differently in almost every grouping).
template <class T>
std::vector<T> rounding_vector(long long n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<T>(std::ldexp(mantissa(rng), static_cast<int>(rng() % 41) - 20));
  return v;
}

// A kernel that keeps the GPU busy: reads and writes a large buffer, over and over.
__global__ void flood(float* data, long long n, int rounds) {
  for (int r = 0; r < rounds; ++r)
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * blockDim.x)
      data[i] = data[i] * 0.999f + 1.0f;
}

// FNV-1a over the output's bytes.
inline std::uint64_t hash_bytes(const void* data, std::size_t bytes) {
  std::uint64_t h = 1469598103934665603ull;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

// --- the segmented scan in every form ------------------------------------------------
// The forms a segmented scan takes its segments in: head flags, CSR offsets, begin/end
// arrays with gaps (items in no segment left alone, or copied), keys.
enum class segmented_form { flags, csr, gaps_untouched, gaps_copied, keys };
inline const std::vector<segmented_form>& all_segmented_forms() {
  static const std::vector<segmented_form> all{segmented_form::flags, segmented_form::csr,
                                               segmented_form::gaps_untouched, segmented_form::gaps_copied,
                                               segmented_form::keys};
  return all;
}
inline const char* form_name(segmented_form f) {
  switch (f) {
    case segmented_form::flags: return "flags";
    case segmented_form::csr: return "csr";
    case segmented_form::gaps_untouched: return "gaps_untouched";
    case segmented_form::gaps_copied: return "gaps_copied";
    default: return "keys";
  }
}
inline bool has_gaps(segmented_form f) {
  return f == segmented_form::gaps_untouched || f == segmented_form::gaps_copied;
}

// One array's segments (a distribution's lengths over n items) in every form, on the host
// and on the device. The keys also sit one int further on (keys_shifted + 1), so that
// they can be read misaligned.
struct segmented_input {
  long long n;
  std::vector<long long> offsets;
  std::vector<std::uint8_t> flags;
  begin_end gapped;
  std::vector<int> keys;
  device_buffer<std::uint8_t> d_flags;
  device_buffer<long long> d_offsets, d_begin, d_end;
  device_buffer<int> d_keys, d_keys_shifted;
  static std::vector<int> one_further(std::vector<int> v) {
    v.insert(v.begin(), 0);
    return v;
  }
  segmented_input(long long items, segment_distribution d, std::uint64_t seed)
      : n(items),
        offsets(csr_offsets(segment_lengths(d, items, seed))),
        flags(head_flags_of(offsets, items)),
        gapped(with_gaps(offsets, seed + 1)),
        keys(keys_of<int>(offsets, items, seed + 2)),
        d_flags(flags),
        d_offsets(offsets),
        d_begin(gapped.begin),
        d_end(gapped.end),
        d_keys(keys),
        d_keys_shifted(one_further(keys)) {}
  index_t count() const { return static_cast<index_t>(offsets.size()) - 1; }
  segment_offsets<long long> segments(segmented_form f) const {
    if (!has_gaps(f)) return csr_segments(d_offsets.get(), count());
    return {d_begin.get(), d_end.get(), count(),
            f == segmented_form::gaps_copied ? gap_items::copied : gap_items::untouched};
  }
  // The reference over `in` as `out` must end when it held `before` (0xA5 bytes: poison).
  template <class T, class Op>
  std::vector<T> reference(segmented_form f, const std::vector<T>& in, kind k, T init, Op op) const {
    if (!has_gaps(f)) return reference_segmented_scan(in, flags, k, init, op);
    std::vector<T> want = in;
    if (f == segmented_form::gaps_untouched) std::memset(static_cast<void*>(want.data()), 0xA5, want.size() * sizeof(T));
    reference_segmented_scan(in, gapped.begin, gapped.end, k, init, op, want);
    return want;
  }
};

// A segmented scan of `in` (n = s.n items) into `out` in form f, with determinism d, in
// either call style (the workspace style synchronises `stream` before freeing it).
template <class T, class Op>
void segmented_call(segmented_form f, const segmented_input& s, const T* in, T* out, kind k, T init, Op op,
                    determinism d, bool workspace_style, cudaStream_t stream, bool keys_misaligned = false) {
  const long long n = s.n;
  const bool ex = k == kind::exclusive;
  const int* keys = keys_misaligned ? s.d_keys_shifted.get() + 1 : s.d_keys.get();
  const auto segments = s.segments(f);
  if (!workspace_style) {
    switch (f) {
      case segmented_form::flags:
        if (ex) segmented_exclusive_scan(in, s.d_flags.get(), n, out, init, op, d, stream);
        else segmented_inclusive_scan(in, s.d_flags.get(), n, out, op, d, stream);
        return;
      case segmented_form::keys:
        if (ex) exclusive_scan_by_key(keys, in, n, out, init, op, equal_to{}, d, stream);
        else inclusive_scan_by_key(keys, in, n, out, op, equal_to{}, d, stream);
        return;
      default:
        if (ex) segmented_exclusive_scan(in, n, segments, out, init, op, d, stream);
        else segmented_inclusive_scan(in, n, segments, out, op, d, stream);
        return;
    }
  }
  const bool offsets_form = f != segmented_form::flags && f != segmented_form::keys;
  device_buffer<unsigned char> ws(static_cast<long long>(
      offsets_form ? segmented_scan_workspace_bytes<T>(n, segments, d) : segmented_scan_workspace_bytes<T>(n, d)));
  const workspace w{ws.get(), ws.bytes()};
  switch (f) {
    case segmented_form::flags:
      if (ex) segmented_exclusive_scan(in, s.d_flags.get(), n, out, init, op, d, w, stream);
      else segmented_inclusive_scan(in, s.d_flags.get(), n, out, op, d, w, stream);
      break;
    case segmented_form::keys:
      if (ex) exclusive_scan_by_key(keys, in, n, out, init, op, equal_to{}, d, w, stream);
      else inclusive_scan_by_key(keys, in, n, out, op, equal_to{}, d, w, stream);
      break;
    default:
      if (ex) segmented_exclusive_scan(in, n, segments, out, init, op, d, w, stream);
      else segmented_inclusive_scan(in, n, segments, out, op, d, w, stream);
      break;
  }
  throw_if(cudaStreamSynchronize(stream), "sync");  // before ws is freed
}

// The output of one gpu_to_gpu call on a poisoned `out` (offsets into in and out: items).
template <class T>
std::vector<T> segmented_once(segmented_form f, const segmented_input& s, const device_buffer<T>& in, int in_offset,
                              device_buffer<T>& out, int out_offset, kind k, cudaStream_t stream,
                              bool keys_misaligned = false) {
  out.poison();
  segmented_call(f, s, in.get() + in_offset, out.get() + out_offset, k, T{0.5}, plus{}, determinism::gpu_to_gpu,
                 true, stream, keys_misaligned);
  throw_if(cudaStreamSynchronize(stream), "sync");
  const std::vector<T> all = out.download();
  return std::vector<T>(all.begin() + out_offset, all.begin() + out_offset + s.n);
}

}  // namespace onepass::test
