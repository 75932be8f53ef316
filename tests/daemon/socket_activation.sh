#!/bin/bash
# Socket activation (g16d.socket): a listening socket passed in with
# LISTEN_FDS/LISTEN_PID is served instead of binding --socket, proofs run
# through it, and g16d leaves the socket file to its owner when it stops.
# Anything but one listening Unix stream socket is refused in one line.
source "$(dirname "$0")/lib.sh"
command -v systemd-socket-activate >/dev/null ||
  fail "systemd-socket-activate not found (the systemd package; make deps)"
D=$FIX/bn128/chain
ACT=$T/act.sock

systemd-socket-activate -l "$ACT" "$G16D" --socket "$T/own/s" --state-dir "$STATE" \
  --allow-dir "$FIX" --memory-budget 1G >>"$LOG" 2>&1 &
PID=$!
for _ in $(seq 50); do [ -S "$ACT" ] && break; sleep 0.05; done
SOCK=$ACT
wait_socket "$SOCK" "$PID" "socket-activated g16d"
[ ! -e "$T/own/s" ] || fail "g16d bound --socket although a socket was passed in"
grep -q "listening socket=$ACT " "$LOG" || fail "the log does not name the passed socket: $(cat "$LOG")"
client keys load chain "$D/circuit.zkey" >/dev/null
id=$(client prove --key chain "$D/witness.wtns")
client wait "$id" --timeout 60 --out "$T/out" >/dev/null || fail "the proof through the passed socket failed"
verify_dir "$D/verification_key.json" "$T/out" 1
stop_daemon
[ -S "$ACT" ] || fail "g16d removed the socket systemd passed it"

# A descriptor that is not a listening Unix socket: one line, exit 1.
echo x >"$T/file"
rc=0
LISTEN_FDS=1 bash -c 'LISTEN_PID=$$ exec "$0" "$@" 3<"'"$T/file"'"' "$G16D" --socket "$T/own/s" \
  --state-dir "$T/state2" >"$T/err" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "a passed regular file: exit $rc, wanted 1 ($(cat "$T/err"))"
grep -q "expected one listening Unix stream socket" "$T/err" || fail "unclear refusal: $(cat "$T/err")"
[ ! -e "$T/own/s" ] || fail "g16d bound --socket after refusing the passed descriptor"
note "$(cat "$T/err")"
