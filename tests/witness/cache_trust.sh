#!/usr/bin/env bash
# cache_trust.sh: who may put code in the compiled-circuit cache, through
# `g16 wtns calculate`.  A forged shared object whose constructor writes a
# marker file, given a valid trailer, is never loaded: from a directory
# others may write (the cache directory or an ancestor), one of another
# user's (directly, through a symbolic link, or created by another user in
# a sticky XDG_CACHE_HOME), nor as an entry file that is a link, others
# may write, or is another user's.  Each of those directories is refused
# with one line naming it, its owner and mode; an entry bound to another
# circuit (a real one, or the forgery) is rebuilt, never loaded.
. "$(dirname "$0")/lib.sh"
: "${G16:?G16 is not set}"
A=$WITNESS_DATA/check.wasm
B=$G16_FIXTURES/bn128/multiplier/circuit.wasm
printf '{"a": 3, "b": [[1, 2], [3, 4]], "d": 2}\n' >"$tmp/in.json"
snarkjs_wtns "$A" "$tmp/in.json" "$tmp/expected.wtns"
tmp=$(realpath "$tmp") # messages name real paths
chmod 0755 "$tmp"      # the other user must reach their directories below

# Real entries of A and B, in a private cache.
good=$tmp/good
"$G16" wtns calculate --cache-dir "$good" "$A" "$tmp/in.json" "$tmp/a.wtns"
entry_a=$(ls "$good"/*.so | grep -v '\.trace\.so$') # the calculator, not the graph's tracer
name=$(basename "$entry_a")
"$G16" wtns calculate --cache-dir "$good" "$B" "$G16_FIXTURES/bn128/multiplier/input.json" "$tmp/b.wtns"
entry_b=$(ls "$good"/*.so | grep -v '\.trace\.so$' | grep -vF "$name")

# The forgery: its constructor leaves $marker when the object is loaded.
marker=$tmp/marker
printf '#include <stdio.h>\n__attribute__((constructor)) static void forged(void)\n{ FILE *f = fopen("%s", "w"); if (f) fclose(f); }\n' \
  "$marker" >"$tmp/forged.c"
cc -shared -fPIC -o "$tmp/forged.so" "$tmp/forged.c"
forge() { node "$(dirname "$0")/forge_entry.js" "$tmp/forged.so" "$1" "$2"; } # TEMPLATE OUT
forge "$entry_a" "$tmp/forged-a.so" # loadable as A's entry, to anyone who trusts the trailer

calc() { "$G16" wtns calculate --verbose "$@" "$A" "$tmp/in.json" "$tmp/out.wtns"; }
# refused CASE MESSAGE ARGS...: exit 1, one line with MESSAGE, the forgery not run.
refused() {
  local what=$1 message=$2; shift 2
  rm -f "$marker" "$tmp/out.wtns"
  cli_fails "$what" "$message" "$tmp/out.wtns" -- calc "$@"
  [ ! -e "$marker" ] || fail "$what: the forged object was loaded (its constructor ran)"
}
# rebuilt CASE DIR: the entry in DIR was compiled anew, not loaded, and computes A.
rebuilt() {
  rm -f "$marker" "$tmp/out.wtns"
  calc --cache-dir "$2" 2>"$tmp/err" || { fail "$1: $(cat "$tmp/err")"; return; }
  [ ! -e "$marker" ] || fail "$1: the forged object was loaded (its constructor ran)"
  grep -q "circuit compiled" "$tmp/err" || fail "$1: the entry was loaded, not rebuilt: $(cat "$tmp/err")"
  cmp -s "$tmp/out.wtns" "$tmp/expected.wtns" || fail "$1: wrong witness"
  echo "ok $1: rebuilt"
}
# plant DIR: the forgery as A's entry in DIR.
plant() { mkdir -p "$1"; cp "$tmp/forged-a.so" "$1/$name"; }

# 1. Writable by others: the directory, or a (non-sticky) ancestor.
plant "$tmp/open"
chmod 0777 "$tmp/open"
refused world_writable "$tmp/open: it is writable by others (owner uid $(id -u), mode 0777)" --cache-dir "$tmp/open"
chmod 0770 "$tmp/open"
refused group_writable "writable by its group" --cache-dir "$tmp/open"
plant "$tmp/pub/cache"
chmod 0700 "$tmp/pub/cache"
chmod 0777 "$tmp/pub"
refused writable_ancestor "its ancestor $tmp/pub is writable by others" --cache-dir "$tmp/pub/cache"

# 2, 3. Another user's directory: given, through a link, or created in a
# sticky XDG_CACHE_HOME before this user's first run.
if [ "$(id -u)" = 0 ]; then
  plant "$tmp/theirs"
  chown -R nobody "$tmp/theirs"
  chmod 0755 "$tmp/theirs"
  nobody=$(id -u nobody)
  refused other_user "$tmp/theirs: it belongs to uid $nobody" --cache-dir "$tmp/theirs"
  ln -s "$tmp/theirs" "$tmp/link"
  refused symlink "$tmp/link: its real path $tmp/theirs belongs to uid $nobody" --cache-dir "$tmp/link"
  mkdir -m 1777 "$tmp/sticky"
  setpriv --reuid nobody --regid nogroup --clear-groups mkdir -m 0755 "$tmp/sticky/g16"
  setpriv --reuid nobody --regid nogroup --clear-groups cp "$tmp/forged-a.so" "$tmp/sticky/g16/$name"
  XDG_CACHE_HOME=$tmp/sticky refused sticky_planted "$tmp/sticky/g16: it belongs to uid $nobody"
  rm -rf "$tmp/sticky/g16"
  # This user's own directory in a sticky one is accepted (created 0700).
  if ! XDG_CACHE_HOME=$tmp/sticky calc 2>"$tmp/err"; then
    fail "sticky_own: $(cat "$tmp/err")"
  elif [ "$(stat -c %a "$tmp/sticky/g16")" != 700 ]; then
    fail "sticky_own: the cache directory was not created 0700"
  else
    echo "ok sticky_own: $(cat "$tmp/err")"
  fi
else
  echo "-- not root: cannot give a directory to another user (these cases run as root in CI)"
fi

# 4. Bound to another circuit: B's real entry, and the forgery with B's
# trailer, each as A's entry in a private cache.
mine=$tmp/mine
mkdir -m 0700 "$mine"
cp "$entry_b" "$mine/$name"
rebuilt other_circuit "$mine"
forge "$entry_b" "$mine/$name"
rebuilt forged_other_circuit "$mine"

# Entry files not loaded even in a private directory: a link, a file
# others may write, another user's file, a file with a second name.
ln -sfn "$tmp/forged-a.so" "$mine/$name"
rebuilt entry_symlink "$mine"
[ ! -L "$mine/$name" ] || fail "entry_symlink: the link is still there"
install -m 0666 "$tmp/forged-a.so" "$mine/$name"
rebuilt entry_writable "$mine"
if [ "$(id -u)" = 0 ]; then
  install -m 0644 -o nobody "$tmp/forged-a.so" "$mine/$name"
  rebuilt entry_other_owner "$mine"
fi
rm -f "$mine/$name"
ln "$tmp/forged-a.so" "$mine/$name"
rebuilt entry_hard_link "$mine"
[ -z "$(ls -A "$mine" | grep -v '\.so$')" ] || fail "build leftovers in the cache: $(ls -A "$mine")"
finish
