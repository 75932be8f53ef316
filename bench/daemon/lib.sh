# Shared pieces of the g16d benchmarks (sourced by run.sh and gpu_bench.sh).
# The caller sets G16 and G16D (binaries), T (a scratch directory, short:
# the socket path must stay under 108 bytes) and ALLOW (the --allow-dir the
# daemons get).  Nothing here needs node: the bench machines may lack it.
PID=
client() { "$G16" client --socket "$T/s" "$@"; }
now() { date +%s.%N; }
# since T0: seconds from T0 (a now() value) to now, 2 decimals
since() { echo "$1 $(now)" | awk '{printf "%.2f", $2 - $1}'; }
# per S N: S / N to 3 decimals
per() { echo "$1 $2" | awk '{printf "%.3f", $1 / $2}'; }
# num FIELD < JSON: the first integer value of FIELD (flat grep, no node)
num() { grep -o "\"$1\":[0-9]*" | head -1 | cut -d: -f2; }
# str FIELD < JSON: the first string value of FIELD
str() { grep -o "\"$1\":\"[^\"]*\"" | head -1 | cut -d'"' -f4; }

# start_daemon ARGS...: a fresh g16d (empty state dir) on $T/s.
start_daemon() {
  rm -rf "$T/st"
  "$G16D" --socket "$T/s" --state-dir "$T/st" --allow-dir "$ALLOW" "$@" >>"$T/log" 2>&1 &
  PID=$!
  for _ in $(seq 300); do
    [ -S "$T/s" ] && client status >/dev/null 2>&1 && return
    kill -0 "$PID" 2>/dev/null || { echo "g16d exited at startup: $(tail -1 "$T/log")" >&2; exit 1; }
    sleep 0.1
  done
  echo "g16d did not start" >&2; exit 1
}
stop_daemon() { kill -TERM "$PID"; wait "$PID" || true; PID=; }
hwm_mib() { awk '/^VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$PID/status"; }
rss_mib() { awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$PID/status"; }

# through_daemon KEY WITNESS N [OUTDIR]: N proofs as one job each, all
# submitted at once; prints the seconds from the first submit to the last
# result.  With OUTDIR, job i's proof and public signals land in OUTDIR/i/.
through_daemon() {
  local ids=() t0 i=0
  t0=$(now)
  for _ in $(seq "$3"); do ids+=("$(client prove --key "$1" "$2")"); done
  for id in "${ids[@]}"; do
    if [ -n "${4:-}" ]; then mkdir -p "$4/$i" && client wait "$id" --timeout 600 --out "$4/$i" >/dev/null
    else client wait "$id" --timeout 600 >/dev/null; fi
    i=$((i + 1))
  done
  since "$t0"
}

# through_job KEY WITNESS N OUTDIR: one job of N partitions (the witness N
# times), as a service batches small proofs; prints the seconds from the
# submission to the result.  Partition i's proof and public signals land
# in OUTDIR as proof-i.json and public-i.json.
through_job() {
  local ws=() t0 id
  for _ in $(seq "$3"); do ws+=("$2"); done
  t0=$(now)
  id=$(client prove --key "$1" "${ws[@]}")
  mkdir -p "$4" && client wait "$id" --timeout 600 --out "$4" >/dev/null
  since "$t0"
}

# max_held: the most partitions that held budget at once, from the timeline.
max_held() {
  client memory | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "held_parts") c = i }
                           NR > 1 && $c > m { m = $c } END { print m + 0 }'
}

# peak_run KB_FILE CMD...: runs CMD, writes its peak RSS in KiB to KB_FILE
# (GNU time when installed, else Python's rusage; "0" when neither is).
peak_run() {
  local f=$1; shift
  if [ -x /usr/bin/time ]; then /usr/bin/time -f "%M" -o "$f" "$@"
  elif command -v python3 >/dev/null; then
    python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
open(sys.argv[1], "w").write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)' "$f" "$@"
  else echo 0 >"$f"; "$@"; fi
}
