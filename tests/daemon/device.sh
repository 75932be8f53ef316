#!/bin/bash
# --device, --g2-on-cpu, --gpu-copies, --gpu-batch and --device-memory-budget: option errors, where status, the key listing,
# /metrics and job timings say proofs ran.  Without a usable GPU (a build
# without CUDA, or no GPU) --device gpu must stop the start with one clear
# line and auto must prove on the CPU; with one, keys must go to the GPU at
# load (device memory reported) and proofs run there with a smaller host
# reservation.  Which case applies is read from an auto daemon's status.
source "$(dirname "$0")/lib.sh"
D=$FIX/bn128/chain
"$G16D" --device tpu 2>"$T/err" && fail "--device tpu accepted"
grep -q "bad value for --device" "$T/err" || fail "unclear message for --device tpu: $(cat "$T/err")"
"$G16D" --device cpu --g2-on-cpu 2>"$T/err" && fail "--g2-on-cpu with --device cpu accepted"
grep -q "g2-on-cpu applies to GPU proofs" "$T/err" || fail "unclear message: $(cat "$T/err")"
"$G16D" --device cpu --gpu-copies 4 2>"$T/err" && fail "--gpu-copies with --device cpu accepted"
grep -q "gpu-copies applies to GPU keys" "$T/err" || fail "unclear message: $(cat "$T/err")"
for bad in 1 33 x 4.5; do
  "$G16D" --gpu-copies "$bad" 2>"$T/err" && fail "--gpu-copies $bad accepted"
  grep -q "bad value for --gpu-copies: '$bad'" "$T/err" || fail "unclear message: $(cat "$T/err")"
done
"$G16D" --device cpu --gpu-batch 2 2>"$T/err" && fail "--gpu-batch with --device cpu accepted"
grep -q "gpu-batch applies to GPU keys" "$T/err" || fail "unclear message: $(cat "$T/err")"
for bad in 0 17 x; do
  "$G16D" --gpu-batch "$bad" 2>"$T/err" && fail "--gpu-batch $bad accepted"
  grep -q "bad value for --gpu-batch: '$bad'" "$T/err" || fail "unclear message: $(cat "$T/err")"
done
for bad in 0 lots -5M nan inf 1e9 0x10G; do
  "$G16D" --device-memory-budget "$bad" 2>"$T/err" && fail "--device-memory-budget $bad accepted"
  grep -q "bad value for --device-memory-budget: '$bad'" "$T/err" || fail "unclear message: $(cat "$T/err")"
done
"$G16D" --help >"$T/help.txt"
grep -A4 -- "--device-memory-budget SIZE" "$T/help.txt" | grep -q "evicts idle GPU keys" ||
  fail "--help does not explain --device-memory-budget"

# prove_one DEVICE: one proof of the chain fixture, verified, its timings checked.
prove_one() {
  id=$(client prove --key k "$D/witness.wtns")
  client wait "$id" --timeout 60 --out "$T/out" >"$T/job.json" || fail "proof failed: $(cat "$T/job.json")"
  verify_dir "$D/verification_key.json" "$T/out" 1
  [ "$(js o.partitions[0].timings.device <"$T/job.json")" = "$1" ] || fail "job timings: device is not $1"
  [ "$(js 'typeof o.partitions[0].timings.transfer_s' <"$T/job.json")" = number ] || fail "job timings lack transfer_s"
}

start_daemon
client status >"$T/st.json"
PROVING=$(js o.device.proving <"$T/st.json")
[ "$(js o.device.mode <"$T/st.json")" = auto ] || fail "default --device is not auto"
client keys load k "$D/circuit.zkey" >"$T/key.json"
[ "$(js o.device <"$T/key.json")" = "$PROVING" ] || fail "key on $(js o.device <"$T/key.json"), daemon proves on $PROVING"
api http://d/metrics >"$T/metrics.txt"
grep -qx "g16d_proving_device{device=\"$PROVING\"} 1" "$T/metrics.txt" || fail "metrics lack g16d_proving_device $PROVING"
grep -q '^g16d_key_device_bytes{key="k"} ' "$T/metrics.txt" || fail "metrics lack the key's device bytes"
prove_one "$PROVING"
stop_daemon
rm -rf "$STATE"

if [ "$PROVING" = cpu ]; then
  note "no usable GPU here: checking the refusals and the CPU reports"
  [ "$(js o.device_bytes <"$T/key.json")" = 0 ] || fail "a CPU key reports device memory"
  [ "$(js o.host_pinned_bytes <"$T/key.json")" = 0 ] || fail "a CPU key reports a pinned witness buffer"
  [ "$(js o.partitions[0].timings.transfer_s <"$T/job.json")" = 0 ] || fail "a CPU proof reports a transfer"
  [ "$(js o.device.g2_on_cpu <"$T/st.json")" = false ] || fail "g2_on_cpu reported without a GPU"
  "$G16D" --device gpu --socket "$T/g.sock" --state-dir "$T/g" 2>"$T/err" && fail "--device gpu started without a GPU"
  [ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "--device gpu: no usable GPU" "$T/err" ||
    fail "unclear message for --device gpu without a GPU: $(cat "$T/err")"
  [ ! -e "$T/g.sock" ] || fail "--device gpu without a GPU opened its socket"
  # --device cpu from the config file, --g2-on-cpu accepted (and moot) under auto
  echo "device = cpu" >"$T/c.conf"
  echo "device-memory-budget = 2G" >>"$T/c.conf"
  start_daemon --config "$T/c.conf"
  [ "$(client status | js o.device.mode)" = cpu ] || fail "device = cpu in the config file ignored"
  grep -q "option_ignored option=--device-memory-budget why=\"proofs run on the CPU" "$LOG" || fail "no note that the device budget is ignored"
  [ "$(client status | js o.device.budget.total)" = 0 ] || fail "a CPU daemon reports a device budget"
  api http://d/metrics | grep -qx 'g16d_device_budget_bytes{kind="total"} 0' || fail "metrics: device budget"
  stop_daemon
  rm -rf "$STATE"
  start_daemon --g2-on-cpu --gpu-copies 4
  grep -q "option_ignored option=--gpu-copies why=\"proofs run on the CPU" "$LOG" || fail "no note that --gpu-copies is ignored"
  [ "$(client status | js o.device.gpu_copies)" = 0 ] || fail "gpu_copies reported without a GPU"
  client keys load k "$D/circuit.zkey" >/dev/null
  prove_one cpu
  stop_daemon
else
  note "GPU present: keys on the device, smaller host reservations"
  [ "$(js 'o.device_bytes > 0' <"$T/key.json")" = true ] || fail "a GPU key reports no device memory"
  # the pinned witness buffer: 32 bytes a signal (+ 64 KiB), charged to the host budget
  [ "$(js 'o.host_pinned_bytes >= 32 * o.n_vars' <"$T/key.json")" = true ] ||
    fail "a GPU key does not report its pinned witness buffer"
  GPART=$(js o.partition_bytes <"$T/key.json")
  start_daemon --device cpu
  client keys load k "$D/circuit.zkey" >"$T/ckey.json"
  [ "$(js o.device <"$T/ckey.json")" = cpu ] || fail "--device cpu loaded the key onto the GPU"
  CPART=$(js o.partition_bytes <"$T/ckey.json")
  [ "$GPART" -lt "$CPART" ] || fail "GPU partition reserves $GPART bytes, not less than the CPU's $CPART"
  prove_one cpu
  stop_daemon
  rm -rf "$STATE"
  start_daemon --device gpu --g2-on-cpu
  [ "$(client status | js o.device.g2_on_cpu)" = true ] || fail "status does not report --g2-on-cpu"
  client keys load k "$D/circuit.zkey" >/dev/null
  prove_one gpu
  [ "$(client status | js 'o.device.key_bytes > 0')" = true ] || fail "status lacks the keys' device memory"
  [ "$(client status | js 'o.device.budget.total > 0 && o.device.budget.used > 0')" = true ] ||
    fail "status lacks the device budget"
  CHARGE=$(client keys list | js 'o.keys[0].device_charge')
  BYTES=$(client keys list | js 'o.keys[0].device_bytes')
  stop_daemon
  rm -rf "$STATE"
  # shift copies: more device memory for the same key, proofs still verify
  start_daemon --device gpu --gpu-copies 6
  [ "$(client status | js o.device.gpu_copies)" = 6 ] || fail "status does not report --gpu-copies"
  client keys load k "$D/circuit.zkey" >/dev/null
  [ "$(client keys list | js "o.keys[0].device_bytes > $BYTES")" = true ] ||
    fail "--gpu-copies 6: the key holds no more device memory than without copies ($BYTES)"
  prove_one gpu
  stop_daemon
  rm -rf "$STATE"
  # a device budget with room for one key: the second evicts the idle first
  start_daemon --device gpu --device-memory-budget $((CHARGE * 3 / 2))
  client keys load a "$D/circuit.zkey" >/dev/null
  client keys load b "$D/circuit.zkey" >/dev/null || fail "no room made on the device for key b"
  [ "$(client keys list | js 'o.keys.map(k=>k.name).join()')" = b ] || fail "idle key a not evicted for b"
  grep -q "key_evicted key=a .*why=\"room in the device memory budget" "$LOG" || fail "no eviction line for the device budget"
  stop_daemon
  rm -rf "$STATE"
  # no room at all: 507 under --device gpu, the CPU (saying why) under auto
  start_daemon --device gpu --device-memory-budget $((CHARGE / 2))
  [ "$(code POST /v1/keys "{\"name\":\"k\",\"path\":\"$D/circuit.zkey\"}")" = 507 ] ||
    fail "a key over the device budget was not refused with 507"
  grep -q "device budget" "$T/last.json" || fail "the 507 does not name the device budget: $(cat "$T/last.json")"
  stop_daemon
  rm -rf "$STATE"
  start_daemon --device-memory-budget $((CHARGE / 2))
  client keys load k "$D/circuit.zkey" >"$T/key.json"
  [ "$(js o.device <"$T/key.json")" = cpu ] || fail "a key over the device budget went to the GPU under auto"
  js o.gpu_error <"$T/key.json" | grep -q "device budget" || fail "gpu_error does not say why: $(cat "$T/key.json")"
  prove_one cpu
  stop_daemon
fi
