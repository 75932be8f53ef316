#!/bin/bash
# g16d's socket tests (tests/daemon) on the GPU machine, in one device call,
# so that their GPU branches run where a GPU is: keys uploaded at load
# under the device memory budget, proofs on the device, a GPU key's pinned
# witness buffer charged (daemon.device), pinning, restart, priorities and
# bad input with a GPU daemon.  The tests read JSON with Node.js, which
# that machine lacks: gpu_prepare.sh puts a compressed node binary in
# .gpubin/node.xz and the small fixtures the tests use in .gpubin/fix/.
# prove_all and budget are left out: they check a sample with snarkjs.
#   usage: bash bench/daemon/gpu_tests.sh [TEST ...]
#          (default: device pin restart priority bad_input misc)
# One line per test on stdout; each test's output in $OUT/daemon-TEST.log.
# Exit status: the number of failed tests.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUTD=${OUT:-/tmp/g16-gpu-tests}
mkdir -p "$OUTD"
T=$(mktemp -d /tmp/g16gt.XXXXXX)
trap 'rm -rf "$T"' EXIT
BIN=
START=$SECONDS
log() { echo "[+$((SECONDS - START))s] $*" >&2; }
die() { log "gpu_tests: $*"; exit 1; }
set -e
source "$HERE/carried.sh"
set +e
if [ -f "$ROOT/.gpubin/node.xz" ]; then
  mkdir -p "$T/node" && xz -dc "$ROOT/.gpubin/node.xz" >"$T/node/node" && chmod +x "$T/node/node"
  export PATH=$T/node:$PATH
fi
command -v node >/dev/null || die "no node here and no .gpubin/node.xz (bench/daemon/gpu_prepare.sh)"
command -v curl >/dev/null || die "no curl here: the tests send raw HTTP with it"
FIX=$ROOT/.gpubin/fix
[ -d "$FIX" ] || FIX=$(cd "$ROOT/.." && pwd)/shared/fixtures
# restart: a GPU daemon proves the chain circuit in a few ms, so its
# killed job needs many more proofs than the CPU's 30 to be caught mid-run.
export G16 G16D G16_FIXTURES=$FIX G16_SANITIZED=0 G16_SNARKJS=/nonexistent/snarkjs G16_RESTART_PROOFS=300
log "binaries $BIN, node $(node --version), fixtures $FIX"
failed=0
for t in ${@:-device pin restart priority bad_input misc}; do
  t0=$SECONDS
  if timeout 300 bash "$ROOT/tests/daemon/$t.sh" >"$OUTD/daemon-$t.log" 2>&1; then
    echo "daemon.$t: ok ($((SECONDS - t0)) s)"
  else
    echo "daemon.$t: FAIL ($((SECONDS - t0)) s): $(grep -m1 FAIL "$OUTD/daemon-$t.log" || tail -1 "$OUTD/daemon-$t.log")"
    failed=$((failed + 1))
  fi
done
exit $failed
