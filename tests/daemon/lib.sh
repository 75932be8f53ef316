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

# shared_circuits: the daemon's compiled circuits go to the build tree's
# cache shared by the tests (safe for concurrent processes) instead of a
# fresh one, so each circuit is compiled once per build, not per test.
shared_circuits() {
  : "${G16_CIRCUIT_CACHE:?G16_CIRCUIT_CACHE is not set}"
  mkdir -p "$G16_CIRCUIT_CACHE" "$STATE"
  ln -sfn "$G16_CIRCUIT_CACHE" "$STATE/circuits"
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
# js EXPR < JSON: evaluates EXPR with the parsed input as o.  A plain path
# (o.a.b, o.a[0].b; no .length, which jq does not have) is read by jq and
# printed as node prints it (a string bare, an object or array as compact
# JSON, a missing field as "undefined"): a node start costs ~0.1 s and the
# tests make hundreds of these calls.  Anything else is node's.
js() {
  if [[ $1 =~ ^o(\.[A-Za-z_][A-Za-z0-9_]*|\[[0-9]+\])+$ && $1 != *.length* ]]; then
    local path=${1#o}
    [[ $path == .* ]] || path=.$path # o[0]: jq's .[0]
    jq -r "path($path) as \$p | getpath(\$p[:-1]) as \$up
      | if (\$up | type) == \"object\" and (\$up | has(\$p[-1]))
           or (\$up | type) == \"array\" and (\$p[-1] | type) == \"number\" and \$p[-1] < (\$up | length)
        then getpath(\$p) | if type == \"object\" or type == \"array\" then tojson else . end
        else \"undefined\" end"
    return
  fi
  node -e 'const o=JSON.parse(require("fs").readFileSync(0,"utf8"));const v=eval(process.argv[1]);console.log(typeof v==="object"?JSON.stringify(v):v)' "$1"
}

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

# expect STATUS WORD METHOD PATH [DATA]: the request gets STATUS and an
# error that mentions WORD (case-insensitive, a fixed string).
expect() {
  local want=$1 word=$2 got
  shift 2
  got=$(code "$@")
  [ "$got" = "$want" ] || fail "$1 $2: status $got, wanted $want ($(cat "$T/last.json"))"
  grep -qiF -- "$word" "$T/last.json" || fail "$1 $2: error does not mention '$word': $(cat "$T/last.json")"
  note "$want $(cat "$T/last.json")"
}

# check_hwm BUDGET IDLE_KB: the daemon's VmHWM is within BUDGET bytes plus
# its idle RSS (binary, libraries) and 8 MiB of stacks and bookkeeping.
check_hwm() {
  local hwm over_kb=$(($2 + 8 * 1024))
  hwm=$(hwm_kb)
  note "VmHWM $hwm KiB, idle RSS $2 KiB, budget $(($1 / 1024)) KiB, allowed $(($1 / 1024 + over_kb)) KiB"
  if [ "${G16_SANITIZED:-0}" = 1 ]; then
    # ASan's quarantine and shadow memory are not the daemon's: the bound is
    # for production builds; the accounting checks still run.
    note "sanitizer build: VmHWM bound not checked"
  else
    [ "$hwm" -le $(($1 / 1024 + over_kb)) ] || fail "VmHWM $hwm KiB exceeds budget + overhead"
  fi
}

# timeline WORKERS: from the memory timeline, MAXHELD (partitions holding
# a reservation), MAXRES (KiB reserved), MAXQ (queued for synthesis),
# MAXSYN (in synthesis) at most, and HELDBACK: samples where partitions
# were queued while some of the WORKERS synthesis workers sat idle (the
# budget, not the workers, held them back).
timeline() {
  api "http://d/v1/memory?format=json" >"$T/mem.json"
  MAXHELD=$(js 'Math.max(...o.samples.map(s=>s.held_parts))' <"$T/mem.json")
  MAXRES=$(js 'Math.max(...o.samples.map(s=>s.reserved_kb))' <"$T/mem.json")
  MAXQ=$(js 'Math.max(...o.samples.map(s=>s.queued.synthesis))' <"$T/mem.json")
  MAXSYN=$(js 'Math.max(...o.samples.map(s=>s.busy.synthesis))' <"$T/mem.json")
  HELDBACK=$(js "o.samples.filter(s=>s.queued.synthesis>0&&s.busy.synthesis<$1).length" <"$T/mem.json")
  note "timeline: up to $MAXQ partitions waited; at most $MAXHELD held memory ($MAXRES KiB" \
       "reserved), $MAXSYN in synthesis; $HELDBACK samples with work queued and workers idle"
}
# check_ledger: in every sample of the memory timeline, what the budget
# counted at that moment (reservations and the keys' charge) stayed
# within it.  Per sample, not the largest reservation against today's
# keys: a circuit's compile at load holds all that is free beside the
# keys loaded so far, before a later key is.
check_ledger() {
  client memory >"$T/ledger.csv"
  local over
  over=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["budget_kb"] != "" && $c["reserved_kb"] + $c["keys_kb"] > $c["budget_kb"] {
      print "at " $c["mono_s"] " s, " $c["reserved_kb"] " KiB reserved + " $c["keys_kb"] \
            " KiB of keys > " $c["budget_kb"] " KiB"; exit }' "$T/ledger.csv")
  [ -z "$over" ] || fail "the budget was exceeded: $over"
  [ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "keys_kb") k = i }
                NR > 1 && $k > 0 { n++ } END { print n + 0 }' "$T/ledger.csv")" -gt 0 ] ||
    fail "the memory timeline has no sample with the keys' charge"
}
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$PID/status"; }

# circom_key FILE.circom: the circuit compiled here with circom2 (--O0: an
# unconstrained output stays a wire, which g16 setup needs) into
# $T/NAME.wasm, with a key made here, $T/NAME.zkey, and its verification
# key $T/NAME_vk.json (NAME: the file's name without .circom).
circom_key() {
  local name circom
  name=$(basename "$1" .circom)
  circom=$(dirname "${G16_SNARKJS:-}")/circom2
  [ -x "$circom" ] || fail "circom2 not found at $circom (make deps)"
  cp "$1" "$T/"
  (cd "$T" && "$circom" "$name.circom" --r1cs --wasm --O0 -o "$T" >"$T/circom.log" 2>&1) ||
    fail "circom2: $(cat "$T/circom.log")"
  cp "$T/${name}_js/$name.wasm" "$T/$name.wasm"
  "$G16" setup --insecure-dev "$T/$name.r1cs" "$T/$name.zkey" >/dev/null 2>&1 ||
    fail "g16 setup of $name.r1cs"
  "$G16" export-vk "$T/$name.zkey" "$T/${name}_vk.json" || fail "g16 export-vk of $name.zkey"
}
