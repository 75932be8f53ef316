#!/usr/bin/env bash
# Installs what g16's build, tests and demo need, and nothing when it is all
# there already (so `make test` and `make demo` can call it every time).
#   - Debian packages (apt-get), only those missing; sudo only when not root.
#   - tools/node_modules (snarkjs, circom2, circomlib pinned by
#     tools/package-lock.json) through `npm ci`, when missing or stale.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Packages checked through dpkg.  libclang-rt-dev carries libFuzzer and the
# sanitizer runtimes (only a Recommends of clang); llvm gives llvm-symbolizer
# for readable sanitizer reports.  memwatch's tests need zlib (the PNG
# checker), setpriv (util-linux: a real clear_refs denial as root), pgrep
# (procps); the benchmarks use GNU time and bc.  The witness calculator
# needs wabt (wasm2c and its runtime source, also at run time) and
# nettle-dev (SHA-256 of the cached circuits).  g16d's fleet queue needs
# libpq-dev, and its tests a throwaway server (postgresql).
debs=(build-essential cmake libgmp-dev clang libclang-rt-dev llvm
      libjansson-dev libmicrohttpd-dev libsqlite3-dev libpq-dev postgresql
      zlib1g-dev util-linux procps time bc curl wabt nettle-dev clang-format)
missing=()
for p in "${debs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
    missing+=("$p")
  fi
done
# Node may come from a non-Debian package that bundles npm: check commands,
# not packages, so apt never tries to replace it.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)

if ((${#missing[@]})); then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || {
      echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  echo "install-deps: apt-get install ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm ci when node_modules is absent or older than the lock file.
tools="$root/tools"
stamp="$tools/node_modules/.package-lock.json"
if [ ! -x "$tools/node_modules/.bin/snarkjs" ] || [ ! -f "$stamp" ] \
   || [ "$tools/package-lock.json" -nt "$stamp" ]; then
  echo "install-deps: npm ci in tools/"
  (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error)
fi
