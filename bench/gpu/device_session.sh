#!/bin/bash
# One full device-machine call: kernel tests, whole proofs on the GPU checked
# with `g16 verify`, and timings, logs under $OUT.  Run from the repo root:
#   bash bench/gpu/device_session.sh [steps]
# steps (default "tests fixtures synth20 bench"), any of:
#   tests      test_gpu (GPU MSM/NTT == CPU, bit for bit) and test_prover
#   fixtures   every carried fixture proved with --device gpu, verified
#   synthN     g16 synth 2^N - 2 constraints (domain 2^N; both curves) + setup, GPU/GPU+g2-on-cpu/CPU
#              proofs, each verified (GPU_COPIES=N: also with --gpu-copies N);
#              N in 16..27 (synth24bn: BN254 only,
#              synth22bls: BLS12-381 only); GPU_BUDGETS="20G 4G": also
#              proofs under those --device-memory-budget values (chunked
#              or streamed MSMs); G2CPU_REPEAT=0 / CPU_REPEAT=0 skip those
#              runs; the device's memory in use is sampled every 200 ms
#              into $OUT/smi-CURVE-N.csv; SYNTH_ARGS="--no-r1cs -v": passed
#              to g16 synth (a key too large for the disk beside its .r1cs);
#              PROVE=0: make the key only (a later call, on the machine
#              still warm, proves it)
#   h2d        bench_gpu's BENCH_ONLY=h2d: host-to-device GB/s, pinned and pageable
#   stream     bench_gpu's BENCH_ONLY=stream ($STREAM_ARGS, default "24 5"):
#              proofs with keys streamed under STREAM_BUDGETS (GB, default
#              "8 20") against the resident proof, and the copies' GB/s
#   bench      bench_gpu $BENCH_ARGS (default "24 5 1": MSM/NTT with CUDA
#              events, CPU beside; BENCH_WINDOWS, BENCH_SPARSE, BENCH_ONLY,
#              BENCH_PROFILE (each MSM's and NTT's phase times): bench_gpu.c)
#   field      bench_field (the device field products, G products/s)
#   batch      bench_gpu's BENCH_ONLY=batch: synthetic keys 2^16, 2^18, ...
#              up to 2^${BATCH_MAX_LOG:-22} (BENCH_CURVES, default "bn128
#              bls12381"): per-proof time one at a time, batched
#              (gpu_prove_msms_batch) and from two threads, split into fixed
#              costs and work, with the launches/waits/allocations/copies a
#              proof issues (bench/RESULTS.md, "GPU batching")
# Binaries: .gpubin/gb.tar.xz (built on the development machine: g16,
# test_gpu, bench_gpu, test_prover), else bench/daemon/gpu_prepare.sh's
# .gpubin/daemon-bin.tar.xz (the same and libg16.so.1), else built here.
# Fixtures: .devfix/<curve>/<circuit> (copied from the fixtures folder,
# which does not travel) and .gpubin/fix/ (gpu_prepare.sh's, for the daemon
# tests), merged below: a call carries at most 64 MiB, and .gpubin's node
# and binaries take most of it, so each fixture travels once.
set -u
out=${OUT:-/tmp/g16-out}
mkdir -p "$out"
steps=${1:-tests fixtures synth20 bench}
t_start=$SECONDS
log() { echo "[+$((SECONDS - t_start))s] $*"; }

bin=""
if [ ! -f .gpubin/gb.tar.xz ] && [ -f .gpubin/daemon-bin.tar.xz ]; then   # gpu_prepare.sh's
  mkdir -p /tmp/gb && tar xJf .gpubin/daemon-bin.tar.xz -C /tmp/gb && bin=/tmp/gb
  export LD_LIBRARY_PATH=/tmp/gb${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  "$bin/g16" --help > /dev/null 2>&1 || { log "carried binaries do not run here"; bin=""; }
elif [ -f .gpubin/gb.tar.xz ]; then
  mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp && bin=/tmp/gb
  "$bin/g16" --help > /dev/null 2>&1 || { log "carried binaries do not run here"; bin=""; }
fi
if [ -z "$bin" ]; then
  log "building here"
  mkdir -p /tmp/fz && echo '#define ZLIB_VERSION "1.3.0"' > /tmp/fz/zlib.h
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DG16_REQUIRE_DEPS=OFF \
    -DZLIB_INCLUDE_DIR=/tmp/fz -DZLIB_LIBRARY=/usr/lib/x86_64-linux-gnu/libz.so.1 \
    > "$out/cfg.log" 2>&1 || { tail -20 "$out/cfg.log"; exit 1; }
  cmake --build build-gpu --target g16 test_gpu bench_gpu bench_field -j16 > "$out/build.log" 2>&1 || {
    grep -E "error" "$out/build.log" | head -30; exit 1; }
  bin=build-gpu/bin
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used,driver_version --format=csv,noheader
log "binaries: $bin"

g16=$bin/g16
fail=0
fix=/tmp/fixall
for d in .devfix/*/* .gpubin/fix/*/*; do
  [ -f "$d/circuit.zkey" ] || continue
  mkdir -p "$fix/$(basename "$(dirname "$d")")"
  ln -sfn "$PWD/$d" "$fix/$(basename "$(dirname "$d")")/$(basename "$d")"
done
# Runs a command and appends its peak resident memory (VmHWM, from the
# kernel's accounting of the waited-for child) to stderr.
peak_rss() {
  python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:])
kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print("host VmHWM (MiB): %d" % (kib // 1024), file=sys.stderr)
sys.exit(rc)' "$@"
}
prove_verify() {   # dir label extra-args...
  local dir=$1 label=$2; shift 2
  local p=/tmp/pv
  rm -f $p.proof $p.public
  if ! peak_rss "$g16" prove --verbose "$@" "$dir/circuit.zkey" "$dir/witness.wtns" $p.proof $p.public 2> $p.err; then
    echo "FAIL prove $label: $(tail -1 $p.err)"; fail=1; return
  fi
  local v
  v=$("$g16" verify "$dir/verification_key.json" $p.public $p.proof 2>&1)
  echo "$label: verify=$v $(grep -o 'g16: .*' $p.err | tail -1); $(grep -o 'host VmHWM.*' $p.err)"
  [ "$v" = OK ] || fail=1
}

for step in $steps; do
  case $step in
  tests)
    log "test_gpu"
    timeout 300 "$bin/test_gpu" > "$out/test_gpu.log" 2>&1; echo "test_gpu rc=$?"; tail -8 "$out/test_gpu.log"
    if [ -x "$bin/test_prover" ]; then
      timeout 120 "$bin/test_prover" "$fix" > "$out/test_prover.log" 2>&1
      echo "test_prover rc=$?"; tail -3 "$out/test_prover.log"
    fi ;;
  fixtures)
    log "fixtures"
    for d in "$fix"/*/*; do
      prove_verify "$d" "fixture $d gpu" --device gpu
      prove_verify "$d" "fixture $d gpu+g2cpu" --device gpu --g2-on-cpu
      prove_verify "$d" "fixture $d gpu+copies" --device gpu --gpu-copies 3
    done ;;
  synth*)
    n=${step#synth}; curves="bn128 bls12381"
    case $n in
      *bn) n=${n%bn}; curves=bn128 ;;
      *bls) n=${n%bls}; curves=bls12381 ;;
    esac
    for c in $curves; do
      d=/tmp/synth-$c-$n
      log "synth 2^$n $c"
      if [ ! -f $d/circuit.zkey ]; then
        t0=$SECONDS
        "$g16" synth --constraints $(((1 << n) - 2)) --curve $c --setup ${SYNTH_ARGS:-} --out $d > $out/synth-$c-$n.log 2>&1 || {
          echo "FAIL synth $c $n"; tail -3 $out/synth-$c-$n.log; fail=1; continue; }
        echo "synth+setup 2^$n $c: $((SECONDS - t0)) s"
      fi
      [ "${PROVE:-1}" = 0 ] && continue
      nvidia-smi --query-gpu=memory.used --format=csv,noheader -lms 200 > $out/smi-$c-$n.csv &
      smi=$!
      prove_verify $d "synth $c 2^$n gpu" --device gpu --repeat ${GPU_REPEAT:-5}
      grep "proofs:\|key on the GPU" /tmp/pv.err
      kill $smi
      echo "device memory peak (MiB): $(sort -n $out/smi-$c-$n.csv | tail -1)"
      for b in ${GPU_BUDGETS:-}; do
        prove_verify $d "synth $c 2^$n gpu budget $b" --device gpu --device-memory-budget $b --repeat ${GPU_REPEAT:-5}
        grep "proofs:\|key on the GPU" /tmp/pv.err
      done
      if [ -n "${GPU_COPIES:-}" ]; then
        prove_verify $d "synth $c 2^$n gpu+copies" --device gpu --gpu-copies $GPU_COPIES --repeat ${GPU_REPEAT:-5}
        grep "proofs:" /tmp/pv.err
      fi
      if [ "${G2CPU_REPEAT:-3}" != 0 ]; then
        prove_verify $d "synth $c 2^$n gpu+g2cpu" --device gpu --g2-on-cpu --repeat ${G2CPU_REPEAT:-3}
        grep "proofs:" /tmp/pv.err
      fi
      if [ "${CPU_REPEAT:-2}" != 0 ]; then
        prove_verify $d "synth $c 2^$n cpu" --device cpu --repeat ${CPU_REPEAT:-2}
        grep "proofs:" /tmp/pv.err
      fi
      cp /tmp/pv.err $out/prove-$c-$n.err
    done ;;
  field)
    log "bench_field"
    timeout 150 "$bin/bench_field" 2>&1 | tee "$out/bench_field.log" ;;
  batch)
    log "bench_gpu batch up to 2^${BATCH_MAX_LOG:-22}"
    BENCH_ONLY=batch BENCH_CURVES=${BENCH_CURVES:-bn128 bls12381} timeout 400 \
      "$bin/bench_gpu" "${BATCH_MAX_LOG:-22}" 5 0 2>&1 | tee "$out/bench_batch.log" ;;
  stream)
    log "bench_gpu stream: streamed keys under ${STREAM_BUDGETS:-8 20} GB against resident"
    BENCH_ONLY=stream BENCH_BUDGETS=${STREAM_BUDGETS:-8 20} timeout 400 \
      "$bin/bench_gpu" ${STREAM_ARGS:-24 5} 2>&1 | tee "$out/bench_stream.log" ;;
  h2d)
    BENCH_ONLY=h2d "$bin/bench_gpu" 24 5 0 2>&1 | tee "$out/bench_h2d.log" ;;
  bench)
    log "bench_gpu ${BENCH_ARGS:-24 5 1}"
    timeout 400 "$bin/bench_gpu" ${BENCH_ARGS:-24 5 1} 2>&1 | tee "$out/bench_gpu.log" ;;
  esac
done
log "done, fail=$fail"
exit $fail
