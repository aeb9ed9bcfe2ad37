#include "cli.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>

namespace onepass::bench {
namespace {

constexpr long long count_max = std::numeric_limits<long long>::max();

[[noreturn]] void bad(std::string_view flag, std::string_view text, std::string_view why) {
  throw usage_error(std::string(flag) + ": '" + std::string(text) + "' " + std::string(why));
}

// Digits only, no sign; fails on overflow.
long long parse_digits(std::string_view digits, std::string_view flag, std::string_view text) {
  if (digits.empty()) bad(flag, text, "is not a count (expected e.g. 1000000, 2^28, 2^28+1, 64M)");
  long long value = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      bad(flag, text, "is not a count (expected e.g. 1000000, 2^28, 2^28+1, 64M)");
    const int d = c - '0';
    if (value > (count_max - d) / 10) bad(flag, text, "does not fit in 64 bits");
    value = value * 10 + d;
  }
  return value;
}

std::vector<std::string> split_list(std::string_view flag, std::string_view text) {
  std::vector<std::string> items;
  std::string item;
  std::stringstream ss{std::string(text)};
  while (std::getline(ss, item, ',')) {
    if (item.empty()) bad(flag, text, "has an empty item");
    items.push_back(item);
  }
  if (items.empty()) bad(flag, text, "is empty");
  return items;
}

int parse_positive_int(std::string_view flag, std::string_view text, int minimum) {
  const long long v = parse_digits(text, flag, text);
  if (v < minimum || v > std::numeric_limits<int>::max())
    bad(flag, text, "must be an integer from " + std::to_string(minimum) + " to " +
                        std::to_string(std::numeric_limits<int>::max()));
  return static_cast<int>(v);
}

// A whole percentage from 0 to 100, "50" or "50%".
int parse_percent(std::string_view text, std::string_view flag) {
  std::string_view digits = text;
  if (!digits.empty() && digits.back() == '%') digits.remove_suffix(1);
  int value = 0;
  bool ok = !digits.empty() && digits.size() <= 3;
  for (char c : digits) {
    ok = ok && std::isdigit(static_cast<unsigned char>(c));
    if (ok) value = value * 10 + (c - '0');
  }
  if (!ok || value > 100) bad(flag, text, "is not a percentage (a whole number from 0 to 100)");
  return value;
}

}  // namespace

long long parse_count(std::string_view text, std::string_view flag) {
  std::string_view rest = text;
  long long value = 0;
  if (const auto caret = rest.find('^'); caret != std::string_view::npos) {
    // base^exponent, then an optional +offset or -offset.
    const long long base = parse_digits(rest.substr(0, caret), flag, text);
    rest = rest.substr(caret + 1);
    const auto sign = rest.find_first_of("+-");
    const long long exponent = parse_digits(rest.substr(0, sign), flag, text);
    value = 1;
    for (long long i = 0; i < exponent; ++i) {
      if (base != 0 && value > count_max / base) bad(flag, text, "does not fit in 64 bits");
      value *= base;
    }
    if (sign != std::string_view::npos) {
      const long long offset = parse_digits(rest.substr(sign + 1), flag, text);
      if (rest[sign] == '+') {
        if (value > count_max - offset) bad(flag, text, "does not fit in 64 bits");
        value += offset;
      } else {
        value -= offset;
      }
    }
  } else {
    // digits with an optional binary suffix
    long long scale = 1;
    if (!rest.empty()) {
      switch (std::toupper(static_cast<unsigned char>(rest.back()))) {
        case 'K': scale = 1ll << 10; break;
        case 'M': scale = 1ll << 20; break;
        case 'G': scale = 1ll << 30; break;
        case 'T': scale = 1ll << 40; break;
        default: break;
      }
    }
    if (scale != 1) rest.remove_suffix(1);
    value = parse_digits(rest, flag, text);
    if (value > count_max / scale) bad(flag, text, "does not fit in 64 bits");
    value *= scale;
  }
  if (value < 1) bad(flag, text, "must be at least 1");
  return value;
}

std::string format_count(long long n) {
  if (n <= 0) return std::to_string(n);
  // The nearest power of two at or below n, and the one above it.
  int k = 63 - __builtin_clzll(static_cast<unsigned long long>(n));
  for (int e : {k, k + 1}) {
    if (e < 10 || e > 62) continue;  // small numbers read better plainly
    const long long p = 1ll << e;
    const long long offset = n - p;
    if (offset == 0) return "2^" + std::to_string(e);
    // Near a power of two only when the offset is small beside it (2^28+1, not 2^10-24).
    const long long near = std::min(1024ll, p >> 6);
    if (offset >= -near && offset <= near)
      return "2^" + std::to_string(e) + (offset > 0 ? "+" : "-") + std::to_string(offset > 0 ? offset : -offset);
  }
  return std::to_string(n);
}

options parse_args(int argc, const char* const* argv) {
  options o;
  bool sizes_or_params = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string_view value;
    bool has_value = false;
    if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string_view::npos) {
      value = arg.substr(eq + 1);  // --flag=value
      arg = arg.substr(0, eq);
      has_value = true;
    }
    auto take = [&]() -> std::string_view {
      if (has_value) return value;
      if (i + 1 >= argc) throw usage_error(std::string(arg) + " needs a value");
      return argv[++i];
    };
    auto no_value = [&] {
      if (has_value) throw usage_error(std::string(arg) + " takes no value");
    };
    if (arg == "-h" || arg == "--help") {
      no_value();
      o.help = true;
    } else if (arg == "--list") {
      no_value();
      o.list = true;
    } else if (arg == "--quiet") {
      no_value();
      o.quiet = true;
    } else if (arg == "--preset") {
      o.preset = std::string(take());
      if (o.preset != "seeds") bad("--preset", o.preset, "is not a preset (known: seeds)");
    } else if (arg == "--primitive") {
      o.primitives = split_list(arg, take());
    } else if (arg == "--variant") {
      o.variants = split_list(arg, take());
    } else if (arg == "--dtype") {
      o.dtypes = split_list(arg, take());
    } else if (arg == "--op") {
      o.ops = split_list(arg, take());
      sizes_or_params = true;
    } else if (arg == "--kind") {
      o.kinds = split_list(arg, take());
      sizes_or_params = true;
    } else if (arg == "--dist") {
      o.dists = split_list(arg, take());
      sizes_or_params = true;
    } else if (arg == "--bins") {
      o.bins.clear();
      for (const auto& item : split_list(arg, take())) {
        const long long b = parse_count(item, "--bins");
        // The library takes the bin count as an int.
        if (b > std::numeric_limits<int>::max())
          bad("--bins", item, "must be at most " + std::to_string(std::numeric_limits<int>::max()));
        o.bins.push_back(b);
      }
      sizes_or_params = true;
    } else if (arg == "--keep") {
      o.keeps.clear();
      for (const auto& item : split_list(arg, take())) o.keeps.push_back(parse_percent(item, "--keep"));
      sizes_or_params = true;
    } else if (arg == "--runs") {
      o.runs.clear();
      for (const auto& item : split_list(arg, take())) o.runs.push_back(parse_count(item, "--runs"));
      sizes_or_params = true;
    } else if (arg == "--values") {
      o.values = split_list(arg, take());
      sizes_or_params = true;
    } else if (arg == "--order") {
      o.orders = split_list(arg, take());
      sizes_or_params = true;
    } else if (arg == "--n") {
      o.sizes.clear();
      for (const auto& item : split_list(arg, take())) o.sizes.push_back(parse_count(item, "--n"));
      sizes_or_params = true;
    } else if (arg == "--iters") {
      o.iters = parse_positive_int(arg, take(), 1);
    } else if (arg == "--warmup") {
      o.warmup = parse_positive_int(arg, take(), 0);
    } else if (arg == "--seed") {
      const std::string_view text = take();
      o.seed = static_cast<std::uint64_t>(parse_digits(text, arg, text));
    } else if (arg == "--json") {
      o.json_path = std::string(take());
    } else if (arg == "--markdown") {
      o.markdown_path = std::string(take());
    } else {
      throw usage_error("unknown argument '" + std::string(argv[i]) + "'");
    }
  }
  if (!o.preset.empty() && sizes_or_params)
    throw usage_error("--preset " + o.preset +
                      " fixes the sizes and parameters of its tables: --n, --op, --kind, --dist, --bins, "
                      "--keep, --runs, --values and --order cannot be combined with it (--primitive, --variant, "
                      "--dtype filter it)");
  return o;
}

std::string usage_text() {
  return R"usage(usage: onepass-bench [options]

Times every variant of each primitive, the production path and CUB on this GPU, beside
the device-to-device copy and a read-only pass measured in the same run. Every output is
checked against a CPU reference before it is timed.

  --list                 every primitive and its variant ids, then exit (needs no GPU)
  --preset seeds         the tables of the seed material (sizes and parameters fixed)
  --primitive P[,P]      primitives to run (default: all; see --list)
  --variant ID[,ID]      variant ids to run (default: all of each primitive)
  --dtype T[,T]          element types: int32 uint32 int64 uint64 float double (the
                         radix sort's key types); the histogram's uint8 uint16 int32
                         uint32 float (default: the primitive's first, see --list)
  --n N[,N]              sizes: 1000000, 2^28, 2^28+1, 2^30-7, 64M (K/M/G = 2^10/20/30)
                         (default 2^28; histogram 2^30 samples)
  --op sum|max[,...]     scan, segmented_scan and reduce operator (default sum)
  --kind inclusive|exclusive[,...]   scan and segmented_scan kind (default inclusive)
  --dist D[,D]           histogram sample distribution: uniform skewed one_bin sorted
                         (default uniform); radix_sort key distribution: random
                         low_entropy all_equal sorted reverse range16 (default random);
                         segmented_scan segment lengths: uniform_1_1000 all_1 all_32
                         power_law one_segment with_empty (default uniform_1_1000)
  --bins N[,N]           histogram bin counts, as --n: 256, 4096, 2^16 (default 256)
  --keep P[,P]           select and partition: percent of the items kept, 0 to 100
                         (default 50)
  --runs N[,N]           unique: items per run of equal values, as --n: 1, 4, 1000
                         (default 4)
  --values none|u32|u64[,...]
                         radix_sort: keys alone, or pairs with 32- or 64-bit values
                         (default none)
  --order ascending|descending[,...]
                         radix_sort: sort order (default ascending)
  --iters K              timed runs per case, median reported (default 20)
  --warmup K             untimed runs before them (default 3)
  --seed S               seed of the random inputs (default 20261121)
  --json FILE            write the results as JSON (schema "onepass-bench/1")
  --markdown FILE        write the tables as Markdown
  --quiet                no progress line on stderr
  -h, --help             this text

Variants that cannot take the requested size (single-block ones) or would take minutes
at it (one thread walking the array) run at their own size; the table says so. A
histogram variant whose shared memory cannot hold --bins bins on this GPU is left out,
with a note on stderr. A segmented_scan table has a row per variant and form
("onepass (flags)", "onepass (offsets)", "onepass (by key)", "onepass (begin/end)",
"onepass (begin/end with gaps)", "onepass (begin/end with gaps copied)"); --variant
takes the ids.

Exit status: 0 all results verified; 1 a result FAILED verification or an error
occurred; 2 no usable CUDA device; 64 bad command line.
)usage";
}

}  // namespace onepass::bench
