#!/usr/bin/env bash
# signal_commit.sh: a termination signal that reaches `g16 prove` once its
# outputs are being renamed into place does not turn a complete proof into
# a failure: it used to exit 143 (SIGTERM) with PROOF and PUBLIC both
# written.  The invariant, for a signal at any moment: exit 0 with both
# outputs there and verifying, or death by the signal with nothing left.
#  1. deterministic: strace holds each rename's return for a second (the
#     program is unchanged; only its system calls are slowed), and SIGTERM
#     is sent once PROOF is in place, i.e. between the two renames;
#  2. SIGTERM at random moments of short proofs, the invariant each time.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_g16
command -v strace >/dev/null 2>&1 || fail "strace not found (install it: make deps)"
d=$(fixture bn128 multiplier)

# check_outcome WHAT RC DIR: the invariant for one run's exit status and outputs.
check_outcome() {
  local what=$1 rc=$2 out=$3
  if [ "$rc" -eq 0 ]; then
    [ -s "$out/proof.json" ] && [ -s "$out/public.json" ] ||
      { ls -la "$out" >&2; fail "$what: exit 0 without both outputs"; }
    "$G16" verify "$d/verification_key.json" "$out/public.json" "$out/proof.json" >/dev/null ||
      fail "$what: exit 0 with a proof that does not verify"
    [ "$(ls -A "$out" | wc -l)" -eq 2 ] || { ls -la "$out" >&2; fail "$what: files left beside the outputs"; }
  else
    [ "$rc" -eq 143 ] || { cat "$T/stderr" >&2; fail "$what: exit $rc, neither 0 nor SIGTERM's 143"; }
    [ -z "$(ls -A "$out")" ] || { ls -la "$out" >&2; fail "$what: exit $rc with files left behind"; }
  fi
}

# 1. SIGTERM between the two renames.
out=$T/held
mkdir -p "$out"
# (LeakSanitizer cannot run under ptrace: a sanitized g16 checks no leaks
# here; the random runs below do)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
  strace -f -qq -o /dev/null -e trace=rename,renameat,renameat2 \
    -e inject=rename,renameat,renameat2:delay_exit=1000000 \
    "$G16" prove --device cpu "$d/circuit.zkey" "$d/witness.wtns" "$out/proof.json" "$out/public.json" \
    >"$T/stdout" 2>"$T/stderr" &
tracer=$!
for ((n = 0; n < 3000; n++)); do
  [ -e "$out/proof.json" ] && break
  kill -0 "$tracer" 2>/dev/null || break
  sleep 0.01
done
[ -e "$out/proof.json" ] || { wait "$tracer" || true; cat "$T/stderr" >&2; fail "PROOF never appeared"; }
[ ! -e "$out/public.json" ] || fail "PUBLIC appeared before the signal could be sent between the renames"
pid=$(pgrep -P "$tracer" -x g16) || fail "g16 (the child of strace $tracer) not found"
kill -TERM "$pid"
rc=0
wait "$tracer" || rc=$? # strace exits as its tracee does (of the same signal)
[ "$rc" -eq 0 ] || { cat "$T/stderr" >&2; ls -la "$out" >&2; fail "SIGTERM between the renames: exit $rc with PROOF in place"; }
check_outcome "SIGTERM between the renames" "$rc" "$out"
note "SIGTERM between the renames: exit 0, both outputs"

# 2. SIGTERM at random moments: spread over a run's length.
t0=$(date +%s%N)
"$G16" prove --device cpu "$d/circuit.zkey" "$d/witness.wtns" "$T/p.json" "$T/q.json"
span_us=$((($(date +%s%N) - t0) / 1000 * 5 / 4 + 1))
done_runs=0 killed=0
for ((r = 0; r < 40; r++)); do
  out=$T/run$r
  mkdir -p "$out"
  "$G16" prove --device cpu "$d/circuit.zkey" "$d/witness.wtns" "$out/proof.json" "$out/public.json" \
    >"$T/stdout" 2>"$T/stderr" &
  pid=$!
  us=$(((RANDOM * 32768 + RANDOM) % span_us))
  sleep "$(printf '%d.%06d' $((us / 1000000)) $((us % 1000000)))"
  kill -TERM "$pid" 2>/dev/null || true
  rc=0
  wait "$pid" || rc=$?
  check_outcome "SIGTERM at random, run $r" "$rc" "$out"
  if [ "$rc" -eq 0 ]; then done_runs=$((done_runs + 1)); else killed=$((killed + 1)); fi
done
note "SIGTERM at random moments (within $span_us us): $done_runs complete, $killed killed, none half-done"
