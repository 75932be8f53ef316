#!/bin/bash
# The daemon's compiled circuits (STATE/circuits) through key registration
# over the socket: a forged shared object whose constructor writes a
# marker file, with a trailer that binds it to the key's wasm, is never
# loaded from a circuits directory others may write or that is (through a
# link) another user's: the key is refused with a 400 naming the
# directory.  A state directory others may write is refused at startup.
source "$(dirname "$0")/lib.sh"
W=$FIX/bn128/multiplier
T=$(realpath "$T")
STATE=$T/state
body=$(printf '{"name":"m","path":"%s","wasm":"%s"}' "$(realpath "$W/circuit.zkey")" "$(realpath "$W/circuit.wasm")")

# The real entry, compiled by a first registration.
start_daemon
client keys load m "$W/circuit.zkey" --wasm "$W/circuit.wasm" >/dev/null || fail "loading the key"
entry=$(ls "$STATE"/circuits/*.so)
client keys evict m >/dev/null || fail "evicting the key"

marker=$T/marker
printf '#include <stdio.h>\n__attribute__((constructor)) static void forged(void)\n{ FILE *f = fopen("%s", "w"); if (f) fclose(f); }\n' \
  "$marker" >"$T/forged.c"
cc -shared -fPIC -o "$T/forged.so" "$T/forged.c"
node "$(dirname "$0")/../witness/forge_entry.js" "$T/forged.so" "$entry" "$T/forged-entry"
cp "$T/forged-entry" "$entry"

# refused_key WORD: registering the key gets a 400 that says WORD; the
# forgery did not run and the key is not loaded.
refused_key() {
  expect 400 "$1" POST /v1/keys "$body"
  [ ! -e "$marker" ] || fail "the forged object was loaded (its constructor ran)"
  [ "$(client keys list | js 'o.keys.length')" = 0 ] || fail "the refused key is listed"
}
chmod 0777 "$STATE/circuits"
refused_key "$STATE/circuits: it is writable by others"
if [ "$(id -u)" = 0 ]; then
  mkdir -m 0755 "$T/theirs"
  mv "$entry" "$T/theirs/"
  chown -R nobody "$T/theirs"
  chmod 0755 "$T"
  rm -rf "$STATE/circuits"
  ln -s "$T/theirs" "$STATE/circuits"
  refused_key "its real path $T/theirs belongs to uid $(id -u nobody)"
else
  note "not root: cannot give a directory to another user (the owner check runs as root in CI)"
fi
stop_daemon

# The state directory itself.
chmod 0777 "$STATE"
rc=0
timeout 30 "$G16D" --socket "$T/s2" --state-dir "$STATE" >"$T/err" 2>&1 || rc=$?
[ "$rc" != 0 ] && [ "$rc" != 124 ] || fail "g16d started on a world-writable state directory (exit $rc)"
grep -qF "state directory $STATE: it is writable by others" "$T/err" ||
  fail "the startup error does not name the state directory: $(cat "$T/err")"
note "$(cat "$T/err")"
