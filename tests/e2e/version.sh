#!/usr/bin/env bash
# version.sh: `g16 --version`, `g16d --version` and `memwatch --version`
# exit 0 and print one line: the program, the project's version (as CMake
# has it, G16_VERSION), the commit (12 hex digits, or "unknown" outside a
# checkout), the library's SONAME version and whether the CUDA backend is
# in (yes exactly when this build compiled it, G16_CUDA).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bin=$(dirname "$G16")
[ "$G16_CUDA" = ON ] && cuda=yes || cuda=no
for prog in g16 g16d memwatch; do
  out=$("$bin/$prog" --version 2>&1) || fail "$prog --version exited $?: $out"
  want="^$prog ${G16_VERSION//./\\.} \\(commit ([0-9a-f]{12}|unknown); libg16\\.so\\.${G16_VERSION%%.*}; CUDA backend: $cuda\\)$"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "$prog --version printed more than one line: $out"
  printf '%s\n' "$out" | grep -Eq "$want" || fail "$prog --version: '$out' does not match $want"
  note "$prog --version: $out"
done
