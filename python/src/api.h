// The extension's internal interface between the nanobind module (module.cpp, host C++)
// and the kernels (the generated *.cu files, one per primitive and type, so that they
// compile in parallel). Arrays travel as integer addresses; the Python layer has checked
// every argument's type, device and size before any of these is called, and the onepass
// calls check them again (their onepass::invalid_argument becomes a ValueError).
#pragma once

#include <cstddef>
#include <cstdint>

namespace onepass_py {

using addr = std::uintptr_t;

// Element types, as the Python layer numbers them (onepass/_dtypes.py keeps the same table).
enum class dtype : int {
  bool_ = 0, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, bfloat16, float32, float64
};

// The binary operators of the scans and reductions.
enum class op : int { sum = 0, max = 1, min = 2 };

// The comparisons select_if and partition keep items by: item <cmp> value.
enum class cmp : int { gt = 0, ge, lt, le, eq, ne };

// Where and on what a call runs: the device the arrays are on (made current for the call
// and restored after) and the stream (a cudaStream_t as an integer; 0 is the legacy
// default stream, 1 and 2 the legacy and per-thread handles). Scratch: `ws` of `ws_bytes`
// bytes, allocated by the caller's framework on that stream.
struct launch {
  int device;
  addr stream;
  addr ws;
  std::size_t ws_bytes;
};

// A bfloat16 as the host sees it: its 16 bits (the kernels use __nv_bfloat16).
struct bf16_bits {
  std::uint16_t bits;
};

// --- scan, reduce (T: int32, uint32, int64, uint64, float, double as long long etc.) ---
template <class T>
std::size_t scan_workspace(long long n, int det);  // det: onepass::determinism's order
template <class T>
void scan(op o, bool inclusive, addr in, long long n, addr out, std::uint64_t init_bits, int det, const launch& l);
template <class T>
std::size_t reduce_workspace(long long n, int det);
template <class T>
void reduce(op o, addr in, long long n, addr out, std::uint64_t init_bits, int det, const launch& l);

// --- histogram (Sample: 8/16/32-bit integers, float; counts int32 or int64) ---
template <class Sample>
std::size_t histogram_range_workspace(bool counts64, int num_boundaries);
template <class Sample>
void histogram_even(bool counts64, addr samples, long long n, int bins, long long lower_i, long long upper_i,
                    double lower_f, double upper_f, addr counts, const launch& l);
template <class Sample>
void histogram_range(bool counts64, addr samples, long long n, const double* boundaries, int num_boundaries,
                     addr counts, const launch& l);

// --- compaction ---
// Moved by size (U: uint8/16/32/64 for items of 1, 2, 4, 8 bytes); flags are 1-byte.
template <class U>
std::size_t select_workspace(long long n);
template <class U>
void select_flagged(addr in, addr flags, long long n, addr out, addr count, const launch& l);
// Typed (T: int32 ... double): comparisons and equality need the type.
template <class T>
void select_if(cmp c, std::uint64_t value_bits, addr in, long long n, addr out, addr count, const launch& l);
template <class T>
void partition(cmp c, std::uint64_t value_bits, addr in, long long n, addr out_selected, addr out_rejected,
               addr count, const launch& l);
template <class T>
void unique(addr in, long long n, addr out, addr count, const launch& l);

// --- radix sort (Key: int32 ... double; values moved by size: 0 none, 4 or 8 bytes) ---
template <class Key>
std::size_t sort_workspace(int value_bytes, long long n);
template <class Key>
void sort(int value_bytes, addr keys_in, addr keys_out, addr values_in, addr values_out, long long n,
          bool descending, int begin_bit, int end_bit, const launch& l);

// --- segmented scans (T: int32, int64, float, double) ---
// det: onepass::determinism's order (a fixed order for float and double; integers ignore it).
template <class T>
std::size_t segmented_scan_workspace(long long n, int det);
// head flags: 1-byte flags (bool, uint8, int8), nonzero starts a segment.
template <class T>
void segmented_scan_flags(op o, bool inclusive, addr in, addr flags, long long n, addr out, std::uint64_t init_bits,
                          int det, const launch& l);
// offsets: begin/end arrays of `offset_bytes` (4 or 8) each; CSR is begin = offsets,
// end = offsets + 1. copy_gaps: items in no segment are written with their input.
template <class T>
std::size_t segmented_scan_offsets_workspace(int offset_bytes, long long n, int det);
template <class T>
void segmented_scan_offsets(op o, bool inclusive, addr in, long long n, int offset_bytes, addr begin, addr end,
                            long long count, bool copy_gaps, addr out, std::uint64_t init_bits, int det,
                            const launch& l);
// by key: runs of equal keys (compared as `key_bytes`-byte integers: 4 or 8) are segments.
template <class T>
void scan_by_key(op o, bool inclusive, int key_bytes, addr keys, addr in, long long n, addr out,
                 std::uint64_t init_bits, int det, const launch& l);

// --- rms_norm (T: float, bf16_bits) ---
template <class T>
void rms_norm(addr x, addr weight, addr y, long long rows, long long width, float eps, const launch& l);

// The number of CUDA devices; throws std::runtime_error with the runtime's reason when
// there are none (no GPU, no driver).
int device_count();

// Whether the stream is being captured into a CUDA graph (true also where the runtime
// cannot tell).
bool stream_is_capturing(addr stream);

}  // namespace onepass_py
