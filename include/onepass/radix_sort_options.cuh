// onepass/radix_sort_options.cuh — the options and buffer types of every onepass radix
// sort (the production onepass::radix_sort_* calls and the teaching ladder's variants),
// and the host-side checks they all make before anything is enqueued.
//
// Order: keys compare by the ordered bit patterns of detail/radix_key.cuh: integers as
// numbers; floats as numbers with -0.0 before +0.0, and NaNs after +inf (sign bit clear)
// or before -inf (sign bit set). Equal keys keep their input order (stable) in both
// directions.
// Bit range: only bits [begin_bit, end_bit) of those ordered patterns are compared (all
// of them by default); keys equal on those bits keep their input order.
#pragma once

#include <string>
#include <type_traits>

#include "onepass/detail/launch.cuh"
#include "onepass/detail/radix_key.cuh"

namespace onepass {

// sort_order: the direction of a sort; stable in both (equal keys keep their input order).
enum class sort_order { ascending, descending };

// radix_sort_options: how a sort compares its keys. Every sort checks them before anything
// is enqueued and throws onepass::invalid_argument naming "options.order" (neither
// ascending nor descending), "options.begin_bit" (outside [0, the key's bits]) or
// "options.end_bit" (outside [begin_bit, the key's bits], and not -1). begin_bit ==
// end_bit compares nothing: the order stays as it is.
struct radix_sort_options {
  sort_order order = sort_order::ascending;
  int begin_bit = 0;  // least significant bit compared
  int end_bit = -1;   // one past the most significant bit compared; -1: the key's width
};

// double_buffer: two buffers of n items each, for sorts that ping-pong between them
// instead of copying the result back: the sort reads current(), and on return `selector`
// names the buffer that holds the sorted items (both buffers' contents are overwritten).
// As CUB's DoubleBuffer. The sorts check that selector is 0 or 1 and that the buffers are
// distinct and do not overlap.
template <class T>
struct double_buffer {
  T* buffers[2] = {nullptr, nullptr};
  int selector = 0;

  double_buffer() = default;
  double_buffer(T* current, T* alternate) : buffers{current, alternate} {}
  T* current() const { return buffers[selector]; }
  T* alternate() const { return buffers[selector ^ 1]; }
};

namespace detail {

// The Value type of a sort of keys alone (its value pointers are null).
struct keys_only {};

template <class Key>
constexpr void static_check_radix_key() {
  static_assert(radix_key<Key>::supported,
                "radix sort keys: uint32, int32, float, uint64, int64 or double (4- or 8-byte integers and floats)");
}

template <class Value>
constexpr void static_check_radix_value() {
  static_assert(std::is_same_v<Value, keys_only> ||
                    (std::is_trivially_copyable_v<Value> && (sizeof(Value) == 4 || sizeof(Value) == 8)),
                "radix sort values: a trivially copyable type of 4 or 8 bytes");
}

template <class Value>
constexpr bool has_values = !std::is_same_v<Value, keys_only>;

// The bit range an options struct asks for, checked against Key's width.
struct radix_bit_range {
  int begin;
  int end;
  int bits() const { return end - begin; }
};

template <class Key>
radix_bit_range check_radix_options(const radix_sort_options& options) {
  constexpr int width = radix_key<Key>::bits;
  if (options.order != sort_order::ascending && options.order != sort_order::descending)
    throw invalid_argument("options.order", "is neither ascending nor descending");
  const int end = options.end_bit == -1 ? width : options.end_bit;
  if (options.begin_bit < 0 || options.begin_bit > width)
    throw invalid_argument("options.begin_bit", "is " + std::to_string(options.begin_bit) + ", outside [0, " +
                                                    std::to_string(width) + "] for this key type");
  if (end < options.begin_bit || end > width)
    throw invalid_argument("options.end_bit", "is " + std::to_string(options.end_bit) + ", outside [begin_bit = " +
                                                  std::to_string(options.begin_bit) + ", " + std::to_string(width) +
                                                  "] for this key type (or -1 for all bits)");
  return {options.begin_bit, end};
}

// Keys and (unless Value is keys_only) values: counts, null pointers, overlaps. An
// output may be its own input (in place) but may not partially overlap it, and keys and
// values may not overlap each other.
template <class Key, class Value>
void check_radix_sort_args(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                           index_t n) {
  static_check_radix_key<Key>();
  static_check_radix_value<Value>();
  check_count(n);
  check_pointer(keys_in, n, "keys_in");
  check_pointer(keys_out, n, "keys_out");
  check_no_partial_overlap(keys_in, keys_out, n, "keys_in", "keys_out");
  if constexpr (has_values<Value>) {
    check_pointer(values_in, n, "values_in");
    check_pointer(values_out, n, "values_out");
    check_no_partial_overlap(values_in, values_out, n, "values_in", "values_out");
    const auto overlaps = [n](const void* a, std::size_t a_size, const void* b, std::size_t b_size) {
      if (n == 0) return false;
      const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
      return x < y + n * b_size && y < x + n * a_size;
    };
    if (overlaps(keys_out, sizeof(Key), values_out, sizeof(Value)))
      throw invalid_argument("values_out", "overlaps 'keys_out'");
    if (overlaps(keys_in, sizeof(Key), values_out, sizeof(Value)))
      throw invalid_argument("values_out", "overlaps 'keys_in'");
    if (overlaps(keys_out, sizeof(Key), values_in, sizeof(Value)))
      throw invalid_argument("keys_out", "overlaps 'values_in'");
  } else {
    (void)values_in;
    (void)values_out;
  }
}

}  // namespace detail
}  // namespace onepass
