#!/usr/bin/env bash
# fullProve from Node.js: the g16 package (bindings/node) against
# snarkjs.groth16.fullProve, same machine, same run.
#
#   bench/node/run.sh [CIRCUIT...]        default: bn128/sha256 20
#
# CIRCUIT is a fixture (CURVE/NAME under ../shared/fixtures) or a power k:
# the 2^k circom circuit of bench/prover/run.sh (see bench/common.sh: its
# generator and cache, key by `g16 setup --insecure-dev`, which snarkjs
# proves with too).
# Each prover runs in a node process of its own (GNU time: peak RSS) making
# REPEATS fullProve calls in a row (fullprove.js); the first opens the key
# and the circuit, the rest find them cached (snarkjs caches nothing).
# g16 compiles a circuit natively on its first use ever: that run comes
# first, untimed, and its time is reported apart.  Every prover's last
# proof is checked with `snarkjs groth16 verify`.  The table is printed
# and added at the top of the "## node" section of bench/RESULTS.md.
#
# Environment: REPEATS (default 3), SNARKJS_REPEATS (default REPEATS; 0:
# g16 only, for a snarkjs number taken from another run),
# BUILD (the g16 build to use, default build/, made with `make build` when
# missing), RESULTS (default bench/RESULTS.md; - prints only).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
REPEATS=${REPEATS:-3}
SNARKJS_REPEATS=${SNARKJS_REPEATS:-$REPEATS}
BUILD=${BUILD:-$REPO/build}
RESULTS=${RESULTS:-$REPO/bench/RESULTS.md}
SNARKJS=$REPO/tools/node_modules/.bin/snarkjs
CIRCUITS=("$@")
[ ${#CIRCUITS[@]} -gt 0 ] || CIRCUITS=(bn128/sha256 20)
export NODE_OPTIONS=${NODE_OPTIONS:---max-old-space-size=12288} # snarkjs at 2^20
T0=$SECONDS
log() { printf '[%5ss] %s\n' "$((SECONDS - T0))" "$*" >&2; }
die() { log "error: $*"; exit 1; }
G16=$BUILD/bin/g16
# shellcheck source=bench/common.sh
. "$REPO/bench/common.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The library and the package: the build installed under .cache/prefix,
# the package built against it (npm install, offline).
[ -f "$BUILD/src/lib/libg16.so" ] || { log "building g16 (make build)"; make -C "$REPO" build >&2; }
mkdir -p "$HERE/.cache"
cmake --install "$BUILD" --prefix "$HERE/.cache/prefix" >/dev/null
(cd "$REPO/bindings/node" && PKG_CONFIG_PATH=$HERE/.cache/prefix/lib/pkgconfig \
  npm install --offline --no-audit --no-fund --loglevel=error >&2) || die "the package did not build"

# run PROVER DIR REPEATS: "first median best peak_rss_MB cpu_per_call" of
# one process (CPU: user + system of the whole process, all threads,
# start-up included, over its calls).
run() {
  local out=$WORK/$1
  mkdir -p "$out"
  /usr/bin/time -f '%M %U %S' -o "$out/time" node "$HERE/fullprove.js" "$1" "$2/input.json" "$2/circuit.wasm" \
    "$2/circuit.zkey" "$3" "$out" > "$out/times" || die "$1 failed on $2"
  "$SNARKJS" groth16 verify "$2/verification_key.json" "$out/public.json" "$out/proof.json" | grep -q OK \
    || die "snarkjs rejects $1's proof of $2"
  node -e 'const t = JSON.parse(process.argv[1]).times, s = [...t].sort((a, b) => a - b);
    const [rss, user, sys] = process.argv[2].split(" ").map(Number);
    console.log(t[0].toFixed(2), s[Math.floor(s.length / 2)].toFixed(2), s[0].toFixed(2),
      (rss / 1024).toFixed(0), ((user + sys) / t.length).toFixed(2))' "$(cat "$out/times")" "$(tail -n1 "$out/time")"
}

rows=()
for c in "${CIRCUITS[@]}"; do
  dir=$(circuit_dir "$c") || die "no circuit $c"
  domain=$(node -e 'require(process.argv[1]).openKey(process.argv[2]).then((k) => console.log(k.domainSize))' \
    "$REPO/bindings/node" "$dir/circuit.zkey")
  name=$(circuit_name "$c")
  log "$name: g16's first use (compiles the circuit unless cached)"
  s=$SECONDS; run g16 "$dir" 1 >/dev/null; compile=$((SECONDS - s))
  sf=- sm=- sb=- sr=- sc=-
  if [ "$SNARKJS_REPEATS" -gt 0 ]; then
    log "$name: snarkjs x$SNARKJS_REPEATS"
    read -r sf sm sb sr sc < <(run snarkjs "$dir" "$SNARKJS_REPEATS")
  fi
  log "$name: g16 x$REPEATS"
  read -r gf gm gb gr gc < <(run g16 "$dir" "$REPEATS")
  speed=- cspeed=-
  [ "$sm" = - ] || speed=$(echo "scale=1; $sm / $gm" | bc) cspeed=$(echo "scale=1; $sc / $gc" | bc)
  rows+=("| $name | 2^$(echo "l($domain)/l(2)" | bc -l | xargs printf '%.0f') | $sf / $sm / $sb s, CPU $sc s/call, $sr MB | $gf / $gm / $gb s, CPU $gc s/call, $gr MB | **${speed}x** (CPU ${cspeed}x) | ${compile} s |")
done

cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -n1)
block=$(cat <<EOT
### $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($cpu), load $(cut -d' ' -f1-3 /proc/loadavg)

Command: \`REPEATS=$REPEATS SNARKJS_REPEATS=$SNARKJS_REPEATS bench/node/run.sh ${CIRCUITS[*]}\` (g16 $(git -C "$REPO" describe --always --dirty), snarkjs $(node -p "require('$REPO/tools/node_modules/snarkjs/package.json').version"), node $(node --version)).
Times: first call (opens key and circuit) / median / best of the calls in one process; CPU: user + system of the whole process (all threads, start-up included) divided by its calls; RSS: the process's peak.

| circuit | domain | snarkjs fullProve | g16 fullProve | speed-up (median; CPU per call) | g16 untimed first run (compiles the circuit unless cached) |
|---|---|---|---|---|---|
$(printf '%s\n' "${rows[@]}")
EOT
)
echo "$block"
if [ "$RESULTS" != - ]; then
  python3 - "$RESULTS" "$block" <<'PY'
import sys
path, block = sys.argv[1], sys.argv[2]
text = open(path).read()
head = "## node\n"
if head not in text:
    text = text.rstrip("\n") + "\n\n" + head + "\n`fullProve` from Node.js (bench/node/run.sh): the g16 package against snarkjs.\n\n"
i = text.index(head) + len(head)
ends = [k for k in (text.find("### ", i), text.find("\n## ", i)) if k >= 0]
j = min(ends) if ends else len(text)
text = text[:j] + block + "\n\n" + text[j:]
open(path, "w").write(text)
PY
  log "added to $RESULTS"
fi
