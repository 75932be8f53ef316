#!/usr/bin/env bash
# The package's types (index.d.ts) as a TypeScript user gets them: the
# package reached as node_modules/g16 (so its package.json "types" is what
# is read), test/types/usage.ts compiled in strict mode by the tsc of
# tools/node_modules (typescript, a devDependency there).  usage.ts uses
# every export as the README does, and its ts-expect-error lines are wrong
# uses that must fail to compile (tsc reports one that compiles).
set -euo pipefail
: "${G16_SOURCE:?}" "${G16_TOOLS:?}"
tsc=$G16_TOOLS/node_modules/.bin/tsc
[ -x "$tsc" ] || { echo "FAIL: $tsc missing (npm ci in tools/, scripts/install-deps.sh)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/node_modules"
ln -s "$G16_SOURCE/bindings/node" "$tmp/node_modules/g16"
cp "$G16_SOURCE/bindings/node/test/types/usage.ts" "$G16_SOURCE/bindings/node/test/types/tsconfig.json" "$tmp/"
"$tsc" --version
"$tsc" -p "$tmp"
echo "ok: index.d.ts type-checks usage.ts (strict), every wrong use refused"
