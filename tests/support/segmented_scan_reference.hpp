// The CPU side of every segmented-scan check: segment-length distributions, the three
// ways of describing the segments (head flags, offsets with gaps, keys) built from one
// list of lengths, and the reference scans. No GoogleTest and no GPU here, so
// onepass-bench uses the same inputs and reference as the tests.
//
//   const auto lengths = segment_lengths(segment_distribution::power_law, n, seed);
//   const auto offsets = csr_offsets(lengths);            // count + 1 boundaries
//   const auto flags = head_flags_of(offsets, n);          // uint8_t, 1 at each segment start
//   const auto keys = keys_of(offsets, n, seed);          // equal within, different across
//   const auto want = reference_segmented_scan(values, flags, kind::inclusive, T{}, op);
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/reference.hpp"

namespace onepass::test {

// How long the segments are (the distributions).
enum class segment_distribution {
  all_1,           // every item its own segment
  all_32,          // segments of 32
  uniform_1_1000,  // lengths uniform in [1, 1000]
  power_law,       // Pareto lengths: P(length > x) = x^-1.2, x >= 1, capped at n
  one_segment,     // one segment of the whole array
  with_empty,      // lengths uniform in [0, 64]: about 1 in 65 segments empty, runs of them too
};

inline const char* distribution_name(segment_distribution d) {
  switch (d) {
    case segment_distribution::all_1: return "all_1";
    case segment_distribution::all_32: return "all_32";
    case segment_distribution::uniform_1_1000: return "uniform_1_1000";
    case segment_distribution::power_law: return "power_law";
    case segment_distribution::one_segment: return "one_segment";
    case segment_distribution::with_empty: return "with_empty";
  }
  return "?";
}

inline const std::vector<segment_distribution>& all_segment_distributions() {
  static const std::vector<segment_distribution> all{
      segment_distribution::all_1,     segment_distribution::all_32,      segment_distribution::uniform_1_1000,
      segment_distribution::power_law, segment_distribution::one_segment, segment_distribution::with_empty};
  return all;
}

// Segment lengths summing to exactly n (the last one cut short). with_empty also puts
// empty segments at the very start and end.
inline std::vector<long long> segment_lengths(segment_distribution d, long long n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<long long> lengths;
  if (d == segment_distribution::with_empty) lengths.push_back(0);
  long long covered = 0;
  while (covered < n) {
    long long len = 1;
    switch (d) {
      case segment_distribution::all_1: len = 1; break;
      case segment_distribution::all_32: len = 32; break;
      case segment_distribution::uniform_1_1000: len = std::uniform_int_distribution<long long>(1, 1000)(rng); break;
      case segment_distribution::power_law: {
        const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
        const double x = std::pow(1.0 - u, -1.0 / 1.2);
        len = x >= static_cast<double>(n) ? n : std::max(1LL, static_cast<long long>(x));
        break;
      }
      case segment_distribution::one_segment: len = n; break;
      case segment_distribution::with_empty: len = std::uniform_int_distribution<long long>(0, 64)(rng); break;
    }
    len = std::min(len, n - covered);
    lengths.push_back(len);
    covered += len;
  }
  if (d == segment_distribution::with_empty) lengths.push_back(0);
  return lengths;
}

// count + 1 boundaries: segment s is [offsets[s], offsets[s + 1]).
inline std::vector<long long> csr_offsets(const std::vector<long long>& lengths) {
  std::vector<long long> offsets(lengths.size() + 1, 0);
  for (std::size_t s = 0; s < lengths.size(); ++s) offsets[s + 1] = offsets[s] + lengths[s];
  return offsets;
}

// 1 at the first item of every non-empty segment, 0 elsewhere (item 0 starts a segment
// whatever its flag; here it is 1 when the offsets start at 0).
inline std::vector<std::uint8_t> head_flags_of(const std::vector<long long>& offsets, long long n) {
  std::vector<std::uint8_t> flags(static_cast<std::size_t>(n), 0);
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    if (offsets[s] < offsets[s + 1]) flags[static_cast<std::size_t>(offsets[s])] = 1;
  return flags;
}

// A key per item: equal within a segment, different from the neighbouring segments' keys
// (random, so keys of distant segments may repeat).
template <class Key>
std::vector<Key> keys_of(const std::vector<long long>& offsets, long long n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> keys(static_cast<std::size_t>(n));
  Key previous{};
  bool first = true;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    if (offsets[s] == offsets[s + 1]) continue;
    Key k;
    do {
      k = static_cast<Key>(std::uniform_int_distribution<int>(-1000, 1000)(rng));
    } while (!first && k == previous);
    first = false;
    previous = k;
    std::fill(keys.begin() + offsets[s], keys.begin() + offsets[s + 1], k);
  }
  return keys;
}

// Segments with gaps between them for the offsets form: the CSR segments of `offsets`,
// each shrunk by a random amount at either end (some to nothing, some left whole), so
// items before, between and after segments are in none.
struct begin_end {
  std::vector<long long> begin, end;
};
inline begin_end with_gaps(const std::vector<long long>& offsets, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  begin_end r;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    long long b = offsets[s], e = offsets[s + 1];
    if (rng() % 2 && e > b) b += static_cast<long long>(rng() % static_cast<std::uint64_t>(e - b + 1));
    if (rng() % 2 && e > b) e -= static_cast<long long>(rng() % static_cast<std::uint64_t>(e - b + 1));
    r.begin.push_back(b);
    r.end.push_back(e);
  }
  return r;
}

// The reference: a scan that restarts at every head (item 0 always starts a segment).
template <class T, class Op>
std::vector<T> reference_segmented_scan(const std::vector<T>& in, const std::vector<std::uint8_t>& heads, kind k,
                                        T init, Op op) {
  std::vector<T> out(in.size());
  T running{};
  for (std::size_t i = 0; i < in.size(); ++i) {
    const bool head = i == 0 || heads[i] != 0;
    if (k == kind::inclusive) {
      running = head ? in[i] : op(running, in[i]);
      out[i] = running;
    } else {
      running = head ? init : op(running, in[i - 1]);
      out[i] = running;
    }
  }
  return out;
}

// The offsets form: items of segment s scanned on their own; items in no segment keep
// what `out` held before.
template <class T, class Op>
void reference_segmented_scan(const std::vector<T>& in, const std::vector<long long>& begin,
                              const std::vector<long long>& end, kind k, T init, Op op, std::vector<T>& out) {
  for (std::size_t s = 0; s < begin.size(); ++s) {
    T running{};
    for (long long i = begin[s]; i < end[s]; ++i) {
      const auto u = static_cast<std::size_t>(i);
      if (k == kind::inclusive) {
        running = i == begin[s] ? in[u] : op(running, in[u]);
      } else {
        running = i == begin[s] ? init : op(running, in[u - 1]);
      }
      out[u] = running;
    }
  }
}

// Heads from keys: item i starts a segment when keys[i] != keys[i - 1].
template <class Key>
std::vector<std::uint8_t> head_flags_from_keys(const std::vector<Key>& keys) {
  std::vector<std::uint8_t> flags(keys.size(), 0);
  for (std::size_t i = 0; i < keys.size(); ++i) flags[i] = i == 0 || !(keys[i] == keys[i - 1]);
  return flags;
}

}  // namespace onepass::test
