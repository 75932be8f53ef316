#!/bin/bash
# The fleet's queue over TLS.  A throwaway PostgreSQL with ssl=on and a
# self-signed certificate for 127.0.0.1 (openssl), listening on 127.0.0.1
# (TLS needs TCP): a g16d whose --queue asks for sslmode=verify-full with
# that certificate as its root proves a job end to end (both curves), and
# every connection it holds to the server is encrypted (pg_stat_ssl).
# verify-full with another root, or with a host name the certificate does
# not name, fails at start with one line saying why; so does
# sslmode=require once the same server runs without TLS.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fleet_lib.sh" tls

ROOT=$PG_DIR/server.crt
TLS_URL="$PG_TCP_URL?sslmode=verify-full&sslrootcert=$ROOT"

# refused WHY URL: g16d with --queue URL exits non-zero at start, its whole
# output one line that matches WHY, and it never opens its socket.
refused() {
  local rc=0
  timeout 60 "$G16D" --socket "$T/x.s" --state-dir "$T/x.st" --queue "$2" >"$T/x.log" 2>&1 || rc=$?
  [ "$rc" != 0 ] && [ "$rc" != 124 ] || fail "g16d with $2 did not fail at start (status $rc)"
  [ "$(wc -l <"$T/x.log")" = 1 ] || fail "more than one line: $(cat "$T/x.log")"
  grep -qE "$1" "$T/x.log" || fail "no word of '$1': $(cat "$T/x.log")"
  [ ! -S "$T/x.s" ] || fail "g16d opened its socket before failing"
  note "refused: $(cat "$T/x.log")"
}

note "sslmode=verify-full with the server's certificate as root: a proof through the fleet"
QUEUE=$TLS_URL start_host a --lease 5 --memory-budget 1G
hc a keys load mult "$FIX/bls12381/multiplier/circuit.zkey" >/dev/null || fail "a: key load"
hc a keys load chain "$FIX/bn128/chain/circuit.zkey" >/dev/null || fail "a: key load"
id1=$(hc a prove --key mult --upload "$FIX/bls12381/multiplier/witness.wtns") || fail "a: submit"
id2=$(hc a prove --key chain "$FIX/bn128/chain/witness.wtns") || fail "a: submit"
hc a wait "$id1" --timeout 60 --out "$T/o1" >/dev/null || fail "job 1 did not finish"
hc a wait "$id2" --timeout 60 --out "$T/o2" >/dev/null || fail "job 2 did not finish"
verify_dir "$FIX/bls12381/multiplier/verification_key.json" "$T/o1" 1
verify_dir "$FIX/bn128/chain/verification_key.json" "$T/o2" 1
snarkjs_ok "$FIX/bn128/chain/verification_key.json" "$T/o2/public-0.json" "$T/o2/proof-0.json"
[ "$(sql "SELECT count(*) FROM results WHERE ok")" = 2 ] || fail "not 2 results in the database"

note "every connection of g16d's is encrypted (pg_stat_ssl)"
conns="FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'g16d'"
[ "$(sql "SELECT count(*) $conns AND a.client_addr = '127.0.0.1'")" = 3 ] ||
  fail "g16d does not hold its 3 connections over TCP: $(sql "SELECT a.client_addr, s.ssl $conns")"
[ "$(sql "SELECT count(*) $conns AND NOT s.ssl")" = 0 ] || fail "a connection without TLS"
note "g16d's connections: $(sql "SELECT string_agg(DISTINCT s.version || ' ' || s.cipher, ', ') $conns AND s.ssl")"
stop_host a

note "verify-full against another root, and for a name the certificate lacks"
pg_cert "$T" other
refused "certificate verify failed" "$PG_TCP_URL?sslmode=verify-full&sslrootcert=$T/other.crt"
# (the log line quotes the error as one value: its own quotes are escaped)
refused 'does not match host name \\"localhost\\"' \
  "postgresql://g16@localhost:$PG_PORT/postgres?hostaddr=127.0.0.1&sslmode=verify-full&sslrootcert=$ROOT"

note "sslmode=require against the same server without TLS"
PG_SSL=off
pg_restart || fail "PostgreSQL did not restart without TLS"
refused "server does not support SSL, but SSL was required" "$PG_TCP_URL?sslmode=require"
note "ok"
