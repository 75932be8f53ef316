#!/usr/bin/env bash
# bench/setup/run.sh: times g16 synth, g16 check and g16 setup --insecure-dev
# at 2^16 and 2^18 constraints (both curves) and writes the "## setup"
# section of bench/RESULTS.md (only that section is replaced).
#
#   bench/setup/run.sh [--g16 PATH] [--sizes "16 18"] [--curves "bn128 bls12381"]
#                      [--section-only FILE]
# --section-only writes the section to FILE instead of editing RESULTS.md
# (for runs on another machine whose results are merged later with
# bench/setup/merge.sh FILE).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
g16=$root/build/bin/g16 sizes="16 18" curves="bn128 bls12381" section_only=""
while [ $# -gt 0 ]; do
  case $1 in
    --g16) g16=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --curves) curves=$2; shift 2 ;;
    --section-only) section_only=$2; shift 2 ;;
    *) echo "bench/setup/run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x "$g16" ] || { echo "bench/setup/run.sh: no g16 at $g16 (build it first)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/g16-bench-setup.XXXXXX")
trap 'rm -rf "$work"' EXIT

# timed LABEL CMD...: wall seconds and peak RSS (MiB) of CMD into $secs/$mib.
timed() {
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null
  t1=$(date +%s.%N)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  mib=$(awk '{ printf "%.0f", $1 / 1024 }' "$work/rss")
}

rows=""
for curve in $curves; do
  for k in $sizes; do
    d=$work/$curve-$k
    timed "$g16" synth --constraints "2^$k" --curve "$curve" --seed 1 --out "$d"; synth_s=$secs
    timed "$g16" check "$d/circuit.r1cs" "$d/witness.wtns"; check_s=$secs
    timed "$g16" setup --insecure-dev --seed 1 "$d/circuit.r1cs" "$d/circuit.zkey"; setup_s=$secs setup_mib=$mib
    size=$(awk -v b="$(stat -c %s "$d/circuit.zkey")" 'BEGIN { printf "%.0f", b / 1048576 }')
    rows+="| $curve | 2^$k | $synth_s | $check_s | $setup_s | $setup_mib | $size |"$'\n'
    rm -rf "$d"
  done
done

cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
section=$(cat <<EOT
## setup

$(date -u +%Y-%m-%d), $(nproc) CPUs ($cpu), $(uname -sr).
Command: \`bench/setup/run.sh\` (synth --seed 1, then check, then
setup --insecure-dev --seed 1 on the synthetic circuit; all threads).
Seconds of wall time; RSS = peak resident MiB of the setup process.

| curve | constraints | synth s | check s | setup s | setup RSS MiB | zkey MiB |
|-------|-------------|---------|---------|---------|---------------|----------|
${rows%$'\n'}
EOT
)
if [ -n "$section_only" ]; then
  printf '%s\n' "$section" >"$section_only"
else
  printf '%s\n' "$section" >"$work/section.md"
  bash "$root/bench/setup/merge.sh" "$work/section.md"
fi
printf '%s\n' "$section"
