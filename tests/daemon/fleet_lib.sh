# Shared helpers of the fleet tests (sourced after lib.sh): a throwaway
# PostgreSQL (pg_server.sh) and g16d hosts on it, each with its own socket
# and state directory in $T, all killed (and the server stopped) on exit.
source "$(dirname "${BASH_SOURCE[0]}")/pg_server.sh"
declare -A HPID=()
fleet_cleanup() {
  local n
  for n in "${!HPID[@]}"; do kill -9 "${HPID[$n]}" 2>/dev/null || true; done
  pg_stop
  rm -rf "$T"
}
trap fleet_cleanup EXIT
pg_start "$@" || fail "no PostgreSQL server" # `source fleet_lib.sh tls`: pg_start tls

# start_host NAME ARGS...: g16d NAME on the fleet's database ($QUEUE, else
# $PG_URL); its log is $LOG.
# Its compiled circuits go to the build tree's shared cache (lib.sh's
# shared_circuits), so each circuit is compiled once per build.
start_host() {
  local n=$1
  shift
  : "${G16_CIRCUIT_CACHE:?G16_CIRCUIT_CACHE is not set}"
  mkdir -p "$G16_CIRCUIT_CACHE" "$T/$n.st"
  ln -sfn "$G16_CIRCUIT_CACHE" "$T/$n.st/circuits"
  "$G16D" --socket "$T/$n.s" --state-dir "$T/$n.st" --allow-dir "$FIX" --allow-dir "$T" \
    --queue "${QUEUE:-$PG_URL}" --no-pin-keys "$@" >>"$T/$n.log" 2>&1 &
  HPID[$n]=$!
  LOG=$T/$n.log
  wait_socket "$T/$n.s" "${HPID[$n]}" "g16d $n"
}

# stop_host NAME: SIGTERM, which must end it with status 0.
stop_host() {
  local rc=0
  kill -TERM "${HPID[$1]}"
  wait "${HPID[$1]}" || rc=$?
  unset "HPID[$1]"
  [ "$rc" = 0 ] || fail "$1 exited with $rc after SIGTERM"
}

hc() { local n=$1; shift; "$G16" client --socket "$T/$n.s" "$@"; }
hapi() { local n=$1; shift; curl -s --unix-socket "$T/$n.s" "$@"; }
host_id() { hapi "$1" http://d/v1/fleet | js o.host; }
sql() { pg_psql -tA -c "$1"; }
