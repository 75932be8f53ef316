#!/usr/bin/env bash
# check_fixtures.sh: `g16 check` accepts every fixture's witness, and
# rejects (exit 1, naming a constraint) the same witness with one signal
# changed, or with witness[0] != 1.
source "$G16_E2E_LIB"
n=0
for d in "$G16_FIXTURES"/*/*/; do
  d=${d%/}
  [ -f "$d/circuit.r1cs" ] || continue
  run_g16 check "$d/circuit.r1cs" "$d/witness.wtns"
  [ "$RC" -eq 0 ] || { show_run; fail "g16 check rejected the fixture witness of $d"; }
  grep -q '^OK' "$T/stdout" || { show_run; fail "g16 check did not print OK for $d"; }
  # wtns v2: 12-byte file header, section 1 (12 + 4 + n8 + 4), then section 2.
  n8=$(u32_at "$d/witness.wtns" 24)
  values=$((12 + 12 + 4 + n8 + 4 + 12))
  cp "$d/witness.wtns" "$T/bad.wtns"
  chmod u+w "$T/bad.wtns"
  # Signal 1 (an output or input, constrained in every fixture): set it to
  # 0, or to 1 if it already is 0.
  first=$(od -An -v -t u1 -j $((values + n8)) -N 1 "$T/bad.wtns" | tr -d ' ')
  zero=$(printf '%0*d' $((2 * n8)) 0)
  if [ "$(od -An -v -t x1 -j $((values + n8)) -N "$n8" "$T/bad.wtns" | tr -d ' \n')" = "$zero" ]; then
    put_bytes "$T/bad.wtns" $((values + n8)) 01
  else
    put_bytes "$T/bad.wtns" $((values + n8)) "$zero"
  fi
  run_g16 check "$d/circuit.r1cs" "$T/bad.wtns"
  [ "$RC" -eq 1 ] || { show_run; fail "g16 check on a tampered witness of $d: exit $RC, expected 1 (first byte was $first)"; }
  grep -Eq 'constraint [0-9]+' "$T/stdout" || { show_run; fail "g16 check did not name the failing constraint for $d"; }
  cp "$d/witness.wtns" "$T/bad0.wtns"
  chmod u+w "$T/bad0.wtns"
  put_bytes "$T/bad0.wtns" "$values" 02
  run_g16 check "$d/circuit.r1cs" "$T/bad0.wtns"
  [ "$RC" -eq 1 ] || { show_run; fail "g16 check accepted witness[0] = 2 for $d (exit $RC)"; }
  n=$((n + 1))
done
[ "$n" -ge 4 ] || fail "only $n fixtures found under $G16_FIXTURES"
note "checked $n fixtures (and their tampered witnesses)"
