# Shared helpers of the package tests (sourced).  Environment from
# tests/package/CMakeLists.txt: G16_BUILD, G16_SOURCE, G16_VERSION.
set -Eeuo pipefail
trap 'echo "stopped: line $LINENO: $BASH_COMMAND exited with $?" >&2' ERR
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "-- $*"; }
: "${G16_BUILD:?G16_BUILD is not set}" "${G16_SOURCE:?G16_SOURCE is not set}"
T=$(mktemp -d /tmp/g16pkg.XXXXXX)
PID=
cleanup() {
  [ -n "$PID" ] && kill -9 "$PID" 2>/dev/null || true
  rm -rf "$T"
}
trap cleanup EXIT
