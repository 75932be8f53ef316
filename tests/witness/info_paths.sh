#!/usr/bin/env bash
# info_paths.sh: a graph per path through the CLI.  data/branch.wasm in a
# cache of its own: `g16 wtns calculate --verbose` says how many witness
# graphs the circuit has after each calculation (x != 0 makes the first,
# x = 0 the second), each branch is then the graph's with the wasm's
# bytes; `g16 info` says how many the cache holds, one fewer when the
# second file is damaged.
. "$(dirname "$0")/lib.sh"
wasm=$WITNESS_DATA/branch.wasm
mkdir -m 700 "$tmp/cache"
c=(--cache-dir "$tmp/cache")
calc() { # NAME X WANT: the calculation's --verbose line has WANT
  echo "{\"x\": \"$2\", \"y\": \"5\"}" >"$tmp/$1.json"
  "$G16" wtns calculate "${c[@]}" --verbose "$wasm" "$tmp/$1.json" "$tmp/$1.wtns" 2>"$tmp/$1.err" ||
    { fail "$1: $(cat "$tmp/$1.err")"; return; }
  if grep -qE -- "$3" "$tmp/$1.err"; then echo "ok $1: $(sed 's/.*tools [^;]*; //' "$tmp/$1.err")"
  else fail "$1: expected /$3/ in: $(cat "$tmp/$1.err")"; fi
}
info() { # NAME WANT
  "$G16" info "${c[@]}" "$wasm" >"$tmp/info" 2>&1 || { fail "g16 info: $(cat "$tmp/info")"; return; }
  if grep -qF -- "$2" "$tmp/info"; then echo "ok $1: $(grep 'witness path' "$tmp/info")"
  else fail "$1: expected '$2' in: $(cat "$tmp/info")"; fi
}

calc three 3 '; 1 witness graph\), .* by the wasm \(no graph yet'
calc zero 0 '; 2 witness graphs\), .* by the wasm \(a guard \(graph node [0-9]+\) went another way'
calc zero_again 0 '; 2 witness graphs\), .* by the graph$'
calc three_again 3 '; 2 witness graphs\), .* by the graph$'
cmp "$tmp/zero.wtns" "$tmp/zero_again.wtns" || fail "x = 0: the graph's witness differs from the wasm's"
cmp "$tmp/three.wtns" "$tmp/three_again.wtns" || fail "x = 3: the graph's witness differs from the wasm's"
info "both paths" "witness path: graph (from the cache: "
info "both paths, counted" "; 2 graphs, one per path)"
second=$(ls "$tmp/cache"/*.1.wgraph)
printf 'damaged' | dd of="$second" bs=1 seek=40 conv=notrunc status=none
info "the second damaged" "; 1 graph, one per path)"
finish
