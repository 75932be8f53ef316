#!/usr/bin/env bash
# fullprove end to end, inputs to proof (issue "Witnesses from inputs",
# Benchmark): `g16 fullprove` against `snarkjs groth16 fullprove` and against
# `snarkjs wtns calculate` followed by rapidsnark's prover, same machine,
# same run.
#
#   bench/fullprove/run.sh [CIRCUIT...]        default: 16 20
#
# CIRCUIT is a fixture (CURVE/NAME) or a power k, the 2^k circom circuit of
# bench/prover/run.sh (see bench/common.sh; made and cached on first use, its
# key by `g16 setup --insecure-dev`; all provers use that key).
# g16 compiles a circuit natively on its first use: that run comes first,
# with an empty cache directory, untimed in the table's median and reported
# apart; the timed runs find the compiled circuit cached.  Then REPEATS
# rounds, the provers in turn, each a whole process (or two, for snarkjs +
# rapidsnark: their wall and CPU times added, the larger peak RSS) timed
# with GNU time; every proof is checked with `snarkjs groth16 verify` and its
# public.json against the circuit's (snarkjs's first).  Prints a markdown
# table.
#
# Environment: BUILD (the g16 build, default build-rel), REPEATS (default 3),
# SNARKJS_REPEATS (default REPEATS), RAPIDSNARK (rapidsnark's `prover`
# binary, built by hand outside the repository; unset: that column is "-").
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$REPO/build-rel}
REPEATS=${REPEATS:-3}
SNARKJS_REPEATS=${SNARKJS_REPEATS:-$REPEATS}
G16=$BUILD/bin/g16
SNARKJS=$REPO/tools/node_modules/.bin/snarkjs
CIRCUITS=("$@")
[ ${#CIRCUITS[@]} -gt 0 ] || CIRCUITS=(16 20)
export NODE_OPTIONS=${NODE_OPTIONS:---max-old-space-size=12288} # snarkjs at 2^20
# shellcheck source=bench/common.sh
. "$REPO/bench/common.sh"
[ -x "$G16" ] || { echo "no $G16: build g16 first (cmake -DCMAKE_BUILD_TYPE=Release)" >&2; exit 1; }
[ -z "${RAPIDSNARK:-}" ] || [ -x "$RAPIDSNARK" ] || { echo "RAPIDSNARK=$RAPIDSNARK is not executable" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
T0=$SECONDS
log() { printf '[%5ss] %s\n' "$((SECONDS - T0))" "$*" >&2; }

# check PROVER DIR: the proof in $WORK verifies and its public signals are
# the circuit's.
check() {
  "$SNARKJS" groth16 verify "$2/verification_key.json" "$WORK/public.json" "$WORK/proof.json" | grep -q OK ||
    { log "error: snarkjs rejects $1's proof of $2"; exit 1; }
  [ -s "$WORK/public.ref" ] || cp "$WORK/public.json" "$WORK/public.ref"
  node -e 'const f = (p) => JSON.stringify(JSON.parse(require("fs").readFileSync(p)));
    process.exit(f(process.argv[1]) === f(process.argv[2]) ? 0 : 1)' "$WORK/public.json" "$WORK/public.ref" ||
    { log "error: $1's public signals of $2 differ from the others'"; exit 1; }
  rm -f "$WORK/proof.json" "$WORK/public.json"
}

# prove PROVER DIR: one timed fullprove, checked; appends to $WORK/times.
prove() {
  local p=$1 dir=$2 w=$WORK
  case $p in
    g16 | first) timed "$w/times" "$p" "$G16" fullprove --cache-dir "$w/cache" "$dir/input.json" "$dir/circuit.wasm" \
      "$dir/circuit.zkey" "$w/proof.json" "$w/public.json" ;;
    snarkjs) timed "$w/times" "$p" "$SNARKJS" groth16 fullprove "$dir/input.json" "$dir/circuit.wasm" "$dir/circuit.zkey" \
      "$w/proof.json" "$w/public.json" ;;
    rapidsnark)
      timed "$w/pair" w "$SNARKJS" wtns calculate "$dir/circuit.wasm" "$dir/input.json" "$w/w.wtns"
      timed "$w/pair" p "$RAPIDSNARK" "$dir/circuit.zkey" "$w/w.wtns" "$w/proof.json" "$w/public.json"
      awk '{print "rapidsnark_" $0; k = $1 ~ /[.]cpu$/ ? "rapidsnark.cpu" : "rapidsnark"; s[k] += $2; if ($3 > m[k]) m[k] = $3}
        END {for (k in s) print k, s[k], m[k]}' "$w/pair" >> "$w/times"
      rm -f "$w/pair" "$w/w.wtns" ;;
  esac
  check "$p" "$dir"
  log "  $p: $(grep "^$p " "$w/times" | tail -n1 | awk '{printf "%s s, %.0f MiB", $2, $3 / 1024}')"
}

cell() {
  local m; m=$(times_median "$WORK/times" "$1")
  [ -n "$m" ] && echo "$m ($(times_best "$WORK/times" "$1")) s, CPU $(times_median "$WORK/times" "$1.cpu") s, $(times_peak "$WORK/times" "$1") MiB" || echo -
}
ratios() { echo "**$(times_ratio "$WORK/times" "$1" "$2")** (CPU $(times_ratio "$WORK/times" "$1.cpu" "$2.cpu"))"; }

# rs_split: the medians of the two steps of snarkjs wtns + rapidsnark.
rs_split() {
  local w p
  w=$(times_median "$WORK/times" rapidsnark_w) p=$(times_median "$WORK/times" rapidsnark_p)
  [ -z "$w" ] || echo " (witness $w s + prove $p s)"
}

provers=(g16 snarkjs)
[ -z "${RAPIDSNARK:-}" ] || provers+=(rapidsnark)
rows=()
for c in "${CIRCUITS[@]}"; do
  dir=$(circuit_dir "$c")
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  : > "$WORK/times"; rm -rf "$WORK/cache" "$WORK/public.ref"
  log "$(circuit_name "$c"): g16's first run (compiles the circuit), load $load"
  prove first "$dir"
  for r in $(seq "$(( REPEATS > SNARKJS_REPEATS ? REPEATS : SNARKJS_REPEATS ))"); do
    for p in "${provers[@]}"; do
      if [ "$p" = snarkjs ]; then [ "$r" -le "$SNARKJS_REPEATS" ] || continue; else [ "$r" -le "$REPEATS" ] || continue; fi
      prove "$p" "$dir"
    done
  done
  rows+=("| $(circuit_name "$c") | $(cell first) | $(cell g16) | $(cell snarkjs) | $(cell rapidsnark)$(rs_split) | $(ratios snarkjs g16) | $(ratios rapidsnark g16) | $load |")
done

echo "- $(date -u '+%Y-%m-%d %H:%M UTC'), $(machine_line), load at end $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- command: \`REPEATS=$REPEATS SNARKJS_REPEATS=$SNARKJS_REPEATS${RAPIDSNARK:+ RAPIDSNARK=$RAPIDSNARK} bench/fullprove/run.sh ${CIRCUITS[*]}\` ($(versions_line "$BUILD"))"
echo
echo "| circuit | g16 first run (compiles the circuit) | g16 fullprove | snarkjs groth16 fullprove | snarkjs wtns calculate + rapidsnark | snarkjs / g16 | (snarkjs wtns + rapidsnark) / g16 | load at start |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Cells: median (best) wall seconds over the runs, each a whole process from input.json to proof.json, the median CPU seconds (user + system, all threads) and the peak RSS over them; ratios of the medians, wall (CPU); every proof verified by snarkjs."
