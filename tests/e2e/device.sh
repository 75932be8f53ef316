#!/usr/bin/env bash
# device.sh: the device options of `g16 prove` through the CLI.  --device
# cpu|auto prove (and verify with snarkjs); --device gpu either proves
# (where a usable GPU is, the device machine) or fails cleanly, one line
# naming the witness and why, no output left (everywhere else, CI); never a
# silent CPU proof.  --repeat N proves N times and reports the median;
# --jobs J keeps J of them in flight and reports the rate.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_g16
need_snarkjs
for curve in bn128 bls12381; do
  d=$(fixture "$curve" multiplier)
  mkdir -p "$T/out" "$T/cwd"
  for dev in cpu auto; do
    prove "$d/circuit.zkey" "$d/witness.wtns" "$T/out/p.json" "$T/out/q.json" --device "$dev" --verbose
    expect_verify_ok "$d/verification_key.json" "$T/out/q.json" "$T/out/p.json"
    grep -q "^g16: \(cpu\|gpu\): " "$T/stderr" || { show_run; fail "--verbose does not say where it ran"; }
    [ "$dev" = auto ] || grep -q "^g16: cpu: " "$T/stderr" || { show_run; fail "--device cpu did not run on the CPU"; }
    rm -f "$T/out/p.json" "$T/out/q.json"
  done
  prove "$d/circuit.zkey" "$d/witness.wtns" "$T/out/p.json" "$T/out/q.json" --device cpu --repeat 3
  grep -q "3 proofs: first .* median .* best " "$T/stderr" || { show_run; fail "--repeat 3 printed no summary"; }
  expect_verify_ok "$d/verification_key.json" "$T/out/q.json" "$T/out/p.json"
  rm -f "$T/out/p.json" "$T/out/q.json"
  # --jobs: proofs in flight at once share the threads; the rate is printed
  prove "$d/circuit.zkey" "$d/witness.wtns" "$T/out/p.json" "$T/out/q.json" --device cpu --repeat 5 --jobs 2 --threads 2
  grep -q "5 proofs: first .* median .* best " "$T/stderr" || { show_run; fail "--jobs 2: no summary"; }
  grep -q "2 in flight, 1 threads each: .* proofs/s" "$T/stderr" || { show_run; fail "--jobs 2: no rate"; }
  expect_verify_ok "$d/verification_key.json" "$T/out/q.json" "$T/out/p.json"
  rm -f "$T/out/p.json" "$T/out/q.json"
  run_g16 prove --device gpu --g2-on-cpu --verbose "$d/circuit.zkey" "$d/witness.wtns" "$T/out/p.json" "$T/out/q.json"
  if [ "$RC" -eq 0 ]; then
    grep -q "^g16: gpu: " "$T/stderr" || { show_run; fail "--device gpu succeeded but did not run on the GPU"; }
    expect_verify_ok "$d/verification_key.json" "$T/out/q.json" "$T/out/p.json"
    note "$curve: proved on the GPU"
    rm -f "$T/out/p.json" "$T/out/q.json"
  else
    expect_clean_failure "$curve: --device gpu without a usable GPU" "$d/witness.wtns" \
      prove --device gpu "$d/circuit.zkey" "$d/witness.wtns" "$T/out/p.json" "$T/out/q.json"
    grep -q -- "--device gpu: .*\(CUDA\|GPU\)" "$T/stderr" || { show_run; fail "the refusal does not say why"; }
  fi
done
d=$(fixture bn128 multiplier)
for bad in "--repeat 0" "--repeat x" "--jobs 0" "--jobs" "--device tpu" "--repeat" "--gpu-copies 1" "--gpu-copies 33" "--gpu-copies x" \
           "--device-memory-budget 0" "--device-memory-budget nan" "--device-memory-budget inf" "--device-memory-budget 1e9"; do
  # shellcheck disable=SC2086
  run_g16 prove $bad "$d/circuit.zkey" "$d/witness.wtns" "$T/out/p.json" "$T/out/q.json"
  { [ "$RC" -ne 0 ] && [ "$RC" -le 125 ] && [ -s "$T/stderr" ]; } || { show_run; fail "prove $bad: expected a usage error"; }
  [ ! -e "$T/out/p.json" ] && [ ! -e "$T/out/q.json" ] || fail "prove $bad left an output file"
  note "prove $bad: $(head -n 1 "$T/stderr")"
done
