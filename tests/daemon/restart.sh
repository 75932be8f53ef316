#!/bin/bash
# Jobs survive: kill -9 in the middle of a run, restart on the same state
# directory, and every unfinished partition runs again and verifies; the
# key comes back by itself.  Then SIGTERM mid-run drains (the job
# finishes), exits 0, and the job is there after the next start.  Finished results stay
# retrievable across restarts.
source "$(dirname "$0")/lib.sh"
D=$FIX/bn128/chain
# Proofs in the job that is killed: enough that the kill lands mid-job.
# A GPU daemon proves this circuit in a few ms, so bench/daemon/gpu_tests.sh
# raises it.
N=${G16_RESTART_PROOFS:-30}
start_daemon --memory-budget 1G --synth-workers 1
client keys load chain "$D/circuit.zkey" >/dev/null
ws=(); for i in $(seq "$N"); do ws+=("$D/witness.wtns"); done
early=$(client prove --key chain "$D/witness.wtns")
client wait "$early" --timeout 60 >/dev/null || fail "first job failed"
id=$(client prove --key chain --upload "${ws[@]:0:4}")     # uploads live in the state dir
id2=$(client prove --key chain "${ws[@]}")
for _ in $(seq 100); do
  n=$(client get "$id2" | js o.partitions_done)
  [ "$n" -ge 3 ] && break
  sleep 0.05
done
[ "$n" -lt "$N" ] || fail "the job finished before the kill; raise G16_RESTART_PROOFS (now $N)"
kill -9 "$PID"; wait "$PID" 2>/dev/null || true; PID=
note "killed -9 with $n of $N partitions done"
start_daemon --memory-budget 1G --synth-workers 1
grep -q "restored" "$LOG" || fail "no jobs restored"
client wait "$id" --timeout 120 --out "$T/a" >/dev/null || fail "uploaded job did not complete after restart"
client wait "$id2" --timeout 120 --out "$T/b" >/dev/null || fail "job did not complete after restart"
verify_dir "$D/verification_key.json" "$T/a" 4
verify_dir "$D/verification_key.json" "$T/b" "$N"
client get "$early" --out "$T/e" >/dev/null || fail "a finished result was lost in the restart"
verify_dir "$D/verification_key.json" "$T/e" 1
# SIGTERM mid-run: it drains (the job finishes first), exits 0, and the
# result is there after the next start.
# (10 partitions: the drain proves what is left, so fewer than the kill's)
id3=$(client prove --key chain "${ws[@]:0:10}")
sleep 0.3
stop_daemon
grep -q "stopped" "$LOG" || fail "no graceful stop message"
start_daemon --memory-budget 1G
client wait "$id3" --timeout 120 --out "$T/c" >/dev/null || fail "job did not complete after SIGTERM + restart"
verify_dir "$D/verification_key.json" "$T/c" 10
stop_daemon
