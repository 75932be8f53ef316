#!/usr/bin/env bash
# cli_verify.sh G16 TEST_VERIFY FIXTURES: `g16 verify` and `g16 export-vk` on
# every fixture.  The reference proof prints OK / exit 0; tampered copies
# (changed public signal, swapped pi_a/pi_c, pi_a off the curve, truncated
# JSON, wrong curve name, missing file) exit 1 or 2, never 0; export-vk
# equals verification_key.json as JSON values (TEST_VERIFY json-equal).
set -u
G16=$1 TV=$2 FIX=$3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_reject WHAT VK PUBLIC PROOF
expect_reject() {
  local what=$1; shift
  "$G16" verify "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then fail "$what: exit $rc"; cat "$T/out" "$T/err" >&2; fi
  [ -s "$T/err" ] || fail "$what: no message on stderr"
}

for d in "$FIX"/*/*/; do
  d=${d%/}
  [ -f "$d/proof.json" ] || continue
  vk=$d/verification_key.json pub=$d/public.json proof=$d/proof.json
  out=$("$G16" verify "$vk" "$pub" "$proof" 2>"$T/err"); rc=$?
  { [ "$rc" -eq 0 ] && [ "$out" = OK ]; } || { fail "$d: reference proof: exit $rc, '$out'"; cat "$T/err" >&2; }

  # A different public signal: prefix its first digit with 1 (stays < r).
  # Only meaningful when IC[1] is finite (see test_verify.c); otherwise
  # the value must still be range-checked: use r itself.
  sed '0,/"[0-9]/s/"\([0-9]\)/"1\1/' "$pub" >"$T/pub.json"
  grep -q '"0",' <(sed -n '/"IC"/,$p' "$vk" | sed -n '7,9p') ||
    expect_reject "$d: changed public signal" "$vk" "$T/pub.json" "$proof"
  sed 's/"pi_a"/"pi_x"/; s/"pi_c"/"pi_a"/; s/"pi_x"/"pi_c"/' "$proof" >"$T/swap.json"
  expect_reject "$d: swapped pi_a/pi_c" "$vk" "$pub" "$T/swap.json"
  # pi_a.x + 1: the line after "pi_a" holds x; bump its last digit.
  awk '/"pi_a"/ {f = 1; print; next}
       f == 1 { if (match($0, /[0-8]"/)) { d = substr($0, RSTART, 1) + 1; $0 = substr($0, 1, RSTART - 1) d substr($0, RSTART + 1) }
                else sub(/9"/, "8\""); f = 0 }
       { print }' "$proof" >"$T/off.json"
  cmp -s "$proof" "$T/off.json" && fail "$d: could not edit pi_a"
  expect_reject "$d: pi_a off the curve" "$vk" "$pub" "$T/off.json"
  head -c 100 "$proof" >"$T/trunc.json"
  expect_reject "$d: truncated proof" "$vk" "$pub" "$T/trunc.json"
  sed 's/"bn128"/"CURVE_A"/; s/"bls12381"/"bn128"/; s/"CURVE_A"/"bls12381"/' "$proof" >"$T/curve.json"
  expect_reject "$d: wrong curve name" "$vk" "$pub" "$T/curve.json"
  expect_reject "$d: missing file" "$vk" "$pub" "$T/no-such-file.json"
  expect_reject "$d: arguments in the wrong order" "$proof" "$pub" "$vk"

  rm -f "$T/vk.json"
  "$G16" export-vk "$d/circuit.zkey" "$T/vk.json" 2>"$T/err" || { fail "$d: export-vk failed"; cat "$T/err" >&2; }
  "$TV" json-equal "$T/vk.json" "$vk" || fail "$d: export-vk differs from verification_key.json"
  ls "$T" | grep -q '\.tmp\.' && fail "$d: export-vk left a temporary file"
done

# Oversized inputs are refused from their size, before anything is read: a
# proof over 64 KiB (a real one is about 1 KiB), a key or public signals
# over 256 MiB (sparse files: nothing is written to disk).
d=$FIX/bn128/multiplier
truncate -s 65537 "$T/big-proof.json"
truncate -s 257M "$T/big.json"
for args in "$d/verification_key.json $d/public.json $T/big-proof.json:$T/big-proof.json" \
            "$T/big.json $d/public.json $d/proof.json:$T/big.json" \
            "$d/verification_key.json $T/big.json $d/proof.json:$T/big.json"; do
  big=${args#*:}
  rc=0
  # shellcheck disable=SC2086
  timeout 5 "$G16" verify ${args%%:*} >/dev/null 2>"$T/err" || rc=$?
  [ "$rc" = 2 ] && grep -qF "$big: too large" "$T/err" ||
    fail "verify ${args%%:*}: exit $rc, wanted 2 with '$big: too large': $(cat "$T/err")"
done

"$G16" verify --help | grep -q 'VK.json PUBLIC.json PROOF.json' || fail "verify --help"
"$G16" verify a b >/dev/null 2>&1; [ $? -eq 2 ] || fail "verify with two arguments should exit 2"
"$G16" export-vk "$FIX/bn128/multiplier/circuit.zkey" "$T/no/such/dir/vk.json" 2>/dev/null && fail "export-vk into a missing directory succeeded"
"$G16" export-vk "$FIX/bn128/multiplier/proof.json" "$T/vk2.json" 2>/dev/null && fail "export-vk of a non-zkey succeeded"
[ -e "$T/vk2.json" ] && fail "a failed export-vk wrote its output"
[ "$failures" -eq 0 ] && echo "cli_verify: ok"
exit $((failures > 0))
