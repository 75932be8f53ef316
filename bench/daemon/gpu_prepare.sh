#!/bin/bash
# Prepares .gpubin/ (git-ignored) for bench/daemon/gpu_bench.sh on the GPU
# machine, which has no libmicrohttpd and no package registry:
#   .gpubin/daemon-bin.tar.xz   g16, g16d, memwatch (g16 client memory --plot
#                               runs it) and the GPU tests, from BUILD_DIR/bin
#   .gpubin/debs/*.deb          libmicrohttpd12 (what g16d lacks there)
#   .gpubin/debs/extra/*.deb    GnuTLS and the libraries it needs, unpacked
#                               there only for sonames the machine lacks
#   .gpubin/node.xz, fix/       Node.js and small fixtures, for gpu_tests.sh
# BUILD_DIR must be a build with the CUDA backend (configured where nvcc is
# found, e.g. cmake -S . -B build-cuda -DCMAKE_BUILD_TYPE=Release), or the
# benchmark can only run with --cpu.  Needs apt-get (Debian 12).
#   usage: bash bench/daemon/gpu_prepare.sh BUILD_DIR
set -euo pipefail
B=${1:?usage: gpu_prepare.sh BUILD_DIR (a build with the CUDA backend)}
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
G=$ROOT/.gpubin
for f in g16 g16d; do [ -x "$B/bin/$f" ] || { echo "gpu_prepare: $B/bin/$f not found (build it first)" >&2; exit 1; }; done
git -C "$ROOT" check-ignore -q "$G/x" || { echo "gpu_prepare: $G is not git-ignored here" >&2; exit 1; }
# the message only a build without the backend carries (src/groth16/prover_gpu.c)
if grep -qa "has no CUDA backend (nvcc was not found" "$B/bin/g16d"; then
  echo "gpu_prepare: warning: $B has no CUDA backend; gpu_bench.sh will only run with --cpu" >&2
fi
mkdir -p "$G/debs/extra"
# the programs, the GPU tests and benchmarks, and the libraries they link
# (libg16.so.1 and its side libraries; carried.sh puts them on the path)
rm -rf "$G/bin.tmp" && mkdir -p "$G/bin.tmp"
cp "$B"/bin/{g16,g16d,memwatch,test_gpu,bench_gpu,test_prover} "$G/bin.tmp/"
for so in "$B"/src/lib/libg16*.so.1; do cp -L "$so" "$G/bin.tmp/"; done
strip "$G"/bin.tmp/*
tar -cJf "$G/daemon-bin.tar.xz" -C "$G/bin.tmp" .
rm -rf "$G/bin.tmp"
# Debian 12's libmicrohttpd12 needs libgnutls30 (Ubuntu 24.04 ships the same
# soname as libgnutls30t64); the extra set is its closure, for a machine
# without it.
(cd "$G/debs" && rm -f ./*.deb && apt-get download libmicrohttpd12 >/dev/null)
# The extra set: the package of every library the programs link beyond
# libc's and the compiler's (libpq's Kerberos and LDAP closure included),
# for a machine that lacks some of them; carried.sh unpacks only those.
extra=$(ldd "$B/bin/g16d" "$B/bin/g16" "$B"/src/lib/libg16*.so.1 | awk '/=> \// {print $3}' | sort -u |
  grep -v -e '/libc\.so' -e '/libm\.so' -e '/libstdc++' -e '/libgcc_s' -e '/libg16' -e 'ld-linux' |
  while read -r so; do dpkg -S "$so" 2>/dev/null || dpkg -S "/usr$so" 2>/dev/null || true; done |
  cut -d: -f1 | sort -u | grep -v -e '^libmicrohttpd12$' -e '^libc6$')
# shellcheck disable=SC2086
(cd "$G/debs/extra" && rm -f ./*.deb && apt-get download $extra >/dev/null)
# gpu_tests.sh: Node.js (the tests read JSON with it; one binary) and the
[ -s "$G/node.xz" ] || xz -T0 -6 -c "$(readlink -f "$(command -v node)")" >"$G/node.xz"
# small fixtures its tests use, from the build's fixtures folder.
FIX=$(sed -n 's/^G16_FIXTURES:PATH=//p' "$B/CMakeCache.txt")
[ -d "$FIX" ] || { echo "gpu_prepare: no fixtures folder (G16_FIXTURES) in $B/CMakeCache.txt" >&2; exit 1; }
rm -rf "$G/fix" && mkdir -p "$G/fix/bn128" "$G/fix/bls12381"
for c in bn128/chain bn128/multiplier bn128/merkle bls12381/chain; do
  cp -r "$FIX/$c" "$G/fix/$c"
done
chmod -R u+w "$G/fix"
du -sh "$G/daemon-bin.tar.xz" "$G/debs" "$G/node.xz" "$G/fix"
echo "ready: carry \".gpubin\" and run: bash bench/daemon/gpu_bench.sh (or gpu_tests.sh)"
