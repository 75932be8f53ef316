#!/usr/bin/env bash
# Prover benchmark: g16 against rapidsnark and snarkjs (issue 2, "Performance").
#
#   bench/prover/run.sh [POWER...]        default powers: 16 18 20 (2^k constraints)
#
# For each size it generates (once; cached) a circuit, its witness and a
# Groth16 key, then proves it with snarkjs, rapidsnark and g16 in the same run,
# round-robin, REPEATS times each, timing every run with GNU time (wall time,
# peak RSS) and verifying every proof with `snarkjs groth16 verify`.  It prints
# a markdown table and adds it, with the machine, load and g16's --verbose
# split, at the top of the "## prover" section of bench/RESULTS.md.
#
# Environment:
#   RAPIDSNARK=PATH     rapidsnark's `prover` binary (built by hand, outside
#                       the repo); unset: rapidsnark is skipped with a note
#   G16=PATH            g16 binary (default: build the working tree into
#                       build-bench/ with CMake, Release)
#   REPEATS=N           timed runs per prover and size (default 3); the table
#                       shows the median, the best and the peak RSS over them
#   SNARKJS_REPEATS=N   the same for snarkjs (default: REPEATS)
#   THREADS=N           passed to g16 as --threads (default: g16's own, all CPUs)
#   GEN=circom|synth    circuit generator (default circom: circom + snarkjs
#                       powers of tau + groth16 setup; synth: `g16 synth --setup`,
#                       one-party insecure dev key, much faster)
#   KEYGEN=auto|snarkjs|g16  how the circom generator makes the Groth16 key:
#                       snarkjs: local powers of tau (new, contribute, prepare
#                       phase2) + `snarkjs groth16 setup`; g16: `g16 setup
#                       --insecure-dev` on the same .r1cs (one-party dev key,
#                       minutes faster); auto (default): snarkjs when a big
#                       enough ptau is cached or k <= SNARKJS_PTAU_MAX
#                       (default 16), else g16.  The table names the key used.
#   CACHE=DIR           cache for ptau, circuits, keys (default
#                       $XDG_CACHE_HOME/g16-bench, else ~/.cache/g16-bench:
#                       outside the repository)
#   PTAU_POWER=k        power of the ptau to make when none in CACHE is big
#                       enough (default: the largest size asked for)
#   RESULTS=FILE        where the table goes (default bench/RESULTS.md);
#                       RESULTS=- prints only
#   PROVERS="snarkjs rapidsnark g16"  which provers to run
#   GEN_ONLY=1          only make (and cache) the circuits, then stop
set -euo pipefail
shopt -s inherit_errexit

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CACHE=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/g16-bench}
REPEATS=${REPEATS:-3}
SNARKJS_REPEATS=${SNARKJS_REPEATS:-$REPEATS}
GEN=${GEN:-circom}
RESULTS=${RESULTS:-$REPO/bench/RESULTS.md}
PROVERS=${PROVERS:-snarkjs rapidsnark g16}
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(16 18 20)
SNARKJS=$REPO/tools/node_modules/.bin/snarkjs
CIRCOM=$REPO/tools/node_modules/.bin/circom2
GNUTIME=/usr/bin/time
# snarkjs on 2^20 needs more than node's default heap.
export NODE_OPTIONS=${NODE_OPTIONS:---max-old-space-size=12288}

T0=$(date +%s)
log() { printf '[%5ss] %s\n' "$(( $(date +%s) - T0 ))" "$*" >&2; }
die() { log "error: $*"; exit 1; }
# Runs a long snarkjs step, showing its progress lines with elapsed time.
progress() {
    local what=$1; shift
    local s; s=$(date +%s)
    "$@" 2>&1 | sed -u 's/\x1b\[[0-9;]*m//g' | while IFS= read -r line; do
        printf '[%5ss] %s +%ss: %s\n' "$(( $(date +%s) - T0 ))" "$what" "$(( $(date +%s) - s ))" "$line" >&2
    done
    return "${PIPESTATUS[0]}"
}

case ${KEYGEN:-auto} in auto|snarkjs|g16) ;; *) die "KEYGEN must be auto, snarkjs or g16, not '$KEYGEN'" ;; esac
case $GEN in circom|synth) ;; *) die "GEN must be circom or synth, not '$GEN'" ;; esac
for k in "${SIZES[@]}"; do
    [[ $k =~ ^[0-9]+$ ]] && [ "$k" -ge 8 ] && [ "$k" -le 28 ] || die "size '$k' is not a power between 8 and 28"
done

# ---------------------------------------------------------------- tools
[ -x "$SNARKJS" ] && [ -x "$CIRCOM" ] || { log "tools/node_modules missing: make deps"; make -C "$REPO" deps >&2; }
if [ ! -x "$GNUTIME" ]; then
    log "GNU time missing: apt-get install time"
    if [ "$(id -u)" = 0 ]; then apt-get install -y time >&2; else sudo apt-get install -y time >&2; fi
fi
if [ -z "${G16:-}" ]; then
    log "building g16 (working tree) into build-bench/ (log: build-bench/bench-build.log)"
    mkdir -p "$REPO/build-bench"
    { cmake -S "$REPO" -B "$REPO/build-bench" -DCMAKE_BUILD_TYPE=Release &&
      cmake --build "$REPO/build-bench" --target g16 -j"$(nproc)"; } >"$REPO/build-bench/bench-build.log" 2>&1 ||
        { tail -n 30 "$REPO/build-bench/bench-build.log" >&2; die "g16 build failed"; }
    G16=$REPO/build-bench/bin/g16
    G16_REV=${G16_REV:-$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown) (working tree)}
fi
G16_REV=${G16_REV:-unknown}
[ -x "$G16" ] || die "G16=$G16 is not executable"
if [ -n "${RAPIDSNARK:-}" ] && [ ! -x "$RAPIDSNARK" ]; then die "RAPIDSNARK=$RAPIDSNARK is not executable"; fi
mkdir -p "$CACHE"

# ---------------------------------------------------------------- circuits
# Smallest cached prepared ptau of power >= $1, or a new one (prints its path).
ensure_ptau() {
    local k=$1 p f
    for p in $(seq "$k" 28); do
        f=$CACHE/ptau/pot${p}_final.ptau
        [ -s "$f" ] && { echo "$f"; return; }
    done
    p=${PTAU_POWER:-$(printf '%s\n' "${SIZES[@]}" | sort -n | tail -n1)}
    [ "$p" -ge "$k" ] || p=$k
    f=$CACHE/ptau/pot${p}_final.ptau
    mkdir -p "$CACHE/ptau"
    log "powers of tau 2^$p (snarkjs new, contribute, prepare phase2; 2^20 takes tens of minutes)"
    local w=$CACHE/ptau/pot${p}
    progress "ptau$p new" "$SNARKJS" powersoftau new bn128 "$p" "$w"_0000.ptau -v
    progress "ptau$p contribute" "$SNARKJS" powersoftau contribute "$w"_0000.ptau "$w"_0001.ptau \
        --name=g16-bench -e="g16 bench $(date +%s%N) $RANDOM" -v
    rm -f "$w"_0000.ptau
    progress "ptau$p prepare" "$SNARKJS" powersoftau prepare phase2 "$w"_0001.ptau "$f.tmp" -v
    rm -f "$w"_0001.ptau
    mv "$f.tmp" "$f"
    echo "$f"
}

# circom generator: bench.circom with NB bit blocks (85 constraints each at
# --O0, ~70% of the circuit) and an NM-step multiply/add chain filling the
# rest, so that constraints + 2 public signals = 2^k - 1 (snarkjs's domain is
# then 2^k).  Besides the .r1cs and the .wasm it keeps circom's C++ witness
# generator source in cpp/ (built by bench/witness/run.sh when it is used).
gen_circuit_circom() {
    local k=$1 dir=$2 n nb nm
    n=$(( (1 << k) - 3 ))
    nb=$(( n * 7 / 10 / 85 ))
    nm=$(( n - 36 - 85 * nb ))
    log "2^$k: circom circuit, $nb bit blocks + $nm chain steps = $n constraints"
    { cat "$HERE/bench.circom"; echo "component main {public [x]} = Bench($nb, $nm);"; } > "$dir/circuit.circom"
    local s; s=$(date +%s)
    progress "2^$k circom" "$CIRCOM" "$dir/circuit.circom" --O0 --r1cs --wasm --c -o "$dir"
    echo "$(( $(date +%s) - s ))" > "$dir/circom_seconds"
    local got
    got=$("$SNARKJS" r1cs info "$dir/circuit.r1cs" | sed 's/\x1b\[[0-9;]*m//g' | sed -n 's/.*# of Constraints: //p')
    [ "$got" = "$n" ] || die "2^$k: circom wrote $got constraints, expected $n"
    echo '{"seed": "2718281828", "x": "31415926535"}' > "$dir/input.json"
    log "2^$k: witness"
    "$SNARKJS" wtns calculate "$dir/circuit_js/circuit.wasm" "$dir/input.json" "$dir/witness.wtns" >/dev/null
    if [ "$(keygen_for "$k")" = snarkjs ]; then
        local ptau; ptau=$(ensure_ptau "$k")
        progress "2^$k groth16 setup" "$SNARKJS" groth16 setup "$dir/circuit.r1cs" "$ptau" "$dir/circuit.zkey" -v
    else
        log "2^$k: g16 setup --insecure-dev"
        "$G16" setup --insecure-dev -v "$dir/circuit.r1cs" "$dir/circuit.zkey" >&2
    fi
    "$SNARKJS" zkey export verificationkey "$dir/circuit.zkey" "$dir/verification_key.json" >/dev/null
    # the wasm stays for fullProve (bench/node/run.sh), the C++ source for
    # bench/witness/run.sh
    mv "$dir/circuit_js/circuit.wasm" "$dir/circuit.wasm"
    mv "$dir/circuit_cpp" "$dir/cpp"
    rm -rf "$dir/circuit_js"
}

# g16 synth generator (insecure one-party key; no ptau needed).
gen_circuit_synth() {
    local k=$1 dir=$2
    log "2^$k: g16 synth --setup"
    "$G16" synth --constraints $(( (1 << k) - 3 )) --curve bn128 --out "$dir" --setup >&2
}

# Which key maker the circom generator uses for size 2^$1.
keygen_for() {
    local k=$1 p
    case ${KEYGEN:-auto} in
        snarkjs|g16) echo "$KEYGEN"; return ;;
        auto) ;;
        *) die "KEYGEN must be auto, snarkjs or g16, not '$KEYGEN'" ;;
    esac
    for p in $(seq "$k" 28); do [ -s "$CACHE/ptau/pot${p}_final.ptau" ] && { echo snarkjs; return; }; done
    [ "$k" -le "${SNARKJS_PTAU_MAX:-16}" ] && echo snarkjs || echo g16
}

# The one place that makes a circuit: leaves circuit.zkey, witness.wtns and
# verification_key.json in the directory it prints.
gen_circuit() {
    local k=$1 tag dir
    tag=$GEN
    [ "$GEN" = circom ] && tag=circom-$(sha1sum "$HERE/bench.circom" | cut -c1-8)
    dir=$CACHE/$tag-2p$k
    # A cached circuit with the other kind of key is not reused.
    [ "$GEN" = circom ] && [ -s "$dir/circuit.zkey" ] && [ "$(cat "$dir/keygen" 2>/dev/null)" != "$(keygen_for "$k")" ] &&
        dir=$dir-$(keygen_for "$k")
    if [ ! -s "$dir/circuit.zkey" ] || [ ! -s "$dir/witness.wtns" ] || [ ! -s "$dir/verification_key.json" ]; then
        rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
        case $GEN in
            circom) gen_circuit_circom "$k" "$dir.tmp"; keygen_for "$k" > "$dir.tmp/keygen" ;;
            synth) gen_circuit_synth "$k" "$dir.tmp"; echo g16 > "$dir.tmp/keygen" ;;
            *) die "GEN must be circom or synth, not '$GEN'" ;;
        esac
        rm -rf "$dir"; mv "$dir.tmp" "$dir"
    fi
    echo "$dir"
}

# Share of witness values that are 0 or 1 (bn128 .wtns: section 2, 32-byte values).
witness_01_share() {
    python3 - "$1" <<'PY' 2>/dev/null || echo "?"
import struct, sys
d = open(sys.argv[1], "rb").read()
pos, n8, n, z = 12, 32, 0, 0
while pos < len(d):
    sid, ln = struct.unpack_from("<IQ", d, pos); pos += 12
    if sid == 1: n8 = struct.unpack_from("<I", d, pos)[0]
    if sid == 2:
        zero, one = bytes(n8), b"\x01" + bytes(n8 - 1)
        for i in range(pos, pos + ln, n8):
            v = d[i:i + n8]; n += 1; z += (v == zero or v == one)
    pos += ln
print("%.0f%%" % (100.0 * z / n))
PY
}

# ---------------------------------------------------------------- proving
WORK=$(mktemp -d "${TMPDIR:-/tmp}/g16-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# run_one PROVER DIR TAG: one timed proof, verified; appends "time rss" to
# $WORK/TAG.times and g16's --verbose line to $WORK/TAG.verbose.
run_one() {
    local prover=$1 dir=$2 tag=$3
    local out=$WORK/$tag.$RANDOM
    local cmd
    case $prover in
        snarkjs) cmd=("$SNARKJS" groth16 prove "$dir/circuit.zkey" "$dir/witness.wtns" "$out.proof.json" "$out.public.json") ;;
        rapidsnark) cmd=("$RAPIDSNARK" "$dir/circuit.zkey" "$dir/witness.wtns" "$out.proof.json" "$out.public.json") ;;
        g16) cmd=("$G16" prove --verbose ${THREADS:+--threads "$THREADS"} "$dir/circuit.zkey" "$dir/witness.wtns" "$out.proof.json" "$out.public.json") ;;
    esac
    if ! "$GNUTIME" -f '%e %M %U %S' -o "$out.time" "${cmd[@]}" >"$out.stdout" 2>"$out.stderr"; then
        cat "$out.stderr" >&2; die "$prover failed on $dir"
    fi
    if ! "$SNARKJS" groth16 verify "$dir/verification_key.json" "$out.public.json" "$out.proof.json" >"$out.verify" 2>&1 ||
       ! grep -q 'OK' "$out.verify"; then
        cat "$out.verify" >&2; die "$prover's proof of $dir does not verify"
    fi
    local tr; tr=$(tail -n1 "$out.time" | awk '{printf "%s %s %.2f", $1, $2, $3 + $4}')
    echo "$tr" >> "$WORK/$tag.times"
    if [ "$prover" = g16 ]; then
        grep -h '^g16:' "$out.stderr" "$out.stdout" | tail -n1 | sed "s/^/$tr /" >> "$WORK/$tag.verbose" || true
    fi
    log "  $prover: $(echo "$tr" | awk '{printf "%s s wall, %s s CPU, %d MB", $1, $3, $2 / 1024}'), verified"
    rm -f "$out".*
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print ""; else if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
LOAD_START=$(loadavg)
RS_NOTE="rapidsnark: not run (set RAPIDSNARK=/path/to/prover)"
[ -n "${RAPIDSNARK:-}" ] && RS_NOTE="rapidsnark: $RAPIDSNARK"
[ -z "${RAPIDSNARK:-}" ] && log "note: RAPIDSNARK is unset, rapidsnark is skipped"
log "machine: $(nproc) CPUs ($CPU), load $LOAD_START; g16 $G16_REV"

if [ -n "${GEN_ONLY:-}" ]; then
    for k in "${SIZES[@]}"; do log "2^$k: $(gen_circuit "$k")"; done
    exit 0
fi

ROWS=()
SPLITS=()
for k in "${SIZES[@]}"; do
    dir=$(gen_circuit "$k")
    share=$(witness_01_share "$dir/witness.wtns")
    provers=()
    for p in $PROVERS; do
        [ "$p" = rapidsnark ] && [ -z "${RAPIDSNARK:-}" ] && continue
        provers+=("$p")
    done
    la=$(loadavg)
    log "2^$k: proving ($dir), witness 0/1 share $share, load $la"
    nmax=$REPEATS; [ "$SNARKJS_REPEATS" -gt "$nmax" ] && nmax=$SNARKJS_REPEATS
    for r in $(seq 1 "$nmax"); do
        for p in "${provers[@]}"; do
            if [ "$p" = snarkjs ]; then [ "$r" -le "$SNARKJS_REPEATS" ] || continue
            else [ "$r" -le "$REPEATS" ] || continue; fi
            run_one "$p" "$dir" "$p.$k"
        done
    done
    declare -A MED=() BEST=() RSS=() NRUN=() CPUS=()
    for p in "${provers[@]}"; do
        f=$WORK/$p.$k.times
        MED[$p]=$(cut -d' ' -f1 "$f" | median)
        BEST[$p]=$(cut -d' ' -f1 "$f" | sort -g | head -n1)
        RSS[$p]=$(cut -d' ' -f2 "$f" | sort -g | tail -n1)
        CPUS[$p]=$(cut -d' ' -f3 "$f" | median)
        NRUN[$p]=$(wc -l < "$f")
    done
    cell() { [ -n "${MED[$1]:-}" ] && printf '%s (%s) s, CPU %s s, %s MB' "${MED[$1]}" "${BEST[$1]}" "${CPUS[$1]}" "$(( ${RSS[$1]} / 1024 ))" || printf -- '-'; }
    ratio() { [ -n "${MED[$1]:-}" ] && [ -n "${MED[$2]:-}" ] && awk -v a="${MED[$1]}" -v b="${MED[$2]}" -v c="${RSS[$1]}" -v d="${RSS[$2]}" -v e="${CPUS[$1]}" -v f="${CPUS[$2]}" 'BEGIN {printf "%.2fx time, %.2fx CPU, %.2fx RSS", a/b, (f > 0 ? e/f : 0), c/d}' || printf -- '-'; }
    key=$(cat "$dir/keygen" 2>/dev/null || echo '?')
    ROWS+=("| 2^$k | $key | $share | $(cell snarkjs) | $(cell rapidsnark) | $(cell g16) | $(ratio g16 rapidsnark) | $(ratio g16 snarkjs) | $la |")
    # g16's split from the run with the median time.
    if [ -s "$WORK/g16.$k.verbose" ]; then
        v=$(sort -g -k1,1 "$WORK/g16.$k.verbose" | sed -n "$(( ($(wc -l < "$WORK/g16.$k.verbose") + 1) / 2 ))p")
        SPLITS+=("| 2^$k | $(echo "$v" | cut -d' ' -f1) | $(echo "$v" | cut -d' ' -f3) | $(echo "$v" | sed 's/^.* g16: //') |")
    fi
    unset MED BEST RSS NRUN CPUS
done
LOAD_END=$(loadavg)

# ---------------------------------------------------------------- report
CMDLINE="bench/prover/run.sh ${SIZES[*]}"
ENVS="REPEATS=$REPEATS SNARKJS_REPEATS=$SNARKJS_REPEATS GEN=$GEN${KEYGEN:+ KEYGEN=$KEYGEN}${THREADS:+ THREADS=$THREADS}${RAPIDSNARK:+ RAPIDSNARK=$RAPIDSNARK}"
[ "$PROVERS" = "snarkjs rapidsnark g16" ] || ENVS="PROVERS=\"$PROVERS\" $ENVS"
REPORT=$WORK/report.md
{
    echo "### $(date -u '+%Y-%m-%d %H:%M UTC') g16 vs rapidsnark vs snarkjs"
    echo
    echo "- machine: $(uname -srm), $(nproc) CPUs ($CPU), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM; load average at start $LOAD_START, at end $LOAD_END"
    echo "- command: \`$ENVS $CMDLINE\`"
    echo "- g16 $G16_REV ($G16); $RS_NOTE; snarkjs $(sed -n 's/.*"version": "\(.*\)".*/\1/p' "$REPO/tools/node_modules/snarkjs/package.json" | head -n1)"
    echo "- circuits: $GEN generator (bench/prover/bench.circom for circom: ~70% bit decompositions and AND gates, ~30% multiply/add chain), constraints + public signals = 2^k - 1, domain 2^k; key: snarkjs = local powers of tau + \`snarkjs groth16 setup\`, g16 = \`g16 setup --insecure-dev\` (KEYGEN)"
    echo "- each cell: median (best) wall time over the runs, peak RSS (max over the runs), and median CPU time (user+sys, all threads), from \`/usr/bin/time -f '%e %M %U %S'\`; every proof checked with \`snarkjs groth16 verify\`; provers run round-robin; ratios are of medians and of peak RSS"
    echo
    echo "| size | key | witness 0/1 | snarkjs | rapidsnark | g16 | g16/rapidsnark | g16/snarkjs | load at start |"
    echo "|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${ROWS[@]}"
    if [ ${#SPLITS[@]} -gt 0 ]; then
        echo
        echo "g16 \`prove --verbose\` split (the run with the median wall time, the faster of the middle two for an even count; its wall includes process start and file mapping; the steps are wall times):"
        echo
        echo "| size | wall s | CPU s | g16 --verbose |"
        echo "|---|---|---|---|"
        printf '%s\n' "${SPLITS[@]}"
    fi
    echo
} > "$REPORT"
cat "$REPORT"

if [ "$RESULTS" != - ]; then
    [ -f "$RESULTS" ] || printf '# Benchmark results\n' > "$RESULTS"
    # New run goes first in "## prover" (created at the end if absent); other sections untouched.
    python3 - "$RESULTS" "$REPORT" <<'PY'
import sys
path, rep = sys.argv[1], open(sys.argv[2]).read()
lines = open(path).read().split("\n")
try:
    i = lines.index("## prover")
    out = lines[:i + 1] + [""] + rep.rstrip("\n").split("\n") + lines[i + 1:]
except ValueError:
    while lines and lines[-1] == "": lines.pop()
    out = lines + ["", "## prover", ""] + rep.rstrip("\n").split("\n") + [""]
text = "\n".join(out)
while "\n\n\n" in text: text = text.replace("\n\n\n", "\n\n")
open(path, "w").write(text if text.endswith("\n") else text + "\n")
PY
    log "wrote the table to $RESULTS (## prover)"
fi
