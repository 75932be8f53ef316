#!/bin/bash
# Phases without markers: auto (plateaus and ramps) and --thresholds, on a
# made-up wave: 1 GiB idle, ramp to 5 GiB, plateau, ramp down, idle again.
. "$(dirname "$0")/lib.sh"
G=1048576
{
  echo "unix_s,mono_s,kind,phase,pid,comm,nproc,rss_kb,anon_kb,file_kb,shmem_kb,hwm_kb,peak_kind,swap_kb,lck_kb,pin_kb,threads,cg_current_kb,cg_peak_kb,gpu_kb,gpu_dev_kb,pss_kb,pss_ms,my_counter"
  awk -v G=$G 'BEGIN{
    for(i=0;i<60;i++){
      if(i<10) v=G; else if(i<20) v=G+(i-9)*0.4*G; else if(i<35) v=5*G;
      else if(i<45) v=5*G-(i-34)*0.4*G; else v=G;
      v=int(v+(i%3)*1000); h=v+(i==27?2*G:0);   # an unsampled spike at i=27
      printf "%d.0,%d.0,total,start,1,x,1,%d,%d,0,0,%d,exact,0,0,0,1,,,,,,,%d\n", 1000+i, i, v, v, (h>hw?h:hw), i
      if(h>hw) hw=h
    }}'
} >wave.csv
"$MW" summarize wave.csv >auto.txt || fail "summarize auto"
cat auto.txt
grep -q "phases from auto" auto.txt || fail "no markers: auto must be the default"
order=$(awk '/^run /{f=1;next} f&&NF==0{exit} f{print $2}' auto.txt | tr '\n' ' ')
[ "$order" = "plateau-1 ramp-up plateau-2 ramp-down plateau-1 " ] || fail "auto runs: '$order'"
"$MW" summarize wave.csv --json >auto.json || fail "json"
peak=$(json_run auto.json plateau-2 peak_kib); kind=$(json_run auto.json plateau-2 peak_kind)
[ "$peak" -ge $((7 * G)) ] && [ "$kind" = exact ] || fail "plateau-2 peak $peak $kind: the spike must count, exactly"
grep -Eq '^5 +plateau-1 .* sampled$' auto.txt || fail "idle after the spike: its peak cannot be exact"
ok "auto: $order, spike in plateau-2 exact"

"$MW" summarize wave.csv --thresholds idle:2,transition:4,busy >th.txt || fail "thresholds"
order=$(awk '/^run /{f=1;next} f&&NF==0{exit} f{print $2}' th.txt | tr '\n' ' ')
[ "$order" = "idle transition busy transition idle " ] || fail "threshold runs: '$order'"
awk '/^runs /{f=1;next} f&&$2=="idle"{print $1}' th.txt | grep -qx 2 || fail "idle totals should have 2 runs"
ok "thresholds: $order"
"$MW" summarize wave.csv --thresholds idle:2,busy:4 --json | grep -q '"phase": "above-busy"' || fail "above-NAME"
ok "extra column (my_counter) ignored"
