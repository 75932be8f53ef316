#!/bin/bash
# The NTT's kernel variants timed side by side (bench_gpu BENCH_ONLY=ntt,
# CUDA events, median of repeats) at one size, each variant a set of
# environment settings, then the per-pass profile of the first two:
#   bash bench/gpu/ntt_variants.sh BIN_DIR LOG_N 'label:VAR=V,VAR=V' ...
# e.g. 'warp:' 'block:G16_GPU_NTT_WARP=0' 'bare:G16_GPU_NTT_MODE=bare'.
set -u
bin=$1 log_n=$2
shift 2
for v in "$@"; do
  label=${v%%:*} envs=${v#*:}
  echo "== $label ${envs:-(defaults)}"
  env ${envs//,/ } BENCH_ONLY=ntt "$bin/bench_gpu" "$log_n" 5 0 2>&1 | grep -E "^NTT"
done
for v in "$1" "${2:-$1}"; do
  envs=${v#*:}
  env ${envs//,/ } G16_GPU_PROFILE=1 BENCH_ONLY=ntt "$bin/bench_gpu" "$log_n" 1 0 2>&1 |
    grep -m1 "profile ntt_bn254: dif"
done
