#!/bin/bash
# --pin-keys: a loaded key's bytes are locked in RAM.  Where this test may
# lock memory (CAP_IPC_LOCK, or an RLIMIT_MEMLOCK it can raise above the
# budget) the default pins: GET /v1/keys says "pinned": true, the daemon's
# VmLck grows by at least the key's size and falls back when the key is
# deleted, and status and metrics report the locked bytes.  The fallback
# runs where locking is impossible: with a 64 KiB RLIMIT_MEMLOCK and no
# CAP_IPC_LOCK (dropped with setpriv when the test has it) the default is
# off with one warning line, and --pin-keys reports why each key is not
# pinned.  Every branch that runs asserts; which ran is printed.
source "$(dirname "$0")/lib.sh"
KEY=$FIX/bn128/merkle/circuit.zkey
KEYB=$(stat -c %s "$KEY")
BUDGET=64M
vmlck_kb() { awk '/^VmLck/ {print $2}' "/proc/$PID/status"; }
has_cap_ipc_lock() { (( 0x$(awk '/^CapEff/ {print $2}' /proc/self/status) >> 14 & 1 )); }

# Raise the soft limit as far as the hard one allows (no privilege needed).
ulimit -S -l "$(ulimit -H -l)" 2>/dev/null || true
lim=$(ulimit -l)
can_pin=0
if has_cap_ipc_lock || [ "$lim" = unlimited ] || [ "$lim" -ge $((64 * 1024)) ]; then can_pin=1; fi

pinned_branch() {
  note "pinning possible (RLIMIT_MEMLOCK $lim KiB$(has_cap_ipc_lock && echo ', CAP_IPC_LOCK')): pinned branch"
  start_daemon --memory-budget "$BUDGET"
  grep -q "warning keys_not_pinned" "$LOG" && fail "pinning default off although the process may lock"
  [ "$(client status | js o.memory.pin_keys)" = true ] || fail "status: pin_keys is not true"
  local before after gone
  before=$(vmlck_kb)
  client keys load m "$KEY" >"$T/k.json"
  [ "$(js o.pinned <"$T/k.json")" = true ] || fail "key not pinned: $(cat "$T/k.json")"
  [ "$(client keys list | js 'o.keys[0].pinned')" = true ] || fail "GET /v1/keys: not pinned"
  after=$(vmlck_kb)
  note "VmLck $before KiB -> $after KiB for a $KEYB-byte key"
  [ $(( (after - before) * 1024 )) -ge "$KEYB" ] || fail "VmLck grew by $((after - before)) KiB, less than the key"
  [ "$(client status | js "o.memory.locked >= $KEYB")" = true ] || fail "status memory.locked below the key"
  api http://d/metrics >"$T/m.txt"
  grep -q '^g16d_key_pinned{key="m"} 1$' "$T/m.txt" || fail "metrics: g16d_key_pinned"
  awk -v k="$KEYB" '/^g16d_memory_bytes\{kind="locked"\}/ {ok = $2 >= k} END {exit !ok}' "$T/m.txt" ||
    fail "metrics: locked bytes below the key"
  id=$(client prove --key m "$FIX/bn128/merkle/witness.wtns")
  client wait "$id" --timeout 60 >/dev/null || fail "a pinned key does not prove"
  client keys evict m >/dev/null || fail "DELETE /v1/keys/m failed"
  gone=$(vmlck_kb)
  [ "$gone" -le "$before" ] || fail "VmLck $gone KiB after the delete, was $before KiB before the load"
  stop_daemon
  rm -rf "$STATE"
  start_daemon --memory-budget "$BUDGET" --no-pin-keys           # off means off
  before=$(vmlck_kb)
  client keys load m "$KEY" >"$T/k.json"
  [ "$(js '!o.pinned && !o.pin_error' <"$T/k.json")" = true ] || fail "--no-pin-keys: $(cat "$T/k.json")"
  [ "$(vmlck_kb)" = "$before" ] || fail "--no-pin-keys locked memory"
  stop_daemon
  rm -rf "$STATE"
}

# A copy of g16d that cannot lock: 64 KiB RLIMIT_MEMLOCK, CAP_IPC_LOCK
# dropped from the bounding set when we hold it (root keeps it otherwise).
fallback_branch() {
  local real=$G16D drop=""
  if has_cap_ipc_lock; then
    command -v setpriv >/dev/null || { note "setpriv missing: cannot drop CAP_IPC_LOCK, fallback not run"; return 0; }
    drop="setpriv --bounding-set -ipc_lock"
  fi
  note "fallback branch: RLIMIT_MEMLOCK 64 KiB${drop:+, CAP_IPC_LOCK dropped}"
  printf '#!/bin/bash\nulimit -S -l 64 || exit 1\nexec %s "%s" "$@"\n' "$drop" "$real" >"$T/g16d-nolock"
  chmod +x "$T/g16d-nolock"
  G16D=$T/g16d-nolock
  start_daemon --memory-budget "$BUDGET"
  [ "$(grep -c "warning keys_not_pinned" "$LOG")" = 1 ] || fail "no single startup warning that keys are not pinned"
  [ "$(client status | js o.memory.pin_keys)" = false ] || fail "status: pin_keys is not false"
  client keys load m "$KEY" >"$T/k.json"
  [ "$(js '!o.pinned && !o.pin_error' <"$T/k.json")" = true ] || fail "default fallback: $(cat "$T/k.json")"
  stop_daemon
  rm -rf "$STATE"
  : >"$LOG"
  start_daemon --memory-budget "$BUDGET" --pin-keys               # forced: tries, says why not
  grep -q "warning keys_not_pinned" "$LOG" && fail "warning printed although --pin-keys was given"
  client keys load m "$KEY" >"$T/k.json"
  [ "$(js o.pinned <"$T/k.json")" = false ] || fail "pinned with a 64 KiB limit and no CAP_IPC_LOCK"
  js o.pin_error <"$T/k.json" | grep -q "RLIMIT_MEMLOCK" || fail "pin_error does not name RLIMIT_MEMLOCK: $(cat "$T/k.json")"
  [ "$(vmlck_kb)" = 0 ] || fail "VmLck $(vmlck_kb) KiB although nothing could be pinned"
  id=$(client prove --key m "$FIX/bn128/merkle/witness.wtns")
  client wait "$id" --timeout 60 >/dev/null || fail "an unpinned key does not prove"
  stop_daemon
  G16D=$real
}

if [ "$can_pin" = 1 ]; then pinned_branch; fi
fallback_branch
# g16d --help documents both switches
"$G16D" --help >"$T/help.txt"
grep -q -- "--pin-keys" "$T/help.txt" && grep -q -- "--no-pin-keys" "$T/help.txt" || fail "--help lacks --pin-keys"
