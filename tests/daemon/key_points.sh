#!/bin/bash
# A key one of whose points is off its curve is refused when it is loaded
# (400 naming the key, the section and the point), is not listed, and
# proves nothing; an intact key is listed with "points_checked": true.
# A key whose points are on their curves but wrong (C point 0 replaced by
# point 1) loads, and the self-verification fails every one of its
# proofs, which the finalize stage checks in batches: each partition
# fails with its own message, nothing is lost, and an intact key's job
# beside it finishes with its proofs checked in batches.
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

wrong=$T/wrongC.zkey
cp "$D/circuit.zkey" "$wrong"
read -r data len < <(section_data "$wrong" 8) || fail "no C section in the key"
[ "$len" -ge 128 ] || fail "the C section has fewer than two points"
dd if="$D/circuit.zkey" of="$wrong" bs=1 skip=$((data + 64)) seek="$data" count=64 conv=notrunc status=none
client keys load wrongC "$wrong" >/dev/null || fail "a key with on-curve points was refused"
ws=()
for _ in $(seq 12); do ws+=("$D/witness.wtns"); done
bad=$(client prove --key wrongC "${ws[@]}")
good=$(client prove --key chain "${ws[@]}")
client wait "$bad" --timeout 120 >"$T/bad.json" && fail "the wrong key's job succeeded"
[ "$(js o.partitions_failed <"$T/bad.json")" = 12 ] || fail "not all 12 of the wrong key's partitions failed: $(head -c 400 "$T/bad.json")"
n=$(js 'o.partitions.filter(p => /self-verification failed: proof: the pairing equation does not hold/.test(p.error)).length' <"$T/bad.json")
[ "$n" = 12 ] || fail "$n of 12 failures say the self-verification failed: $(head -c 600 "$T/bad.json")"
client wait "$good" --timeout 120 --out "$T/good" >"$T/good.json" || fail "the intact key's job failed beside it"
verify_dir "$D/verification_key.json" "$T/good" 12
# a batch's verification time is shared out: equal values mean batches
distinct=$(js 'new Set(o.partitions.map(p => p.timings.verify_s)).size' <"$T/good.json")
[ "$distinct" -lt 12 ] || fail "12 distinct verify_s: no proofs were checked in a batch"
note "wrong key: 12 partitions failed self-verification; intact key: 12 verified, $distinct distinct verify_s"
stop_daemon
