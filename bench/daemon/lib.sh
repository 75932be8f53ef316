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

# start_daemon ARGS...: a fresh g16d (empty state dir) on $T/s.  Refuses
# while another daemon answers there: the new one would exit at its bind
# and the old one answer for it.
start_daemon() {
  if [ -S "$T/s" ] && client status >/dev/null 2>&1; then
    echo "start_daemon: a g16d already answers on $T/s (stop it first)" >&2; exit 1
  fi
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
# in OUTDIR as proof-i.json and public-i.json, the finished job (with each
# partition's timings) in OUTDIR/job.json.
through_job() {
  local ws=() t0 id
  for _ in $(seq "$3"); do ws+=("$2"); done
  t0=$(now)
  id=$(client prove --key "$1" "${ws[@]}")
  mkdir -p "$4" && client wait "$id" --timeout 600 --out "$4" >"$4/job.json"
  since "$t0"
}

# pipeline_per JOB_JSON: the steady-state seconds a proof inside the
# daemon, from the spacing of the partitions' synthesis starts (wait_s,
# seconds from the job's creation to its synthesis): once the pipeline is
# full a partition starts only as one leaves, so this is its rate, without
# the upload of the witnesses before or the download of the proofs after.
# The first quarter is left out (the pipeline filling up); "-" under 8
# partitions, too few to have a steady state.
pipeline_per() {
  grep -o '"wait_s":[0-9.]*' "$1" | cut -d: -f2 | sort -g |
    awk '{ w[n++] = $1 } END { a = int(n / 4); if (n < 8) { print "-"; exit }
                                printf "%.4f", (w[n - 1] - w[a]) / (n - 1 - a) }'
}

# latency DIR DEVICE [BUDGET]: the latency of one proof of DIR's key, the
# scheduler's cost to a lone large proof: the median of `g16 prove
# --repeat 3` (key loaded once; the first proof pays the set-up) and of 3
# one-partition jobs in turn through a fresh g16d (key resident, the lone
# partition gets every thread), `g16 client prove --wait`'s wall time, its
# own start and the witness upload included.  Prints "PROVE_S G16D_S".
latency() {
  "$G16" prove --device "$2" --repeat 3 "$1/circuit.zkey" "$1/witness.wtns" "$T/p.json" "$T/q.json" \
    2>"$T/prove.log" || { echo "g16 prove: $(tail -1 "$T/prove.log")" >&2; exit 1; }
  local tp lat=() t0
  tp=$(grep -o 'median [0-9.]* s' "$T/prove.log" | cut -d' ' -f2)
  start_daemon ${3:+--memory-budget "$3"} --device "$2"
  client keys load k "$1/circuit.zkey" >/dev/null
  for _ in 1 2 3; do
    t0=$(now)
    client prove --key k --wait "$1/witness.wtns" >/dev/null
    lat+=("$(echo "$t0 $(now)" | awk '{printf "%.3f", $2 - $1}')")
  done
  stop_daemon
  echo "$tp $(printf '%s\n' "${lat[@]}" | sort -n | sed -n 2p)"
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

# workers_of LOG: "S/M/F", the synthesis, MSM and finalize workers of the
# last g16d started into LOG (its "listening" line)
workers_of() {
  grep 'listening' "$1" | tail -1 |
    sed -n 's/.*synth_workers=\([0-9]*\) msm_workers=\([0-9]*\) finalize_workers=\([0-9]*\).*/\1\/\2\/\3/p'
}
