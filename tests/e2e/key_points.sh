#!/usr/bin/env bash
# key_points.sh CURVE CIRCUIT: `g16 prove` (and `g16 fullprove`) with a key
# one of whose points is off its curve fails with "<key>: <section> point <i>
# is not on the curve" and writes nothing (it used to exit 0 with a proof no
# verifier accepts).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_g16
curve=$1 circuit=$2
d=$(fixture "$curve" "$circuit")
n8q=$([ "$curve" = bls12381 ] && echo 48 || echo 32)

# corrupt NAME SECTION_ID POINT_BYTES INDEX: a copy of the key with the
# lowest byte of point INDEX's y coordinate (its first limb, for G2)
# changed, then the prove that must refuse it.
corrupt() {
  local name=$1 id=$2 size=$3 i=$4 key="$T/$1.zkey" data len off byte
  cp "$d/circuit.zkey" "$key"
  read -r _ data len < <(section_at "$key" "$id")
  [ $(((i + 1) * size)) -le "$len" ] || fail "$name: section $id has no point $i"
  off=$((data + i * size + size / 2))
  byte=$(od -An -v -t u1 -j "$off" -N 1 "$key" | tr -d ' ')
  put_bytes "$key" "$off" "$(printf '%02x' $(((byte + 1) & 255)))"
  cmp -s "$key" "$d/circuit.zkey" && fail "$name: the copy is unchanged"
  expect_clean_failure "$name point $i off the curve" "$key" \
    prove "$key" "$d/witness.wtns" "$T/out/proof.json" "$T/out/public.json"
  grep -qF "$key: $name point $i is not on the curve" "$T/stderr" ||
    { show_run; fail "$name: expected '$key: $name point $i is not on the curve'"; }
}

g1=$((2 * n8q)) g2=$((4 * n8q))
corrupt IC 3 "$g1" 1
corrupt A 5 "$g1" 2
corrupt B1 6 "$g1" 1
corrupt B2 7 "$g2" 2
corrupt C 8 "$g1" 0
corrupt H 9 "$g1" 3

# fullprove checks the key as prove does (the last corrupted copy: H)
expect_clean_failure "fullprove, H point 3 off the curve" "$T/H.zkey" \
  fullprove --cache-dir "$T/cache" "$d/input.json" "$d/circuit.wasm" "$T/H.zkey" \
  "$T/out/proof.json" "$T/out/public.json"
grep -qF "$T/H.zkey: H point 3 is not on the curve" "$T/stderr" ||
  { show_run; fail "fullprove: expected '$T/H.zkey: H point 3 is not on the curve'"; }
