#!/usr/bin/env bash
# The native field code (src/lib/witness/native_fr.c and native_fr.h)
# against the translations it replaces, on the multiplier fixture of each
# curve: wasm2c's output rewritten as a circuit build rewrites it (all 21
# runtime functions and getWitness must be recognised), then native_fr_check.c compiled
# with it and the glue, as cc compiles a circuit (-O3), and run.
# Needs: NATIVE_REWRITE, WASM2C, WASM2C_RUNTIME, WITNESS_SRC, G16_FIXTURES.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for curve in bn128 bls12381; do
  d=$tmp/$curve
  mkdir "$d"
  "$WASM2C" "$G16_FIXTURES/$curve/multiplier/circuit.wasm" -n circuit -o "$d/circuit.c"
  "$NATIVE_REWRITE" "$d/circuit.c" 21
  cp "$WITNESS_SRC/glue.c" "$WITNESS_SRC/glue_abi.h" "$WITNESS_SRC/native_fr.h" \
    "$WITNESS_SRC/../field/field_asm_x86.h" "$d/"
  cc -O3 -w -pthread -I"$d" -I"$WASM2C_RUNTIME" "$here/native_fr_check.c" -o "$d/check" -lm
  echo "$curve:"
  "$d/check"
done
