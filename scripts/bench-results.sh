#!/usr/bin/env bash
# The committed benchmark results, regenerated on the GPU at hand with one command:
#   scripts/bench-results.sh [build-dir] [out-dir]
# builds onepass-bench (dev preset; ONEPASS_PREBUILT=1 uses the binary in build-dir),
# then writes to out-dir (default bench/results), named after the GPU (e.g. h200):
#   <gpu>.json, <gpu>.md           onepass-bench --preset seeds (ceilings, ladder, CUB)
#   <gpu>-peers.json, <gpu>-peers.md   bench/peers.py --preset seeds (torch, cupy)
#   <gpu>-plots/*.png              bench/plot.py over both
# and checks both JSON files against the schema. Exit status: onepass-bench's or
# peers.py's if either failed (a FAILED result is 1), else the checker's.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/dev}
out=${2:-bench/results}
export PATH="/usr/local/cuda/bin:$PATH"

if [ -z "${ONEPASS_PREBUILT:-}" ]; then
  cmake --preset dev -B "$build" >/dev/null && cmake --build "$build" --target onepass-bench -j "$(nproc)" || exit 1
fi
name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
[ -n "$name" ] || { echo "bench-results: no GPU found (nvidia-smi)"; exit 2; }
# "NVIDIA H200" -> h200, "NVIDIA H100 80GB HBM3" -> h100
gpu=$(echo "$name" | tr 'A-Z' 'a-z' | sed 's/^nvidia //' | awk '{print $1}' | tr -cd 'a-z0-9-')
mkdir -p "$out"

"$build/bench/onepass-bench" --preset seeds --json "$out/$gpu.json" --markdown "$out/$gpu.md"
bench_rc=$?
python3 bench/peers.py --preset seeds --json "$out/$gpu-peers.json" --markdown "$out/$gpu-peers.md"
peers_rc=$?
python3 bench/check_results.py "$out/$gpu.json" "$out/$gpu-peers.json"
check_rc=$?
rm -rf "$out/$gpu-plots"
python3 bench/plot.py "$out/$gpu.json" "$out/$gpu-peers.json" --out "$out/$gpu-plots"
plot_rc=$?

echo "bench-results: $gpu: onepass-bench exit $bench_rc, peers.py exit $peers_rc, schema check exit $check_rc, plots exit $plot_rc"
for rc in $bench_rc $peers_rc $check_rc $plot_rc; do [ "$rc" -eq 0 ] || exit "$rc"; done
