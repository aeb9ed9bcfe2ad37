# Sourced by scripts/bench.sh and scripts/test.sh. Sets ONEPASS_GPU (the GPU's name, empty
# without one) and ONEPASS_ARCHS (CMAKE_CUDA_ARCHITECTURES): the environment's
# ONEPASS_CUDA_ARCHITECTURES if set, else the compute capabilities of this machine's GPUs
# ("9.0" -> 90), else 90 (no GPU: the build runs nothing on a GPU).
ONEPASS_GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
if [ -n "${ONEPASS_CUDA_ARCHITECTURES:-}" ]; then
  ONEPASS_ARCHS=$ONEPASS_CUDA_ARCHITECTURES
else
  ONEPASS_ARCHS=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .' |
                  grep -E '^[0-9]+$' | sort -u | paste -sd ';' || true)
  [ -n "$ONEPASS_ARCHS" ] || ONEPASS_ARCHS=90
fi
export PATH="$PATH:/usr/local/cuda/bin"
