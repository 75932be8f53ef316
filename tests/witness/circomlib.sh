#!/usr/bin/env bash
# circomlib.sh SPEC...: circomlib's circuits through `g16 wtns calculate`,
# the witness graph against snarkjs (issue 40; docs/witness-graph.md).
# Each SPEC is NAME:PRIME:N:EXPECT:
#   NAME    circomlib/NAME_test.circom, compiled here with the pinned
#           circom2 over the pinned circomlib (the wasm kept in
#           CIRCOMLIB_STORE, so a tree compiles it once); with no such
#           file, the fixture $G16_FIXTURES/PRIME/NAME/circuit.wasm
#   PRIME   bn128 or bls12381 (circom2 --prime)
#   N       inputs, from circomlib/gen_inputs.js (a fixed seed)
#   EXPECT  graph: every calculation after the first must take the graph
#           (circuits the graph is known to handle: a regression fails
#           here); paths=K: the inputs take K paths through the circuit's
#           branches, so at most K - 1 after the first fall back (each
#           new path's first input, which makes that path's graph); any:
#           report the paths, expect none
# Each circuit gets a fresh cache directory, seeded with its compiled
# objects (not its graph) from CIRCOMLIB_STORE or the witness tests'
# shared cache, so its first calculation is the wasm's and makes the
# graph, and the later ones take it or fall back.  Every witness must be
# byte for byte snarkjs's (circomlib/reference.js: `snarkjs wtns
# calculate`'s calls), and an input snarkjs fails on must fail in g16 too,
# at the same asserts.  Prints per circuit how many inputs took the graph,
# how many fell back and why, and how many failed.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)/circomlib
bin=$(dirname "$G16_SNARKJS")
[ -x "$bin/circom2" ] && [ -d "$bin/../circomlib/circuits" ] ||
  { fail "circom2 or circomlib not found in $bin/.. (make deps)"; finish; }
store=$CIRCOMLIB_STORE
mkdir -p -m 700 "$store"
. "$here/compile.sh"

# "Error in template T line: L" chains of an error message: the asserts
# that failed, which g16 and snarkjs both name.
asserts() { grep -oE 'Error in template [A-Za-z0-9_]+ line: [0-9]+' "$1" | tr '\n' ' '; }

# check_circuit NAME PRIME N EXPECT WASM: the calculations and their report.
check_circuit() {
  local name=$1 prime=$2 n=$3 expect=$4 wasm=$5 label="$1 ($2)"
  local dir=$tmp/$name-$prime cache=$tmp/cache-$name-$prime
  local sha
  sha=$(sha256sum "$wasm" | cut -c1-64)
  mkdir -m 700 "$cache"
  # compiled objects (the calculator, the tracing object), never a graph
  for f in "$store/$sha"-*.so "$WITNESS_CACHE/$sha"-*.so; do
    if [ -e "$f" ] && [ ! -e "$cache/${f##*/}" ]; then cp "$f" "$cache/"; fi
  done
  local graph=0 failed=0 i path first= firstwasm=0 before=$failures
  : >"$dir/fallbacks"
  for ((i = 0; i < n; i++)); do
    local in=$dir/$i.json out=$dir/$i.wtns ref=$dir/$i.ref.wtns referr=$dir/$i.ref.err
    if "$G16" wtns calculate --verbose --cache-dir "$cache" "$wasm" "$in" "$out" 2>"$dir/$i.log"; then
      path=$(sed -n 's/^g16 wtns calculate: .*, by the //p' "$dir/$i.log")
      if [ -e "$referr" ]; then
        fail "$label input $i: g16 gave a witness (by the $path), snarkjs failed: $(cat "$referr")"
      elif ! cmp -s "$out" "$ref"; then
        fail "$label input $i ($in): the witness by the $path differs from snarkjs's"
      fi
      if [ "$path" = graph ]; then graph=$((graph + 1))
      elif ((i == 0)); then first=$path firstwasm=1
      else echo "$path" >>"$dir/fallbacks"; fi
      if [ "$expect" = graph ] && ((i > 0)) && [ "$path" != graph ]; then
        fail "$label input $i: by the $path, not by the graph"
      fi
    else
      failed=$((failed + 1))
      if [ ! -e "$referr" ]; then
        fail "$label input $i ($in): g16 failed, snarkjs did not: $(cat "$dir/$i.log")"
      elif [ "$(asserts "$dir/$i.log")" != "$(asserts "$referr")" ]; then
        fail "$label input $i: g16 failed otherwise than snarkjs: $(cat "$dir/$i.log") / $(cat "$referr")"
      elif [ -e "$out" ]; then
        fail "$label input $i: the failed calculation left $out"
      fi
    fi
  done
  # the first calculation makes the graph: it is the wasm's
  [ -z "$first" ] || [[ "$first" == "wasm (no graph yet"* ]] || fail "$label input 0: by the $first"
  [ "$expect" != graph ] || ((graph > 0)) || fail "$label: no calculation by the graph"
  if [[ "$expect" == paths=* ]] && (($(wc -l <"$dir/fallbacks") > ${expect#paths=} - 1)); then
    fail "$label: $(wc -l <"$dir/fallbacks") inputs fell back, more than one a path after the first (${expect#paths=} paths)"
  fi
  local fell=$((n - graph - failed - firstwasm))
  echo "$( ((failures == before)) && echo ok || echo FAILED) $label: $n inputs: $graph by the graph, $fell fell back, $failed failed as snarkjs's$( ((firstwasm)) && echo ", the first by the wasm (a graph is made after it)")"
  sort "$dir/fallbacks" | uniq -c | sed 's/^ */    fell back: /'
  # a circuit whose trace was refused: why (only the process that traced
  # knows: witness_graph_why traces again in a copy of the cache)
  if ((graph == 0)) && [ -n "${WITNESS_GRAPH_WHY:-}" ]; then
    cp -r "$cache" "$cache.why" && rm -f "$cache.why"/*.wgraph
    echo "    graph: $("$WITNESS_GRAPH_WHY" "$wasm" "$dir/0.json" "$cache.why" 2>&1)"
  fi
  # the compiled objects this run made, for the next run
  for f in "$cache/$sha"-*.so; do
    if [ -e "$f" ] && [ ! -e "$store/${f##*/}" ]; then cp "$f" "$store/"; fi
  done
}

specs=("$@")
refs=()
wasms=()
counts=()
for s in "${specs[@]}"; do
  IFS=: read -r name prime n expect <<<"$s"
  wasm=$(circomlib_wasm "$name" "$prime" "$bin" "$store" "$tmp/circom") && [ -s "$wasm" ] ||
    { fail "$s: no circuit (${wasm:-circom2 failed})"; wasms+=(""); counts+=(0); continue; }
  wasms+=("$wasm")
  # as many as asked, or as the data file holds
  n=$(node "$here/gen_inputs.js" "$name" "$prime" "$n" "$tmp/$name-$prime")
  counts+=("$n")
  refs+=("$wasm" "$tmp/$name-$prime" "$n")
done
# snarkjs's witnesses, one node process for all (its calculator prints
# the asserts that fail on stderr: kept unless reference.js fails)
node "$here/reference.js" "$bin/../snarkjs" "${refs[@]}" >/dev/null 2>"$tmp/reference.log" ||
  fail "reference.js: $(cat "$tmp/reference.log")"
for k in "${!specs[@]}"; do
  [ -n "${wasms[$k]}" ] || continue
  IFS=: read -r name prime n expect <<<"${specs[$k]}"
  check_circuit "$name" "$prime" "${counts[$k]}" "$expect" "${wasms[$k]}"
done
finish
