#!/usr/bin/env bash
# bad_input.sh CASE: g16 prove on bad input fails cleanly: exit 1..125, one
# line on stderr naming the offending file, no output or temp file left (see
# expect_clean_failure in lib.sh). Inputs are altered copies of the bn128
# multiplier fixture in a scratch folder; the fixtures are never written.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
case_name=$1
d=$(fixture bn128 multiplier)
ZKEY=$d/circuit.zkey
WTNS=$d/witness.wtns
mkdir -p "$T/in" "$T/out"
PROOF=$T/out/proof.json
PUBLIC=$T/out/public.json

# Nowhere to write: a folder that does not exist, and a path under a regular
# file (a read-only folder would not stop root, and tests may run as root).
NODIR=/nonexistent-g16-e2e-dir
[ ! -e "$NODIR" ] || fail "$NODIR exists; this test needs it not to"
: >"$T/regular-file"

# copy_in SRC NAME: a writable copy of SRC in $T/in; prints its path.
copy_in() { cp "$1" "$T/in/$2" && chmod u+w "$T/in/$2" && printf '%s\n' "$T/in/$2"; }

# truncate_cases SRC KIND LENGTHS...: SRC cut to each length must be refused.
truncate_cases() {
  local src=$1 kind=$2 len f
  shift 2
  for len in "$@"; do
    f=$T/in/truncated-$len.$kind
    head -c "$len" "$src" >"$f"
    if [ "$kind" = zkey ]; then
      expect_clean_failure "zkey cut to $len bytes" "$f" prove "$f" "$WTNS" "$PROOF" "$PUBLIC"
    else
      expect_clean_failure "wtns cut to $len bytes" "$f" prove "$ZKEY" "$f" "$PROOF" "$PUBLIC"
    fi
  done
}

zsize=$(stat -c %s "$ZKEY")
wsize=$(stat -c %s "$WTNS")

case $case_name in
zkey_missing)
  expect_clean_failure "missing zkey" "$T/in/missing.zkey" prove "$T/in/missing.zkey" "$WTNS" "$PROOF" "$PUBLIC" ;;
wtns_missing)
  expect_clean_failure "missing wtns" "$T/in/missing.wtns" prove "$ZKEY" "$T/in/missing.wtns" "$PROOF" "$PUBLIC" ;;
zkey_empty)
  : >"$T/in/empty.zkey"
  expect_clean_failure "empty zkey" "$T/in/empty.zkey" prove "$T/in/empty.zkey" "$WTNS" "$PROOF" "$PUBLIC" ;;
wtns_empty)
  : >"$T/in/empty.wtns"
  expect_clean_failure "empty wtns" "$T/in/empty.wtns" prove "$ZKEY" "$T/in/empty.wtns" "$PROOF" "$PUBLIC" ;;
zkey_truncated)
  # inside the magic, the header, the section table, the points; one byte short
  truncate_cases "$ZKEY" zkey 3 10 30 100 $((zsize / 2)) $((zsize - 1)) ;;
wtns_truncated)
  truncate_cases "$WTNS" wtns 3 10 30 70 $((wsize - 1)) ;;
zkey_magic)
  f=$(copy_in "$ZKEY" magic.zkey); put_bytes "$f" 0 "7a6b657a"   # "zkez"
  expect_clean_failure "zkey with magic zkez" "$f" prove "$f" "$WTNS" "$PROOF" "$PUBLIC" ;;
wtns_magic)
  f=$(copy_in "$WTNS" magic.wtns); put_bytes "$f" 0 "77746e78"   # "wtnx"
  expect_clean_failure "wtns with magic wtnx" "$f" prove "$ZKEY" "$f" "$PROOF" "$PUBLIC" ;;
swapped)
  # the witness given as the key (and the key as the witness)
  w=$(copy_in "$WTNS" w.wtns); z=$(copy_in "$ZKEY" k.zkey)
  expect_clean_failure "wtns given as KEY.zkey" "$w" prove "$w" "$z" "$PROOF" "$PUBLIC" ;;
zkey_corrupt)
  read -r h1 _ _ < <(section_at "$ZKEY" 1)
  read -r _ o2 _ < <(section_at "$ZKEY" 2)
  n8q=$(u32_at "$ZKEY" "$o2")
  n8r=$(u32_at "$ZKEY" $((o2 + 4 + n8q)))
  dom_off=$((o2 + 4 + n8q + 4 + n8r + 8))
  dom=$(u32_at "$ZKEY" "$dom_off")
  f=$(copy_in "$ZKEY" seclen.zkey); put_u64 "$f" $((h1 + 4)) $((1 << 40))
  expect_clean_failure "zkey section 1 longer than the file" "$f" prove "$f" "$WTNS" "$PROOF" "$PUBLIC"
  f=$(copy_in "$ZKEY" nsec.zkey); put_u32 "$f" 8 0
  expect_clean_failure "zkey declaring no sections" "$f" prove "$f" "$WTNS" "$PROOF" "$PUBLIC"
  f=$(copy_in "$ZKEY" prime.zkey); put_bytes "$f" $((o2 + 4)) "00"
  expect_clean_failure "zkey with an unknown base field modulus" "$f" prove "$f" "$WTNS" "$PROOF" "$PUBLIC"
  f=$(copy_in "$ZKEY" domain.zkey); put_u32 "$f" "$dom_off" $((dom * 2))
  expect_clean_failure "zkey whose domain size does not match its sections" "$f" prove "$f" "$WTNS" "$PROOF" "$PUBLIC"
  f=$(copy_in "$ZKEY" n8q.zkey); put_u32 "$f" "$o2" 31
  expect_clean_failure "zkey with a 31-byte base field" "$f" prove "$f" "$WTNS" "$PROOF" "$PUBLIC" ;;
wtns_corrupt)
  read -r _ o1 _ < <(section_at "$WTNS" 1)
  n8=$(u32_at "$WTNS" "$o1")
  f=$(copy_in "$WTNS" count.wtns); put_u32 "$f" $((o1 + 4 + n8)) 5
  expect_clean_failure "wtns declaring more values than it holds" "$f" prove "$ZKEY" "$f" "$PROOF" "$PUBLIC"
  f=$(copy_in "$WTNS" n8.wtns); put_u32 "$f" "$o1" 33
  expect_clean_failure "wtns with 33-byte values" "$f" prove "$ZKEY" "$f" "$PROOF" "$PUBLIC"
  f=$(copy_in "$WTNS" prime.wtns); put_bytes "$f" $((o1 + 4)) "00"
  expect_clean_failure "wtns with an unknown prime" "$f" prove "$ZKEY" "$f" "$PROOF" "$PUBLIC" ;;
wtns_wrong_length)
  other=$(fixture bn128 chain)/witness.wtns
  expect_clean_failure "witness of another circuit (4002 values for 4)" "$other" prove "$ZKEY" "$other" "$PROOF" "$PUBLIC"
  expect_clean_failure "witness of another circuit (4 values for 4002)" "$WTNS" prove "$(fixture bn128 chain)/circuit.zkey" "$WTNS" "$PROOF" "$PUBLIC" ;;
wtns_wrong_curve)
  other=$(fixture bls12381 multiplier)/witness.wtns
  expect_clean_failure "BLS12-381 witness with a BN254 key" "$other" prove "$ZKEY" "$other" "$PROOF" "$PUBLIC"
  expect_clean_failure "BN254 witness with a BLS12-381 key" "$WTNS" prove "$(fixture bls12381 multiplier)/circuit.zkey" "$WTNS" "$PROOF" "$PUBLIC" ;;
zkey_plonk)
  read -r _ o1 _ < <(section_at "$ZKEY" 1)
  [ "$(u32_at "$ZKEY" "$o1")" = 1 ] || fail "fixture $ZKEY is not a Groth16 key (protocol $(u32_at "$ZKEY" "$o1"))"
  for proto in 2:PLONK 10:FFLONK; do
    f=$(copy_in "$ZKEY" "${proto#*:}.zkey"); put_u32 "$f" "$o1" "${proto%%:*}"
    expect_clean_failure "${proto#*:} zkey (protocol ${proto%%:*})" "$f" prove "$f" "$WTNS" "$PROOF" "$PUBLIC"
    grep -Eiq 'plonk|groth16' "$T/stderr" || fail "${proto#*:} zkey: the error does not say it is not a Groth16 key"
  done ;;
out_proof_nodir)
  expect_clean_failure "PROOF.json in a missing folder" "$NODIR/proof.json" prove "$ZKEY" "$WTNS" "$NODIR/proof.json" "$PUBLIC" ;;
out_public_nodir)
  expect_clean_failure "PUBLIC.json in a missing folder" "$NODIR/public.json" prove "$ZKEY" "$WTNS" "$PROOF" "$NODIR/public.json" ;;
out_proof_notdir)
  expect_clean_failure "PROOF.json under a regular file" "$T/regular-file/proof.json" prove "$ZKEY" "$WTNS" "$T/regular-file/proof.json" "$PUBLIC" ;;
out_public_notdir)
  expect_clean_failure "PUBLIC.json under a regular file" "$T/regular-file/public.json" prove "$ZKEY" "$WTNS" "$PROOF" "$T/regular-file/public.json" ;;
out_isdir)
  mkdir "$T/out/adir"
  expect_clean_failure "PROOF.json is a folder" "$T/out/adir" prove "$ZKEY" "$WTNS" "$T/out/adir" "$PUBLIC"
  expect_clean_failure "PUBLIC.json is a folder" "$T/out/adir" prove "$ZKEY" "$WTNS" "$PROOF" "$T/out/adir" ;;
keep_existing)
  # earlier outputs at PROOF.json and PUBLIC.json stay as they were
  echo '{"old": "proof"}' >"$PROOF"; echo '["old"]' >"$PUBLIC"
  head -c 30 "$WTNS" >"$T/in/short.wtns"
  expect_clean_failure "bad witness with earlier outputs present" "$T/in/short.wtns" prove "$ZKEY" "$T/in/short.wtns" "$PROOF" "$PUBLIC"
  [ "$(cat "$PROOF")" = '{"old": "proof"}' ] && [ "$(cat "$PUBLIC")" = '["old"]' ] ||
    fail "a failed run changed the earlier PROOF.json / PUBLIC.json" ;;
*)
  fail "unknown case $case_name" ;;
esac
[ ! -e "$NODIR" ] || fail "g16 created $NODIR"
[ -f "$T/regular-file" ] && [ ! -s "$T/regular-file" ] || fail "g16 changed $T/regular-file"
