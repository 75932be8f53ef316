#!/usr/bin/env bash
# A throwaway PostgreSQL server for the fleet tests (Debian's postgresql
# package; scripts/install-deps.sh installs it).
#
# Sourced, it defines
#   pg_start   initdb into a fresh temporary directory and start a server
#              that listens only on a Unix socket in that directory
#              (listen_addresses=''): sets PG_DIR and PG_URL (a postgresql://
#              URL without a password: the cluster trusts local connections)
#   pg_start tls
#              the same server listening on 127.0.0.1 too, on a free port
#              (PG_PORT), with ssl=on and a self-signed certificate for
#              127.0.0.1 made with openssl ($PG_DIR/server.crt, the root a
#              client names in sslrootcert); PG_TCP_URL reaches it over TCP
#              (no sslmode: the caller adds its own).  PG_URL stays the
#              Unix socket.  PG_SSL=off before pg_restart turns TLS off.
#   pg_cert DIR NAME
#              a self-signed certificate for 127.0.0.1: DIR/NAME.crt, .key
#   pg_stop    stop it (immediate: nothing in it is worth a checkpoint)
#              and remove the directory; safe to call twice
#   pg_restart stop and start the same cluster (the fleet's reconnect test)
#   pg_psql    psql on it: pg_psql -c 'SELECT ...'
# The caller's EXIT trap must call pg_stop.
#
# Run as a program, `pg_server.sh COMMAND [ARGS...]` starts a server, runs
# COMMAND with G16_PG_URL set, stops the server and exits with COMMAND's
# status.
#
# PostgreSQL refuses to run as root, so as root the server runs as an
# unprivileged user through setpriv (util-linux; no PAM, so it works in a
# bare container): the package's own `postgres` user where it exists,
# else nobody.  As anyone else it runs as that user.

pg_bin=${G16_PG_BIN:-}
if [ -z "$pg_bin" ]; then
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && pg_bin=$d; done
fi

# pg_as CMD...: CMD as the server's user.
pg_as() {
  if [ "$(id -u)" -ne 0 ]; then "$@"; return; fi
  local user=postgres
  id -u "$user" >/dev/null 2>&1 || user=nobody
  setpriv --reuid="$(id -u "$user")" --regid="$(id -g "$user")" --clear-groups \
    env HOME="$PG_DIR" "$@"
}

pg_start() {
  [ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ] ||
    { echo "pg_server: PostgreSQL's initdb not found (scripts/install-deps.sh installs postgresql)" >&2; return 1; }
  # Short: the socket's path (DIR/.s.PGSQL.5432) must fit in 107 bytes.
  PG_DIR=$(mktemp -d /tmp/g16pg.XXXXXX)
  [ "$(id -u)" -ne 0 ] || chown "$(pg_as id -u):$(pg_as id -g)" "$PG_DIR"
  pg_as "$pg_bin/initdb" -D "$PG_DIR/data" -U g16 -A trust --no-locale -E UTF8 --no-sync \
    >"$PG_DIR/initdb.log" 2>&1 ||
    { echo "pg_server: initdb failed: $(tail -3 "$PG_DIR/initdb.log")" >&2; return 1; }
  PG_PORT=5432 PG_SSL=off PG_TCP=
  if [ "${1:-}" = tls ]; then
    command -v openssl >/dev/null ||
      { echo "pg_server: openssl not found (scripts/install-deps.sh installs it)" >&2; return 1; }
    pg_as bash -c "$(declare -f pg_cert); pg_cert '$PG_DIR' server" || return 1
    PG_PORT=$(pg_free_port) PG_SSL=on PG_TCP=127.0.0.1
    PG_TCP_URL="postgresql://g16@127.0.0.1:$PG_PORT/postgres"
  fi
  PG_URL="postgresql:///postgres?host=$PG_DIR&port=$PG_PORT&user=g16"
  pg_up
}

pg_cert() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
    -keyout "$1/$2.key" -out "$1/$2.crt" >"$1/$2.log" 2>&1 ||
    { echo "pg_server: openssl failed: $(tail -3 "$1/$2.log")" >&2; return 1; }
  chmod 600 "$1/$2.key" # the server refuses a key others can read
}

# A port nothing on 127.0.0.1 listens on (bash's /dev/tcp connects).
pg_free_port() {
  local p
  for _ in $(seq 50); do
    p=$((20000 + RANDOM % 30000))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
  echo 5432
}

# The settings are for a test server: TCP only for the TLS tests,
# durability against power loss off (fsync), a short deadlock check so a
# test that deadlocks says so at once.  Commits stay synchronous: a
# commit's WAL is written (to the page cache) before it returns, so a
# committed job survives pg_restart's immediate stop, as it survives a
# server crash in production (with synchronous_commit off, daemon.fleet
# lost the job it had submitted just before the restart: 404).
pg_up() {
  local tls=""
  [ "$PG_SSL" = off ] ||
    tls="-c ssl=on -c ssl_cert_file=$PG_DIR/server.crt -c ssl_key_file=$PG_DIR/server.key"
  pg_as "$pg_bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 30 \
    -o "-c listen_addresses='$PG_TCP' -k $PG_DIR -c port=$PG_PORT $tls -c fsync=off \
        -c full_page_writes=off -c max_connections=200 \
        -c deadlock_timeout=200ms" \
    start >/dev/null ||
    { echo "pg_server: the server did not start: $(tail -5 "$PG_DIR/server.log")" >&2; return 1; }
}

pg_down() {
  pg_as "$pg_bin/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
}

pg_restart() { pg_down; pg_up; }

pg_stop() {
  [ -n "${PG_DIR:-}" ] || return 0
  [ -f "$PG_DIR/data/postmaster.pid" ] && pg_down
  rm -rf "$PG_DIR"
  PG_DIR=
}

pg_psql() { "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 "$PG_URL" "$@"; }

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  [ $# -ge 1 ] || { echo "usage: pg_server.sh COMMAND [ARGS...]" >&2; exit 2; }
  trap pg_stop EXIT
  pg_start
  rc=0
  G16_PG_URL=$PG_URL "$@" || rc=$?
  exit "$rc"
fi
