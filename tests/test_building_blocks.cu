// The warp- and block-level building blocks, used the way a user would inside their own
// kernels, checked with a non-commutative operator (so lane and item order matter) and on
// the arrangements the exchange and tile loads promise; and the cooperative launch that
// the scans fall back from when the runtime refuses it.
#include <cooperative_groups.h>

#include "onepass/block/block_exchange.cuh"
#include "onepass/block/block_load_store.cuh"
#include "onepass/block/block_reduce.cuh"
#include "onepass/block/block_scan.cuh"
#include "onepass/detail/launch.cuh"
#include "onepass/warp/warp_reduce.cuh"
#include "onepass/warp/warp_scan.cuh"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

// Per warp: inclusive scan, exclusive scan seeded with init, warp total, reduction.
template <class T, class Op>
__global__ void warp_kernel(const T* in, T* incl, T* excl, T* total, T* reduced, T init, Op op) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const T x = in[i];
  T t;
  incl[i] = warp_scan<T>::inclusive(x, op);
  excl[i] = warp_scan<T>::exclusive(x, init, op, t);
  total[i] = t;
  reduced[i] = warp_reduce<T>::reduce(x, op);
}

TEST(WarpPrimitives, ScanAndReduceKeepLaneOrder) {
  ONEPASS_REQUIRE_GPU();
  const int n = 4 * 128;
  const auto host = random_vector<affine>(n, 5);
  const affine init{3, 7};
  device_buffer<affine> in(host), incl(n), excl(n), total(n), reduced(n);
  warp_kernel<<<4, 128>>>(in.get(), incl.get(), excl.get(), total.get(), reduced.get(), init, compose{});
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  const auto gi = incl.download(), ge = excl.download(), gt = total.download(), gr = reduced.download();
  for (int w = 0; w < n / 32; ++w) {
    const std::vector<affine> seg(host.begin() + w * 32, host.begin() + w * 32 + 32);
    const auto ri = reference_scan(seg, kind::inclusive, init, compose{});
    const auto re = reference_scan(seg, kind::exclusive, init, compose{});
    for (int l = 0; l < 32; ++l) {
      ASSERT_EQ(gi[w * 32 + l], ri[l]) << "warp " << w << " lane " << l;
      ASSERT_EQ(ge[w * 32 + l], re[l]) << "warp " << w << " lane " << l;
      ASSERT_EQ(gt[w * 32 + l], ri[31]);
      ASSERT_EQ(gr[w * 32 + l], ri[31]);
    }
  }
}

// Per block of Threads x N blocked items: inclusive, exclusive (seeded) and the reduction.
template <class T, int Threads, int N, class Op>
__global__ void block_kernel(const T* in, T* incl, T* excl, T* reduced, T init, Op op) {
  __shared__ typename block_scan<T, Threads>::storage scan_storage;
  __shared__ typename block_reduce<T, Threads>::storage reduce_storage;
  const long long base = static_cast<long long>(blockIdx.x) * Threads * N;
  T items[N], copy[N];
  load_blocked(in + base, items, threadIdx.x, Threads * N);
  for (int k = 0; k < N; ++k) copy[k] = items[k];
  T total;
  block_scan<T, Threads> scan(scan_storage);
  scan.inclusive(items, op, total);
  store_blocked(incl + base, items, threadIdx.x, Threads * N);
  __syncthreads();  // the scan storage is reused
  scan.exclusive(copy, init, op, total);
  store_blocked(excl + base, copy, threadIdx.x, Threads * N);
  T mine[N];
  load_blocked(in + base, mine, threadIdx.x, Threads * N);
  const T r = block_reduce<T, Threads>(reduce_storage).reduce(mine, op);
  if (threadIdx.x == 0) reduced[blockIdx.x] = r;
}

template <int Threads, int N>
void check_block_primitives() {
  SCOPED_TRACE("threads " + std::to_string(Threads) + " items " + std::to_string(N));
  const int blocks = 3, per_block = Threads * N, n = blocks * per_block;
  const auto host = random_vector<affine>(n, Threads * 10 + N);
  const affine init{5, 1};
  device_buffer<affine> in(host), incl(n), excl(n), reduced(blocks);
  block_kernel<affine, Threads, N><<<blocks, Threads>>>(in.get(), incl.get(), excl.get(), reduced.get(), init, compose{});
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  const auto gi = incl.download(), ge = excl.download(), gr = reduced.download();
  for (int b = 0; b < blocks; ++b) {
    const std::vector<affine> seg(host.begin() + b * per_block, host.begin() + (b + 1) * per_block);
    const auto ri = reference_scan(seg, kind::inclusive, init, compose{});
    const auto re = reference_scan(seg, kind::exclusive, init, compose{});
    for (int i = 0; i < per_block; ++i) {
      ASSERT_EQ(gi[b * per_block + i], ri[i]) << "block " << b << " item " << i;
      ASSERT_EQ(ge[b * per_block + i], re[i]) << "block " << b << " item " << i;
    }
    ASSERT_EQ(gr[b], ri.back()) << "block " << b;
  }
}

TEST(BlockPrimitives, ScanAndReduceKeepItemOrder) {
  ONEPASS_REQUIRE_GPU();
  check_block_primitives<32, 1>();   // one warp: no shared-memory step
  check_block_primitives<96, 3>();   // warps not a power of two
  check_block_primitives<256, 4>();
  check_block_primitives<1024, 2>();
}

// Partial reductions: only the first `valid` lanes / threads take part, in order (the
// others hold poison that must not leak in); and the commutative warp reduction gives
// every lane the total (redux.sync for 32-bit integers, a butterfly otherwise).
template <int Threads>
__global__ void partial_reduce_kernel(const affine* in, affine* warp_out, affine* block_out, int valid) {
  __shared__ typename block_reduce<affine, Threads>::storage storage;
  const int t = static_cast<int>(threadIdx.x);
  const affine x = t < valid ? in[t] : affine{0xA5A5A5A5u, 0xA5A5A5A5u};
  const int lane_valid = valid < 32 ? valid : 32;
  const affine w = warp_reduce<affine>::reduce_to_lane0(x, compose{}, lane_valid);
  if (t == 0) *warp_out = w;
  const affine b = block_reduce<affine, Threads>(storage).reduce(x, compose{}, valid);
  if (t == 0) *block_out = b;
}

template <class T, class Op>
__global__ void commutative_kernel(const T* in, T* out, Op op) {
  out[threadIdx.x] = warp_reduce<T>::reduce_commutative(in[threadIdx.x], op);
}

TEST(WarpPrimitives, PartialAndCommutativeReductions) {
  ONEPASS_REQUIRE_GPU();
  constexpr int threads = 256;
  const auto host = random_vector<affine>(threads, 8);
  device_buffer<affine> in(host), warp_out(1), block_out(1);
  for (int valid : {1, 2, 31, 32, 33, 100, 255, 256}) {
    partial_reduce_kernel<threads><<<1, threads>>>(in.get(), warp_out.get(), block_out.get(), valid);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    const std::vector<affine> first(host.begin(), host.begin() + valid);
    const std::vector<affine> first_warp(host.begin(), host.begin() + std::min(valid, 32));
    const affine identity{1, 0};
    EXPECT_EQ(block_out.download()[0], reference_reduce(first, identity, compose{})) << "valid " << valid;
    EXPECT_EQ(warp_out.download()[0], reference_reduce(first_warp, identity, compose{})) << "valid " << valid;
  }
  const auto check = [](auto value_tag, auto op) {
    using T = decltype(value_tag);
    const std::vector<T> values = random_reduce_vector<T>(32, 21);
    device_buffer<T> d_in(values), d_out(32);
    commutative_kernel<<<1, 32>>>(d_in.get(), d_out.get(), op);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    const T expected = reference_reduce(std::vector<T>(values.begin() + 1, values.end()), values[0], op);
    for (const T& got : d_out.download()) EXPECT_EQ(got, expected) << type_name<T>();
  };
  check(int{}, onepass::plus{});
  check(unsigned{}, onepass::maximum{});
  check(int{}, onepass::minimum{});
  check(float{}, onepass::plus{});
  check(double{}, onepass::maximum{});
  check(static_cast<long long>(0), onepass::plus{});
}

// Vector-striped load -> blocked (checked against the positions) -> striped -> store.
template <int Threads, int N, int V, exchange_scope Scope>
__global__ void exchange_kernel(const int* in, int* blocked_out, int* roundtrip, long long valid) {
  using ex = exchange<int, Threads, N, V, Scope>;
  __shared__ typename ex::storage storage[Scope == exchange_scope::warp ? 4 : 1];  // 4 warps
  const int rank = Scope == exchange_scope::warp ? threadIdx.x % 32 : threadIdx.x;
  const int group = Scope == exchange_scope::warp ? threadIdx.x / 32 : 0;
  const long long base = static_cast<long long>(group) * Threads * N;
  int items[N];
  for (int k = 0; k < N; ++k) items[k] = -1;
  load_vector_striped<Threads, V>(in + base, items, rank, valid - base);
  ex e(storage[group], rank);
  e.striped_to_blocked(items, items);
  store_blocked(blocked_out + base, items, rank, valid - base);
  e.blocked_to_striped(items, items);
  store_vector_striped<Threads, V>(roundtrip + base, items, rank, valid - base);
}

template <int Threads, int N, int V, exchange_scope Scope>
void check_exchange(long long valid) {
  const int groups = Scope == exchange_scope::warp ? 4 : 1;  // block of 4 warps for warp scope
  const int n = groups * Threads * N;
  SCOPED_TRACE("N " + std::to_string(N) + " V " + std::to_string(V) + " valid " + std::to_string(valid));
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = 1000 + i;
  device_buffer<int> in(host), blocked(n), roundtrip(n);
  exchange_kernel<Threads, N, V, Scope><<<1, Threads * groups>>>(in.get(), blocked.get(), roundtrip.get(), valid);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  const auto b = blocked.download(), r = roundtrip.download();
  for (int i = 0; i < n; ++i) {
    if (i < valid) {
      ASSERT_EQ(b[i], host[i]) << "blocked order at " << i;
      ASSERT_EQ(r[i], host[i]) << "round trip at " << i;
    } else {
      ASSERT_EQ(static_cast<unsigned>(b[i]), 0xA5A5A5A5u) << "wrote past the end at " << i;
      ASSERT_EQ(static_cast<unsigned>(r[i]), 0xA5A5A5A5u) << "wrote past the end at " << i;
    }
  }
}

TEST(Exchange, StripedBlockedRoundTripFullAndPartialTiles) {
  ONEPASS_REQUIRE_GPU();
  check_exchange<128, 8, 4, exchange_scope::block>(128 * 8);
  check_exchange<128, 8, 4, exchange_scope::block>(1000);
  check_exchange<128, 5, 1, exchange_scope::block>(128 * 5);
  check_exchange<32, 16, 4, exchange_scope::warp>(4 * 32 * 16);
  check_exchange<32, 16, 4, exchange_scope::warp>(3 * 32 * 16 + 100);
}

// Every block counts itself after a grid barrier: the count is the grid only if all
// blocks were resident at once.
__global__ void count_after_grid_barrier(int* count) {
  cooperative_groups::this_grid().sync();
  if (threadIdx.x == 0) atomicAdd(count, 1);
}

// The scans' dispatchers launch their cooperative kernels with try_launch_cooperative and
// fall back to a path that needs no co-residency when it returns false. A grid one block
// larger than what fits must be refused that way, leaving no error behind; a grid that
// fits must run.
TEST(Launch, CooperativeGridThatDoesNotFitIsRefusedWithoutAStickyError) {
  ONEPASS_REQUIRE_GPU();
  constexpr int threads = 256;
  const int fits = onepass::detail::resident_blocks<count_after_grid_barrier>(threads, 0);
  device_buffer<int> count(std::vector<int>{0});
  EXPECT_FALSE(onepass::detail::try_launch_cooperative(count_after_grid_barrier, dim3(fits + 1), threads, 0, nullptr,
                                                       count.get()));
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_TRUE(onepass::detail::try_launch_cooperative(count_after_grid_barrier, dim3(fits), threads, 0, nullptr,
                                                      count.get()));
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_EQ(count.download()[0], fits);
}

}  // namespace
}  // namespace onepass::test
