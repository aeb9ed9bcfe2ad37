#!/usr/bin/env bash
# Spill check for the production radix sort's onesweep kernels, without a GPU (~10 s).
# The kernels sit at the edge of their register caps, and an equivalent rewrite can make
# the compiler spill in the ranking, costing 2-20% (docs/perf/radix_sort.md). This compiles
# the three production sorts (uint32 keys, uint32 pairs, uint64 keys) for sm_90, each with
# its large tiles and the shapes it sorts smaller inputs with (tuning::radix_small_sort_tuning,
# radix_tiny_sort_tuning, radix_medium_sort_tuning: marked "small sorts", "tiny sorts",
# "medium sorts"), and counts spill stores (STL) per onesweep kernel: "hot" in the full-tile path, which runs for every
# tile but a portion's last, "cold" in the partial-tile path (laid out first, run once per
# portion, harmless). Run it after any change to agent/radix_sort.cuh and compare with the
# counts docs/perf/radix_sort.md gives.
# Usage: scripts/radix-spill-check.sh          (CUOBJDUMP=path if cuobjdump is not on PATH;
# the CI machine's toolkit has none: `pip download --no-deps nvidia-cuda-cuobjdump` gives a
# wheel whose nvidia/cu13/bin/cuobjdump reads sm_90 cubins, with nvidia/cu13/bin/nvdisasm from
# `pip download --no-deps nvidia-cuda-nvdisasm` on PATH)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || true)}
if [ -z "$cuobjdump" ]; then
  echo "radix-spill-check: no cuobjdump on PATH; set CUOBJDUMP (pip download --no-deps nvidia-cuda-cuobjdump)" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/sorts.cu" <<'EOF'
#include <cstdint>
#include "onepass/radix_sort.cuh"
void keys32(const unsigned* k, unsigned* o, onepass::index_t n) { onepass::radix_sort_keys(k, o, n); }
void pairs32(const unsigned* k, unsigned* o, const unsigned* v, unsigned* w, onepass::index_t n) {
  onepass::radix_sort_pairs(k, o, v, w, n);
}
void keys64(const std::uint64_t* k, std::uint64_t* o, onepass::index_t n) { onepass::radix_sort_keys(k, o, n); }
EOF
nvcc -std=c++17 -O3 -arch=sm_90 -Iinclude -cubin -o "$work/sorts.cubin" "$work/sorts.cu"
# The full-tile path is the kernel's second half by barriers: both paths have the same ones.
"$cuobjdump" -sass "$work/sorts.cubin" | awk '
function flush() {
  if (name ~ /onesweep/) {
    hot = 0; cold = 0
    for (i = 0; i < stores; ++i) { if (at_barrier[i] >= barriers / 2) ++hot; else ++cold }
    kind = name ~ /IjjN/ ? "uint32 pairs" : name ~ /Ij/ ? "uint32 keys " : "uint64 keys "
    shape = ""
    if (name ~ /radix_tiny_sort_tuning/) shape = "  (tiny sorts)"
    else if (name ~ /radix_small_sort_tuning/) shape = "  (small sorts)"
    else if (name ~ /radix_medium_sort_tuning/) shape = "  (medium sorts)"
    printf "%s  %2d hot STL, %2d cold%s\n", kind, hot, cold, shape
  }
}
/Function :/ { flush(); name = $3; barriers = 0; stores = 0; next }
/BAR\.SYNC/ { ++barriers }
/STL/ { at_barrier[stores++] = barriers }
END { flush() }'
