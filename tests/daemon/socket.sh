#!/bin/bash
# The socket path and its directory: g16d removes only a stale socket (one
# no daemon answers on) and refuses, with a clear line and without touching
# it, a regular file, a symbolic link or a live daemon's socket at --socket;
# it refuses a socket directory that others may write (mode 0777) or that
# belongs to another user.
source "$(dirname "$0")/lib.sh"

# refused DESCRIPTION WORD ARGS...: g16d must exit non-zero at once, saying WORD.
refused() {
  local what=$1 word=$2 rc=0
  shift 2
  timeout 30 "$G16D" --state-dir "$T/other-state" "$@" >"$T/err" 2>&1 || rc=$?
  [ "$rc" != 0 ] && [ "$rc" != 124 ] || fail "$what: g16d started (or hung: exit $rc)"
  grep -q -- "$word" "$T/err" || fail "$what: the error does not say '$word': $(cat "$T/err")"
  note "$what: $(grep -- "$word" "$T/err")"
}

echo precious >"$T/file"
refused "a regular file at --socket" "not a socket" --socket "$T/file"
[ "$(cat "$T/file")" = precious ] || fail "the regular file at --socket was replaced"
ln -s "$T/file" "$T/link"
refused "a symbolic link at --socket" "not a socket" --socket "$T/link"
[ -L "$T/link" ] && [ "$(cat "$T/file")" = precious ] || fail "the link at --socket was replaced"

# A live daemon's socket is left to it; a stale one (kill -9) is replaced.
start_daemon
refused "a live daemon's socket" "already listening" --socket "$SOCK"
api --max-time 5 -sf http://d/v1/status >/dev/null || fail "the first daemon no longer answers"
kill -9 "$PID"
wait "$PID" 2>/dev/null || true
PID=
[ -S "$SOCK" ] || fail "kill -9 left no socket behind (nothing stale to test)"
start_daemon
stop_daemon

# Directories: group/world-writable, or another user's.
mkdir "$T/open"
chmod 0777 "$T/open"
refused "a world-writable socket directory" "writable" --socket "$T/open/s"
chmod 0770 "$T/open"
refused "a group-writable socket directory" "writable" --socket "$T/open/s"
[ ! -e "$T/open/s" ] || fail "a socket was created in a refused directory"
if [ "$(id -u)" = 0 ]; then
  mkdir "$T/theirs"
  chmod 0700 "$T/theirs"
  chown nobody "$T/theirs"
  refused "another user's socket directory" "belongs to uid" --socket "$T/theirs/s"
else
  note "not root: cannot give a directory to another user (the owner check runs as root in CI)"
fi
# Our own private directory is accepted (created 0700 when missing).
SOCK=$T/mine/sub/s
start_daemon
[ "$(stat -c %a "$T/mine/sub")" = 700 ] || fail "the socket directory was not created 0700"
stop_daemon
