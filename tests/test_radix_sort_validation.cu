// Bad input to the radix sort is rejected with onepass::invalid_argument naming the
// argument, before any CUDA call, through every entry of the ladder's registry (which
// checks what the production onepass::radix_sort_keys / radix_sort_pairs will check).
// No GPU needed: these run in CI. The cub entry asks CUB for its workspace size, which
// needs the runtime, so its workspace checks run only where a GPU is present.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "onepass/ladder/radix_sort/registry.cuh"
#include "support/cuda_call_counter.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

using onepass::detail::keys_only;

// Fake device addresses: never dereferenced, because every call below either fails a
// host-side check or stops at the first runtime call (see passes_host_checks).
template <class T>
T* fake(std::uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

constexpr long long items = 1000;  // at most 8000 bytes per range: the fakes are 2 MiB apart

// Every argument of a sort, valid and far apart; a test breaks one at a time.
template <class Key, class Value>
struct args {
  static constexpr bool pairs = onepass::detail::has_values<Value>;
  const Key* keys_in = fake<const Key>(0x100000);
  Key* keys_out = fake<Key>(0x300000);
  const Value* values_in = pairs ? fake<const Value>(0x500000) : nullptr;
  Value* values_out = pairs ? fake<Value>(0x700000) : nullptr;
  long long n = items;
  radix_sort_options options{};
  // Larger than any variant needs; the workspace test sizes it exactly.
  workspace ws{fake<void>(0x20000000), std::size_t{1} << 40};
};

template <class Key, class Value>
void call(const ladder::radix_sort_entry<Key, Value>& e, const args<Key, Value>& a) {
  e.sort(a.keys_in, a.keys_out, a.values_in, a.values_out, a.n, a.options, a.ws, nullptr);
}

// The call got past every host-side check: it reached the runtime (the cub entry's size
// query, or the device-memory checks), which refuses the fake pointers as host memory
// (a GPU is present) or fails (none is). Either way nothing was enqueued.
template <class F>
void passes_host_checks(F&& f) {
  try {
    f();
    ADD_FAILURE() << "fake device pointers were accepted";
  } catch (const onepass::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("host memory"), std::string::npos) << e.what();
  } catch (const onepass::cuda_error&) {
  }
}

// Runs check(entry, valid args) for every registry entry of the types the tests use.
template <class Check>
void for_each_entry(Check&& check) {
  auto each = [&](auto key_tag, auto value_tag) {
    using Key = decltype(key_tag);
    using Value = decltype(value_tag);
    for (const auto& e : ladder::radix_sort_registry<Key, Value>()) {
      SCOPED_TRACE(std::string(e.id) + ", " + type_name<Key>() + " keys" +
                   (onepass::detail::has_values<Value> ? std::string(", ") + std::to_string(sizeof(Value)) +
                                                             "-byte values"
                                                       : std::string(" alone")));
      check(e, args<Key, Value>{});
    }
  };
  each(std::uint32_t{}, keys_only{});
  each(double{}, std::uint32_t{});
  each(0ll, std::uint64_t{});  // (long long: the name type_name knows)
}

// No test of this suite enqueues anything (its runtime calls past the host-side checks only
// ask): the fixture checks (support/cuda_call_counter.hpp).
using RadixSortValidation = nothing_enqueued;

TEST_F(RadixSortValidation, NullPointers) {
  for_each_entry([](const auto& e, auto a) {
    auto b = a;
    b.keys_in = nullptr;
    expect_rejected([&] { call(e, b); }, "keys_in", "null");
    b = a;
    b.keys_out = nullptr;
    expect_rejected([&] { call(e, b); }, "keys_out", "null");
    if constexpr (decltype(a)::pairs) {
      b = a;
      b.values_in = nullptr;
      expect_rejected([&] { call(e, b); }, "values_in", "null");
      b = a;
      b.values_out = nullptr;
      expect_rejected([&] { call(e, b); }, "values_out", "null");
    }
  });
}

// No items: every pointer may be null, no workspace is needed, nothing reaches the runtime.
TEST_F(RadixSortValidation, EmptyInputDoesNothing) {
  for_each_entry([](const auto& e, auto a) {
    a.n = 0;
    a.keys_in = nullptr;
    a.keys_out = nullptr;
    a.values_in = nullptr;
    a.values_out = nullptr;
    a.ws = workspace{};
    EXPECT_EQ(e.workspace_bytes(0), 0u);
    EXPECT_NO_THROW(call(e, a));
    a.options.begin_bit = 4;
    a.options.end_bit = 4;
    EXPECT_NO_THROW(call(e, a));
  });
}

TEST_F(RadixSortValidation, Counts) {
  for_each_entry([](const auto& e, auto a) {
    a.n = -1;
    expect_rejected([&] { call(e, a); }, "n", "negative (-1)");
    a.n = -(1ll << 40);
    expect_rejected([&] { call(e, a); }, "n", "negative");
  });
}

TEST_F(RadixSortValidation, BitRange) {
  for_each_entry([](const auto& e, auto a) {
    using Key = std::remove_cv_t<std::remove_pointer_t<decltype(a.keys_out)>>;
    const int width = 8 * static_cast<int>(sizeof(Key));
    const std::string w = std::to_string(width);
    auto with = [&](int begin, int end) {
      auto b = a;
      b.options.begin_bit = begin;
      b.options.end_bit = end;
      return b;
    };
    expect_rejected([&] { call(e, with(-1, -1)); }, "options.begin_bit", "is -1, outside [0, " + w + "]");
    expect_rejected([&] { call(e, with(width + 1, -1)); }, "options.begin_bit", "outside [0, " + w + "]");
    expect_rejected([&] { call(e, with(0, width + 1)); }, "options.end_bit", "outside [begin_bit = 0, " + w + "]");
    expect_rejected([&] { call(e, with(8, 4)); }, "options.end_bit", "is 4, outside [begin_bit = 8");
    expect_rejected([&] { call(e, with(0, -2)); }, "options.end_bit", "is -2");
    auto bad_order = a;
    bad_order.options.order = static_cast<sort_order>(7);
    expect_rejected([&] { call(e, bad_order); }, "options.order", "neither ascending nor descending");
    // The options are checked first: with a null key range too, they are what is named.
    auto both = with(0, width + 1);
    both.keys_in = nullptr;
    expect_rejected([&] { call(e, both); }, "options.end_bit", "outside");
    // Every range from empty to all bits is accepted, -1 meaning all.
    const std::initializer_list<std::pair<int, int>> accepted = {{0, -1}, {0, width}, {width, width},
                                                                 {0, 0},  {3, 29}, {width - 1, -1}};
    for (const auto& range : accepted) {
      SCOPED_TRACE(std::to_string(range.first) + ", " + std::to_string(range.second));
      passes_host_checks([&] { call(e, with(range.first, range.second)); });
    }
  });
}

TEST_F(RadixSortValidation, Misaligned) {
  for_each_entry([](const auto& e, auto a) {
    using Key = std::remove_cv_t<std::remove_pointer_t<decltype(a.keys_out)>>;
    auto b = a;
    b.keys_in = fake<const Key>(0x100002);
    expect_rejected([&] { call(e, b); }, "keys_in", "aligned");
    b = a;
    b.keys_out = fake<Key>(0x300001);
    expect_rejected([&] { call(e, b); }, "keys_out", "aligned");
    if constexpr (decltype(a)::pairs) {
      using Value = std::remove_pointer_t<decltype(a.values_out)>;
      b = a;
      b.values_in = fake<const Value>(0x500002);
      expect_rejected([&] { call(e, b); }, "values_in", std::to_string(alignof(Value)) + "-byte alignment");
      b = a;
      b.values_out = fake<Value>(0x700003);
      expect_rejected([&] { call(e, b); }, "values_out", "aligned");
    }
  });
}

// An output equal to its input sorts in place; any other overlap is refused, and so is
// any overlap between keys and values.
TEST_F(RadixSortValidation, Overlaps) {
  for_each_entry([](const auto& e, auto a) {
    using Key = std::remove_cv_t<std::remove_pointer_t<decltype(a.keys_out)>>;
    Key* keys = fake<Key>(0x100000);
    for (Key* out : {keys + 1, keys + (items - 1), keys - (items - 1), keys - 1}) {
      auto b = a;
      b.keys_in = keys;
      b.keys_out = out;
      expect_rejected([&] { call(e, b); }, "keys_out", "overlaps 'keys_in'");
    }
    for (Key* out : {keys, keys + items, keys - items}) {  // in place, or just next to it
      auto b = a;
      b.keys_in = keys;
      b.keys_out = out;
      passes_host_checks([&] { call(e, b); });
    }
    if constexpr (decltype(a)::pairs) {
      using Value = std::remove_pointer_t<decltype(a.values_out)>;
      Value* values = fake<Value>(0x500000);
      auto b = a;
      b.values_in = values;
      b.values_out = values + 3;
      expect_rejected([&] { call(e, b); }, "values_out", "overlaps 'values_in'");
      b.values_out = values;  // in place
      passes_host_checks([&] { call(e, b); });
      // Keys and values share no byte, in or out.
      const auto at = [](auto* p, std::size_t byte_offset) {
        return reinterpret_cast<decltype(p)>(reinterpret_cast<std::uintptr_t>(p) + byte_offset);
      };
      b = a;
      b.values_out = reinterpret_cast<Value*>(at(a.keys_out, (items - 1) * sizeof(Key)));
      expect_rejected([&] { call(e, b); }, "values_out", "overlaps 'keys_out'");
      b = a;
      b.values_out = reinterpret_cast<Value*>(const_cast<Key*>(a.keys_in));
      expect_rejected([&] { call(e, b); }, "values_out", "overlaps 'keys_in'");
      b = a;
      b.values_in = reinterpret_cast<const Value*>(at(a.keys_out, 8 * sizeof(Key)));
      expect_rejected([&] { call(e, b); }, "keys_out", "overlaps 'values_in'");
      // Keys in place and values in place together.
      b = a;
      b.keys_out = const_cast<Key*>(a.keys_in);
      b.values_out = const_cast<Value*>(a.values_in);
      passes_host_checks([&] { call(e, b); });
    }
  });
}

TEST_F(RadixSortValidation, Workspace) {
  for_each_entry([](const auto& e, auto a) {
    std::size_t needed = 0;
    try {
      needed = e.workspace_bytes(items);
    } catch (const onepass::cuda_error&) {
      ASSERT_EQ(std::string_view(e.id).substr(0, 3), "cub") << e.id << ": only the peer's size query needs the runtime";
      ASSERT_FALSE(gpu_available());
      return;
    }
    ASSERT_GT(needed, 0u);
    char* spare = fake<char>(0x20000000);
    a.ws = workspace{};
    expect_rejected([&] { call(e, a); }, "workspace", "null");
    a.ws = workspace{nullptr, needed};
    expect_rejected([&] { call(e, a); }, "workspace", "null");
    a.ws = workspace{spare, needed - 1};
    expect_rejected([&] { call(e, a); }, "workspace", "holds " + std::to_string(needed - 1) + " bytes");
    a.ws = workspace{spare + 8, needed};
    expect_rejected([&] { call(e, a); }, "workspace", "16-byte aligned");
    a.ws = workspace{spare, needed};
    passes_host_checks([&] { call(e, a); });
  });
}

// split_1bit's workspace: a buffer for the keys, one for the values (pairs only), the
// 64-bit positions, and the scan's workspace.
TEST_F(RadixSortValidation, SplitWorkspaceBytes) {
  using ladder::split_1bit;
  const auto scan = [](long long n) { return onepass::detail::scan_plan<index_t>::workspace_bytes(n); };
  EXPECT_EQ((split_1bit::workspace_bytes<float, keys_only>(0)), 0u);
  EXPECT_EQ((split_1bit::workspace_bytes<float, keys_only>(1000)), 4000u + 8000u + scan(1000));
  EXPECT_EQ((split_1bit::workspace_bytes<float, std::uint64_t>(1001)), 4016u + 8016u + 8016u + scan(1001));
  EXPECT_EQ((split_1bit::workspace_bytes<double, std::uint32_t>(1ll << 31)),
            (8ull + 4 + 8) * (1ull << 31) + scan(1ll << 31));
}

}  // namespace
}  // namespace onepass::test
