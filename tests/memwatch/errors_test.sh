#!/bin/bash
# Clear one-line errors and non-zero exits.
. "$(dirname "$0")/lib.sh"
expect_error "no process with PID 2147483" "$MW" record --pid 2147483 --out x.csv
[ -e x.csv ] && fail "an error left a trace file behind"
expect_error "no process matches" "$MW" record --pgrep 'no-such-process-[x]yz' --out x.csv
expect_error "--interval '10': expected a positive duration" "$MW" record --interval 10 --pid $$
expect_error "--interval 'infms': expected a positive duration" "$MW" record --interval infms --pid $$
expect_error "--interval '61m': expected a positive duration" "$MW" record --interval 61m --pid $$
expect_error "exactly one of" "$MW" record --out x.csv
expect_error "unknown option '--bogus'" "$MW" summarize --bogus x.csv

# clear_refs of another user's process cannot be written: as root, record a
# root process as 'nobody'; otherwise record PID 1.
if [ "$(id -u)" = 0 ]; then
  sleep 5 & victim=$!
  cd /tmp
  expect_error "clear_refs: cannot reset the peak: Permission denied" \
    setpriv --reuid=nobody --regid=nogroup --clear-groups "$MW" record --pid $victim --out /dev/null
  setpriv --reuid=nobody --regid=nogroup --clear-groups "$MW" record --pid $victim --no-reset \
    --interval 20ms --out - >"$T/nr.csv" & mw=$!
  sleep 0.3; kill $victim; wait $mw || fail "--no-reset record failed"
  cd "$T"
else
  expect_error "clear_refs: cannot reset the peak" "$MW" record --pid 1 --out /dev/null
  "$MW" record --pid 1 --no-reset --interval 20ms --out nr.csv & mw=$!
  sleep 0.3; kill $mw; wait $mw
fi
csv_valid nr.csv
grep -q ',sampled,' nr.csv || fail "--no-reset rows must say their peaks are sampled"
ok "--no-reset records sampled peaks"

printf 'unix_s,mono_s,kind,phase,pid,nproc,rss_kb,anon_kb,file_kb,shmem_kb,hwm_kb,peak_kind,cg_current_kb,cg_peak_kb,gpu_kb,gpu_dev_kb\n' >bad.csv
printf '1.0,1.0,total,a,1,1,10,5,5,0,10,exact,,,,\n' >>bad.csv
printf '2.0,2.0,total,a,1,1,10,5\n' >>bad.csv
expect_error "bad.csv:3: expected 16 fields, found 8" "$MW" summarize bad.csv
sed -i '3d' bad.csv; printf '2.0,2.0,total,a,1,1,ten,5,5,0,10,exact,,,,\n' >>bad.csv
expect_error "bad.csv:3: rss_kb is not a count: 'ten'" "$MW" summarize bad.csv
sed -i '3d' bad.csv; printf 'nan,2.0,total,a,1,1,10,5,5,0,10,exact,,,,\n' >>bad.csv
expect_error "bad.csv:3: unix_s is not a number: 'nan'" "$MW" plot bad.csv -o x.svg
printf 'a,b\n1,2\n' >notrace.csv
expect_error "notrace.csv:1: not a memwatch trace" "$MW" plot notrace.csv -o x.svg
printf 'unix_s,mono_s,kind,phase,pid,nproc,rss_kb,anon_kb,file_kb,shmem_kb,hwm_kb,peak_kind,cg_current_kb,cg_peak_kb,gpu_kb,gpu_dev_kb\n1.0,1.0,total,a' >cut.csv
expect_error "cut.csv:2: last row is incomplete" "$MW" summarize cut.csv
expect_error "--thresholds: bounds must rise" "$MW" summarize cut.csv --thresholds a:5,b:2
