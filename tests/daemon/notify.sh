#!/bin/bash
# systemd's notify protocol without systemd: NOTIFY_SOCKET names a
# datagram socket this test owns (notify_recv).  READY=1 comes once the
# keys of the state directory are loaded and the socket is bound (the
# daemon is frozen the moment READY=1 arrives and the socket must already
# be there; the key must then be listed without any wait), and not before;
# WATCHDOG=1 comes every half of WATCHDOG_USEC, and never without it.
source "$(dirname "$0")/lib.sh"
: "${G16_NOTIFY_RECV:?G16_NOTIFY_RECV is not set}"
D=$FIX/bn128/chain
NS=$T/notify

# listen TIMEOUT PINGS [CHECK_PATH]: notify_recv on $NS in the background
# (RPID), output in $T/notify.out, once its socket exists.
listen() {
  rm -f "$NS"
  "$G16_NOTIFY_RECV" "$NS" "$@" >"$T/notify.out" 2>&1 &
  RPID=$!
  for _ in $(seq 50); do [ -S "$NS" ] && return 0; sleep 0.02; done
  fail "notify_recv did not bind $NS"
}

# A key registered, so the next start has one to load before it is ready.
start_daemon --memory-budget 1G
client keys load chain "$D/circuit.zkey" >/dev/null
stop_daemon

listen 20 0 "$SOCK"
NOTIFY_SOCKET=$NS start_daemon --memory-budget 1G
wait "$RPID"
note "$(tr '\n' '|' <"$T/notify.out")"
[ "$(grep -c 'READY=1' "$T/notify.out")" = 1 ] || fail "READY=1 not sent exactly once"
grep -q "at-ready socket=yes" "$T/notify.out" ||
  fail "READY=1 came before the socket was bound: $(cat "$T/notify.out")"
[[ $(client keys list) == *chain* ]] || fail "the key of the state directory is not loaded when ready"
# Without WATCHDOG_USEC, nothing more in a second (a fresh listener on the
# same path: each message is sent anew).
listen 1 1
wait "$RPID"
[ ! -s "$T/notify.out" ] || fail "sent without WATCHDOG_USEC: $(cat "$T/notify.out")"
stop_daemon

# WATCHDOG_USEC 0.4 s: pings every 0.2 s (never sooner; later only as a
# loaded machine delays them).
listen 20 4
NOTIFY_SOCKET=$NS WATCHDOG_USEC=400000 start_daemon --memory-budget 1G
wait "$RPID"
note "$(tr '\n' '|' <"$T/notify.out")"
grep -q 'READY=1' "$T/notify.out" || fail "no READY=1 with the watchdog on"
pings=$(grep -c 'WATCHDOG=1' "$T/notify.out" || true)
[ "$pings" -ge 4 ] || fail "$pings WATCHDOG=1 pings with WATCHDOG_USEC=400000"
awk '/WATCHDOG=1/ { if (prev != "") { gap = $1 - prev; sum += gap; n++; if (gap < 0.15) short++ }
                    prev = $1 }
     END { if (short || sum / n > 0.35) { print "gaps: " n ", mean " sum / n " s, " short+0 " under 0.15 s"; exit 1 } }' \
  "$T/notify.out" || fail "watchdog pings not every half of WATCHDOG_USEC"
stop_daemon
