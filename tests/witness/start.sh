#!/usr/bin/env bash
# start.sh: the CLI's bounds on what a circuit and its input may take,
# through g16 wtns calculate and g16 fullprove.  Each command runs under
# `timeout`, so a regression fails rather than hangs.
#  - data/start_forever.wat, a start function that never returns, runs as
#    the circuit is opened: it stops at --witness-timeout with one line
#    naming the wasm and the limit, no output left;
#  - a FIFO as INPUT.json is refused at once (as a FIFO wasm or zkey is),
#    and so is an input above the 64 MiB limit, before it is read;
#  - data/grow.wat grows its memory by 64 MiB in its start code and by
#    128 MiB more in init: the default cap (64 MiB for the start code)
#    stops the first, --witness-memory 100M the second, 256M lets both
#    through; --witness-memory's values and help.
. "$(dirname "$0")/lib.sh"
c=(--cache-dir "$WITNESS_CACHE")
key=$G16_FIXTURES/bn128/multiplier/circuit.zkey
wasm=$G16_FIXTURES/bn128/multiplier/circuit.wasm
input=$G16_FIXTURES/bn128/multiplier/input.json
wat2wasm "$WITNESS_DATA/start_forever.wat" -o "$tmp/start_forever.wasm"
wat2wasm "$WITNESS_DATA/grow.wat" -o "$tmp/grow.wasm"
echo '{}' >"$tmp/empty.json"

# timed NAME LIMIT_S MESSAGE OUTPUTS... -- COMMAND...: cli_fails within
# LIMIT_S seconds (timeout kills it after that: exit 124, not 1).
timed() {
  local name=$1 limit=$2 t0=$SECONDS; shift 2
  local message=$1; shift
  local outs=()
  while [ "$1" != -- ]; do outs+=("$1"); shift; done; shift
  cli_fails "$name" "$message" "${outs[@]}" -- timeout -k 5 "$limit" "$@"
  echo "   ($name took $((SECONDS - t0)) s)"
}

start="$tmp/start_forever.wasm: its start code ran past the time limit of 1 s"
timed wtns_start_forever 60 "$start" "$tmp/o.wtns" -- \
  "$G16" wtns calculate "${c[@]}" --witness-timeout 1 "$tmp/start_forever.wasm" "$tmp/empty.json" "$tmp/o.wtns"
timed fullprove_start_forever 60 "$start" "$tmp/p.json" "$tmp/q.json" -- \
  "$G16" fullprove "${c[@]}" --witness-timeout 1 "$tmp/empty.json" "$tmp/start_forever.wasm" "$key" "$tmp/p.json" "$tmp/q.json"
# With no limit for calculations the start code still has the default's.
"$G16" wtns calculate --help | grep -q 'too (with no limit: 600)' || fail "wtns --help: the start code's limit"

mkfifo "$tmp/fifo.json"
timed wtns_fifo 20 "$tmp/fifo.json: not a regular file" "$tmp/o.wtns" -- \
  "$G16" wtns calculate "${c[@]}" "$wasm" "$tmp/fifo.json" "$tmp/o.wtns"
timed fullprove_fifo 20 "$tmp/fifo.json: not a regular file" "$tmp/p.json" "$tmp/q.json" -- \
  "$G16" fullprove "${c[@]}" "$tmp/fifo.json" "$wasm" "$key" "$tmp/p.json" "$tmp/q.json"

# Sparse: its size says it all, nothing need be read.
truncate -s $((64 * 1024 * 1024 + 1)) "$tmp/big.json"
big="$tmp/big.json: too large (67108865 bytes, at most 67108864)"
timed wtns_big 20 "$big" "$tmp/o.wtns" -- "$G16" wtns calculate "${c[@]}" "$wasm" "$tmp/big.json" "$tmp/o.wtns"
timed fullprove_big 20 "$big" "$tmp/p.json" "$tmp/q.json" -- \
  "$G16" fullprove "${c[@]}" "$tmp/big.json" "$wasm" "$key" "$tmp/p.json" "$tmp/q.json"
# At the limit it is read (and refused as the JSON it is not).
truncate -s $((64 * 1024 * 1024)) "$tmp/edge.json"
timeout 60 "$G16" wtns calculate "${c[@]}" "$wasm" "$tmp/edge.json" "$tmp/o.wtns" 2>"$tmp/err" &&
  fail "a 64 MiB file of NULs computed a witness"
grep -q "too large" "$tmp/err" && fail "an input of 64 MiB is refused as too large: $(cat "$tmp/err")"

for cmd in "wtns calculate" fullprove; do
  # shellcheck disable=SC2086
  "$G16" $cmd --help >"$tmp/help"
  grep -q -- '--witness-memory SIZE' "$tmp/help" || fail "g16 $cmd --help: no --witness-memory"
  grep -q 'at least 64M' "$tmp/help" || fail "g16 $cmd --help: no default for --witness-memory"
  grep -q '64 MiB' "$tmp/help" || fail "g16 $cmd --help: no input size limit"
  for v in 0 -1 x 5Q ""; do
    rc=0
    # shellcheck disable=SC2086
    "$G16" $cmd --witness-memory "$v" a b c d e >/dev/null 2>&1 || rc=$?
    [ "$rc" = 2 ] || fail "g16 $cmd --witness-memory '$v': exit $rc, not 2"
  done
done
timed grow_default 60 "$tmp/grow.wasm: its start code trapped" "$tmp/o.wtns" -- \
  "$G16" wtns calculate "${c[@]}" "$tmp/grow.wasm" "$tmp/empty.json" "$tmp/o.wtns"
timed grow_100M 60 "$tmp/grow.wasm: init: the calculator trapped" "$tmp/o.wtns" -- \
  "$G16" wtns calculate "${c[@]}" --witness-memory 100M "$tmp/grow.wasm" "$tmp/empty.json" "$tmp/o.wtns"
timed fullprove_grow_100M 60 "$tmp/grow.wasm: init: the calculator trapped" "$tmp/p.json" "$tmp/q.json" -- \
  "$G16" fullprove "${c[@]}" --witness-memory 100M "$tmp/empty.json" "$tmp/grow.wasm" "$key" "$tmp/p.json" "$tmp/q.json"
timeout 60 "$G16" wtns calculate "${c[@]}" --witness-memory 256M "$tmp/grow.wasm" "$tmp/empty.json" "$tmp/o.wtns" 2>"$tmp/err" ||
  fail "grow under --witness-memory 256M: $(cat "$tmp/err")"
[ -s "$tmp/o.wtns" ] || fail "grow under --witness-memory 256M: no witness"
# The fixture under the default cap, as before.
timeout 60 "$G16" wtns calculate "${c[@]}" "$wasm" "$input" "$tmp/m.wtns" 2>"$tmp/err" ||
  fail "the fixture under the default cap: $(cat "$tmp/err")"
cmp -s "$tmp/m.wtns" "$G16_FIXTURES/bn128/multiplier/witness.wtns" || fail "the fixture's witness differs"
finish
