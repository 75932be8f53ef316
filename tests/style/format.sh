#!/usr/bin/env bash
# Fails, naming the files, when a tracked C/CUDA source differs from what
# clang-format makes of it.  Outside a git checkout (a source tarball) the
# sources are found by extension instead.
set -euo pipefail
clang_format=${1:-clang-format}
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files '*.c' '*.h' '*.cu' '*.cuh' | grep -v '^tools/')
else
    mapfile -t files < <(find include src tests bench examples bindings \
        \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) \
        -not -path '*/node_modules/*' 2>/dev/null)
fi
[ ${#files[@]} -gt 0 ] || { echo "format.sh: no sources found" >&2; exit 1; }
# One clang-format run over all files; its diagnostics start "FILE:LINE:".
if ! out=$("$clang_format" --dry-run -Werror "${files[@]}" 2>&1); then
    bad=$(printf '%s\n' "$out" | grep -oE '^[^: ]+:[0-9]+:' | cut -d: -f1 | sort -u | tr '\n' ' ')
    echo "not formatted (run: make format): ${bad:-$out}" >&2
    exit 1
fi
echo "format.sh: ${#files[@]} files formatted"
