# Shared helpers of the g16d tests (sourced).  Environment from
# tests/daemon/CMakeLists.txt: G16D, G16, G16_SNARKJS, G16_FIXTURES.
# Every daemon a test starts lives in its own scratch directory (short
# path: Unix socket paths are limited to 107 bytes) and is killed on exit.
set -Eeuo pipefail
# A command that fails outside an explicit check still names itself: set -e
# alone would end the test with no FAIL line to say where.
trap 'echo "stopped: line $LINENO: $BASH_COMMAND exited with $?" >&2' ERR

fail() { echo "FAIL: $*" >&2; [ -n "${LOG:-}" ] && [ -f "$LOG" ] && tail -20 "$LOG" >&2; exit 1; }
note() { echo "-- $*"; }

: "${G16D:?G16D is not set}" "${G16:?G16 is not set}" "${G16_FIXTURES:?G16_FIXTURES is not set}"
[ -x "$G16D" ] || fail "g16d not found at $G16D"
command -v curl >/dev/null || fail "curl not found (scripts/install-deps.sh installs it)"
command -v node >/dev/null || fail "node not found (make deps)"
T=$(mktemp -d /tmp/g16dt.XXXXXX)
SOCK=$T/s
STATE=$T/state
LOG=$T/g16d.log
PID=
cleanup() {
  [ -n "$PID" ] && kill -9 "$PID" 2>/dev/null || true
  rm -rf "$T"
}
trap cleanup EXIT

FIX=$G16_FIXTURES
# start_daemon ARGS...: starts g16d on $SOCK/$STATE, waits for the socket.
start_daemon() {
  "$G16D" --socket "$SOCK" --state-dir "$STATE" --allow-dir "$FIX" --allow-dir "$T" "$@" >>"$LOG" 2>&1 &
  PID=$!
  wait_socket "$SOCK" "$PID" g16d
}

# wait_socket SOCK PID NAME: until the g16d NAME (process PID) answers on SOCK.
wait_socket() {
  for _ in $(seq 100); do
    [ -S "$1" ] && curl -sf --unix-socket "$1" http://d/v1/status >/dev/null && return 0
    kill -0 "$2" 2>/dev/null || fail "$3 exited at startup"
    sleep 0.1
  done
  fail "$3 did not open $1"
}

# stop_daemon: SIGTERM, which must end it with status 0.
stop_daemon() {
  kill -TERM "$PID"
  local rc=0
  wait "$PID" || rc=$?
  PID=
  [ "$rc" = 0 ] || fail "g16d exited with $rc after SIGTERM"
  ! grep -qE "Sanitizer|runtime error:" "$LOG" || fail "sanitizer report in the g16d log"
}

client() { "$G16" client --socket "$SOCK" "$@"; }
api() { curl -s --unix-socket "$SOCK" "$@"; }
# code METHOD PATH [DATA]: prints the HTTP status only.
code() {
  if [ $# -ge 3 ]; then api -o "$T/last.json" -w '%{http_code}' -X "$1" --data-binary "$3" "http://d$2"
  else api -o "$T/last.json" -w '%{http_code}' -X "$1" "http://d$2"; fi
}
# js EXPR < JSON: evaluates EXPR with the parsed input as o.
js() { node -e 'const o=JSON.parse(require("fs").readFileSync(0,"utf8"));const v=eval(process.argv[1]);console.log(typeof v==="object"?JSON.stringify(v):v)' "$1"; }

# verify_dir VK DIR N: the N proofs `g16 client wait --out DIR` wrote verify.
verify_dir() {
  local i
  for i in $(seq 0 $(($3 - 1))); do
    "$G16" verify "$1" "$2/public-$i.json" "$2/proof-$i.json" >"$T/v.log" 2>&1 ||
      fail "proof $i in $2 does not verify: $(cat "$T/v.log")"
  done
}

# snarkjs_ok VK PUBLIC PROOF
snarkjs_ok() {
  [ -x "${G16_SNARKJS:-}" ] || fail "snarkjs not found at ${G16_SNARKJS:-} (make deps)"
  "$G16_SNARKJS" groth16 verify "$@" >"$T/sj.log" 2>&1 && grep -q "OK" "$T/sj.log" ||
    fail "snarkjs rejects $3: $(cat "$T/sj.log")"
}

hwm_kb() { awk '/^VmHWM/ {print $2}' "/proc/$PID/status"; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$PID/status"; }
