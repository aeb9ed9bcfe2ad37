#!/usr/bin/env bash
# Builds onepass's tests, examples and benchmark programs and runs the test suite, then
# builds the Python package and runs its tests (scripts/python-test.sh):
#   scripts/test.sh [preset]      (default: dev; CI runs `scripts/test.sh ci`)
# GPU tests run where there is a GPU and are reported as skipped where there is none.
# The build is for this machine's GPU (scripts/gpu-arch.sh); the ci preset also makes
# warnings errors and compiles fast for a machine without a GPU (CMakePresets.json).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu-arch.sh
preset=${1:-dev}
echo "scripts/test.sh: preset $preset, ${ONEPASS_GPU:-no GPU}, CMAKE_CUDA_ARCHITECTURES=$ONEPASS_ARCHS"
cmake --preset "$preset" -DCMAKE_CUDA_ARCHITECTURES="$ONEPASS_ARCHS"
cmake --build --preset "$preset" --parallel "$(nproc)"
ctest --preset "$preset"
# The Python package and its tests (ONEPASS_SKIP_PYTHON=1 leaves them out).
[ "${ONEPASS_SKIP_PYTHON:-0}" = 1 ] || scripts/python-test.sh "$preset"
