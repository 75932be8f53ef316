#!/usr/bin/env bash
# fifo.sh: a FIFO (or any file that is not a regular file) given where g16
# reads a file is refused at once with "<path>: not a regular file", never
# waited on: opening a FIFO for reading blocks until a writer comes, so a
# reader that does not open it non-blocking hangs here (timeout, exit 124).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_g16
d=$(fixture bn128 multiplier)
fifo="$T/in.fifo"
mkfifo "$fifo"

# refused WHAT ARGS...: g16 ARGS exits 1..123 within the timeout, with one
# line on stderr naming the FIFO as not a regular file, and writes nothing.
refused() {
  local what=$1
  shift
  mkdir -p "$T/out"
  RC=0
  timeout 10 "$G16" "$@" >"$T/stdout" 2>"$T/stderr" || RC=$?
  [ "$RC" -ne 124 ] || { show_run; fail "$what: g16 blocked on the FIFO (killed after 10 s)"; }
  { [ "$RC" -ge 1 ] && [ "$RC" -le 123 ]; } || { show_run; fail "$what: expected an error exit, got $RC"; }
  [ "$(wc -l <"$T/stderr")" -eq 1 ] || { show_run; fail "$what: expected one line on stderr"; }
  grep -qF -- "$fifo: not a regular file" "$T/stderr" ||
    { show_run; fail "$what: the error does not say '$fifo: not a regular file'"; }
  [ -z "$(ls -A "$T/out")" ] || { show_run; fail "$what: left files in the output folder"; }
  note "$what: exit $RC: $(cat "$T/stderr")"
}

refused "info" info "$fifo"
refused "prove, key" prove "$fifo" "$d/witness.wtns" "$T/out/proof.json" "$T/out/public.json"
refused "prove, witness" prove "$d/circuit.zkey" "$fifo" "$T/out/proof.json" "$T/out/public.json"
refused "verify, key" verify "$fifo" "$d/public.json" "$d/proof.json"
refused "verify, public" verify "$d/verification_key.json" "$fifo" "$d/proof.json"
refused "verify, proof" verify "$d/verification_key.json" "$d/public.json" "$fifo"
refused "export-vk" export-vk "$fifo" "$T/out/vk.json"
refused "check, circuit" check "$fifo" "$d/witness.wtns"
refused "check, witness" check "$d/circuit.r1cs" "$fifo"
refused "setup" setup --insecure-dev "$fifo" "$T/out/key.zkey"
# The client reads an uploaded witness and its token file before it
# connects, so no daemon is needed to see them refused.
refused "client, uploaded witness" client --socket "$T/no.sock" prove --key k --upload "$fifo"
refused "client, token file" client --tcp 1 --token-file "$fifo" status
# A character device is refused the same way (verify used to read up to
# its size bound of /dev/zero before giving up).
fifo=/dev/zero
refused "verify, /dev/zero" verify "$d/verification_key.json" "$d/public.json" /dev/zero
