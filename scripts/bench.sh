#!/usr/bin/env bash
# Builds onepass-bench and runs every table (--preset seeds) on this machine's GPU:
#   scripts/bench.sh [onepass-bench flags...]     (default: --preset seeds)
# e.g. scripts/bench.sh --primitive scan --n 2^28 --json scan.json. Without a GPU it
# says so and exits 2, before building anything.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu-arch.sh
if [ -z "$ONEPASS_GPU" ]; then
  echo "scripts/bench.sh: no NVIDIA GPU found (nvidia-smi lists none): onepass-bench measures a GPU and needs one." >&2
  echo "scripts/test.sh builds and runs the tests, which need none." >&2
  exit 2
fi
echo "scripts/bench.sh: $ONEPASS_GPU, building for CMAKE_CUDA_ARCHITECTURES=$ONEPASS_ARCHS"
cmake --preset dev -DCMAKE_CUDA_ARCHITECTURES="$ONEPASS_ARCHS" >/dev/null
cmake --build --preset dev --target onepass-bench
[ $# -gt 0 ] || set -- --preset seeds
exec build/dev/bench/onepass-bench "$@"
