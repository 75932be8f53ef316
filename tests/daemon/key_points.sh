#!/bin/bash
# A key one of whose points is off its curve is refused when it is loaded
# (400 naming the key, the section and the point), is not listed, and
# proves nothing; an intact key is listed with "points_checked": true.
source "$(dirname "$0")/lib.sh"
D=$FIX/bn128/chain

# section_data FILE ID: "DATA_OFFSET LENGTH" of section ID of an iden3 file.
section_data() {
  node -e '
    const b = require("fs").readFileSync(process.argv[1]), id = +process.argv[2];
    for (let off = 12, i = 0; i < b.readUInt32LE(8); i++) {
      const len = Number(b.readBigUInt64LE(off + 4));
      if (b.readUInt32LE(off) === id) { console.log(off + 12, len); process.exit(0); }
      off += 12 + len;
    }
    process.exit(1);' "$1" "$2"
}
# corrupt NAME ID POINT_BYTES INDEX: $T/NAME.zkey with one byte of the y
# coordinate of point INDEX of section ID changed.
corrupt() {
  local key=$T/$1.zkey data len off
  cp "$D/circuit.zkey" "$key"
  read -r data len < <(section_data "$key" "$2") || fail "$1: no section $2 in the key"
  off=$((data + $4 * $3 + $3 / 2))
  [ $(($4 * $3 + $3)) -le "$len" ] || fail "$1: section $2 has no point $4"
  node -e 'const fs = require("fs"), f = process.argv[1], o = +process.argv[2];
    const b = fs.readFileSync(f); b[o] = (b[o] + 1) & 255; fs.writeFileSync(f, b);' "$key" "$off"
  cmp -s "$key" "$D/circuit.zkey" && fail "$1: the copy is unchanged"
  echo "$key"
}

start_daemon --memory-budget 1G --threads 1
for spec in "H 9 64 3" "B2 7 128 1" "IC 3 64 0"; do
  set -- $spec
  key=$(corrupt "$@")
  got=$(code POST /v1/keys "{\"name\": \"bad$1\", \"path\": \"$key\"}")
  [ "$got" = 400 ] || fail "$1 point $4 off the curve: status $got, wanted 400 ($(cat "$T/last.json"))"
  grep -qF "$key: $1 point $4 is not on the curve" "$T/last.json" ||
    fail "$1: the refusal does not name the point: $(cat "$T/last.json")"
  note "refused: $(cat "$T/last.json")"
done
[ "$(api http://d/v1/keys | js o.keys.length)" = 0 ] || fail "a refused key is listed: $(api http://d/v1/keys)"
got=$(code POST /v1/proofs "{\"key\": \"badH\", \"witnesses\": [\"$D/witness.wtns\"]}")
[ "$got" = 404 ] || fail "a job on a refused key: status $got, wanted 404"

client keys load chain "$D/circuit.zkey" >/dev/null
[ "$(api http://d/v1/keys | js 'o.keys[0].points_checked')" = true ] ||
  fail "an intact key is not listed as checked: $(api http://d/v1/keys)"
id=$(client prove --key chain "$D/witness.wtns")
client wait "$id" --out "$T/out" --timeout 60 >/dev/null || fail "the intact key does not prove"
"$G16" verify "$D/verification_key.json" "$T/out/public-0.json" "$T/out/proof-0.json" >/dev/null ||
  fail "the intact key's proof does not verify"
stop_daemon
