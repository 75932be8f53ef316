#!/usr/bin/env bash
# Installs what g16's build, tests and demo need, and nothing when it is all
# there already (so `make test` and `make demo` can call it every time).
#   - Debian packages (apt-get), only those missing; sudo only when not root.
#   - tools/node_modules (snarkjs, circom2, circomlib, and solc and
#     @ethereumjs/evm for the Solidity tests, typescript for the Node.js
#     package's types, pinned by
#     tools/package-lock.json) through `npm ci`, when missing or stale.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Packages checked through dpkg.  libclang-rt-dev carries libFuzzer and the
# sanitizer runtimes (only a Recommends of clang); llvm gives llvm-symbolizer
# for readable sanitizer reports.  memwatch's tests need zlib (the PNG
# checker), setpriv (util-linux: a real clear_refs denial as root), pgrep
# (procps); the benchmarks use GNU time and bc.  The witness calculator
# needs wabt (wasm2c and its runtime source, also at run time) and
# nettle-dev (SHA-256 of the cached circuits) and libxxhash-dev (XXH3, the
# witness graph files' checksum).  g16d's fleet queue needs
# libpq-dev, and its tests a throwaway server (postgresql; openssl makes
# the TLS test's certificate).  strace slows a prove's renames for the test
# of a signal at its commit (e2e.signal_commit).  g16d tells systemd it is
# ready through libsystemd-dev; systemd brings systemd-analyze (the units'
# check) and systemd-socket-activate (the socket activation test).  The
# Debian packages (make package) need help2man (the man pages), dpkg-dev
# and file (CPack's dependency list); man-db lets systemd-analyze find the
# unit's man page, and python3-yaml reads the Prometheus rules' YAML.
# The daemon tests read plain JSON fields with jq (a node start per field
# cost seconds a test).
debs=(build-essential cmake libgmp-dev clang libclang-rt-dev llvm
      libjansson-dev libmicrohttpd-dev libsqlite3-dev libpq-dev postgresql openssl
      zlib1g-dev util-linux procps time bc curl wabt nettle-dev libxxhash-dev
      clang-format strace jq
      libsystemd-dev systemd help2man dpkg-dev file man-db python3-yaml)
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
# The Node.js package (bindings/node) compiles against Node-API's headers,
# which Debian ships apart (libnode-dev); other Node builds bring their own.
node_prefix=$(dirname "$(dirname "$(command -v node 2>/dev/null || echo /usr/bin/node)")")
[ -f "$node_prefix/include/node/node_api.h" ] || [ -f /usr/include/node/node_api.h ] \
  || missing+=(libnode-dev)
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

# npm ci when node_modules does not hold every package of the lock file at
# its locked version (a merge can add a package without making the lock
# newer than the last install, so file times are not enough).
tools="$root/tools"
tools_current() {
  node -e '
    const fs = require("fs"), path = require("path"), dir = process.argv[1];
    const lock = JSON.parse(fs.readFileSync(path.join(dir, "package-lock.json"), "utf8"));
    for (const [p, e] of Object.entries(lock.packages || {})) {
      if (!p || e.optional || e.link) continue;
      let v = "missing";
      try { v = JSON.parse(fs.readFileSync(path.join(dir, p, "package.json"), "utf8")).version; } catch {}
      if (v !== e.version) {
        console.log(`install-deps: tools/${p} is ${v}, the lock file wants ${e.version}`);
        process.exit(1);
      }
    }' "$tools"
}
if ! tools_current; then
  echo "install-deps: npm ci in tools/"
  (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error)
fi
