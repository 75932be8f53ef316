#!/bin/bash
# A key's circuit at load: a wasm that is no circom calculator gets 400
# naming the file, however it fails (a header and nothing else: no
# functions to instrument; an export section cut short; exports of the
# right names but globals, which only cc notices), and nothing is loaded.
# While a circuit compiles (wasm2c and cc, outside g16d's own memory)
# its key is listed as compiling, with the budget the compile holds, and
# the budget counts it until the compile ends.
source "$(dirname "$0")/lib.sh"
M=$FIX/bn128/multiplier
start_daemon --memory-budget 1G # its own circuit cache: the circuit compiles here

printf '\0asm\1\0\0\0' >"$T/header_only.wasm"
printf '\0asm\1\0\0\0\7\5\1' >"$T/cut_exports.wasm"
{
  echo '(module'
  for e in getVersion getMinorVersion getPatchVersion getFieldNumLen32 getRawPrime \
    readSharedRWMemory writeSharedRWMemory init getInputSignalSize setInputSignal \
    getInputSize getWitnessSize getWitness getMessageChar; do
    echo "  (global (export \"$e\") i32 (i32.const 0))"
  done
  echo '  (func (result i32) (i32.const 1)))'
} >"$T/globals.wat"
command -v wat2wasm >/dev/null || fail "wat2wasm not found (wabt: scripts/install-deps.sh)"
wat2wasm "$T/globals.wat" -o "$T/globals.wasm"
for w in header_only cut_exports globals; do
  expect 400 "$T/$w.wasm" POST /v1/keys "{\"name\": \"$w\", \"path\": \"$M/circuit.zkey\", \"wasm\": \"$T/$w.wasm\"}"
done
[ "$(client keys list | js o.keys.length)" = 0 ] || fail "a refused circuit's key was loaded: $(client keys list)"

# The compile, seen from the listing while the load runs.
curl -s --unix-socket "$SOCK" -o "$T/load.json" -w '%{http_code}' -X POST \
  --data-binary "{\"name\": \"mul\", \"path\": \"$M/circuit.zkey\", \"wasm\": \"$M/circuit.wasm\"}" \
  http://d/v1/keys >"$T/load.code" &
LOADER=$!
seen=
for _ in $(seq 600); do
  client status >"$T/st.json"
  st=$(js 'o.keys.length ? JSON.stringify(o.keys[0].circuit) : ""' <"$T/st.json")
  if [[ "$st" == *'"state":"compiling"'* ]]; then
    seen=$st
    held=$(js o.keys[0].circuit.compile_reserved <"$T/st.json")
    reserved=$(js o.budget.reserved <"$T/st.json")
    break
  fi
  kill -0 "$LOADER" 2>/dev/null || break
  sleep 0.05
done
wait "$LOADER"
[ "$(cat "$T/load.code")" = 201 ] || fail "loading the key with its circuit: $(cat "$T/load.code") $(cat "$T/load.json")"
[ -n "$seen" ] || fail "the key was never listed as compiling its circuit"
note "while compiling: $seen; budget reserved $reserved"
[ "$held" -gt $((128 << 20)) ] || fail "the compile holds $held bytes of the budget"
[ "$reserved" -ge "$held" ] || fail "the budget's reservations ($reserved) leave out the compile's ($held)"
client keys list >"$T/keys.json"
[ "$(js o.keys[0].circuit.state <"$T/keys.json")" = ready ] || fail "after the load: $(cat "$T/keys.json")"
[ "$(js o.keys[0].circuit.compiled <"$T/keys.json")" = true ] || fail "the circuit was not compiled here"
[ "$(client status | js o.budget.reserved)" = 0 ] || fail "the compile's reservation was not given back"
stop_daemon
