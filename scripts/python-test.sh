#!/usr/bin/env bash
# Builds the Python package (pip install . into build/python-<preset>/site, for this
# machine's GPU, or sm_90 without one) and runs its tests with pytest:
#   scripts/python-test.sh [preset]       (scripts/test.sh runs it after ctest)
# preset ci: warnings are errors and device code compiles fast (nothing runs on a GPU);
# the GPU tests skip, the argument tests run. Needs pip; pytest and numpy are installed
# into the same folder when they are missing. Offline, with scikit-build-core and nanobind
# already installed, the build uses them (--no-build-isolation).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu-arch.sh
preset=${1:-dev}
site=build/python-$preset/site
py=${PYTHON:-python3}
args=(-Cbuild-dir="build/python-$preset/build"
      -Ccmake.define.ONEPASS_PYTHON_CUDA_ARCHITECTURES="$ONEPASS_ARCHS")
if [ "$preset" = ci ]; then
  args+=(-Ccmake.define.ONEPASS_WARNINGS_AS_ERRORS=ON
         "-Ccmake.define.CMAKE_CUDA_FLAGS_RELEASE=-O0 -Ofc=max -DNDEBUG"
         "-Ccmake.define.CMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG")
fi
if "$py" -c "import scikit_build_core, nanobind" 2>/dev/null; then
  args+=(--no-build-isolation)
fi
echo "scripts/python-test.sh: preset $preset, ${ONEPASS_GPU:-no GPU}, architectures $ONEPASS_ARCHS"
rm -rf "$site"
CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) "$py" -m pip install --no-deps --target "$site" "${args[@]}" . \
  --disable-pip-version-check -q
"$py" -c "import pytest, numpy" 2>/dev/null ||
  "$py" -m pip install --target "build/python-$preset/test-deps" -q --disable-pip-version-check pytest numpy
export PYTHONPATH="$PWD/$site:$PWD/build/python-$preset/test-deps${PYTHONPATH:+:$PYTHONPATH}"
"$py" -m pytest -q -rs python/tests
