#!/bin/bash
# Ends cleanly: target exiting mid-run, the command's exit status, SIGTERM,
# markers through a FIFO and a log, --per-process, --pss, --live.
. "$(dirname "$0")/lib.sh"

sleep 0.6 & victim=$!
"$MW" record --pid $victim --interval 20ms --out pid.csv || fail "--pid: exit $?"
csv_valid pid.csv
[ "$(grep -c ',total,' pid.csv)" -ge 5 ] || fail "--pid: too few samples"
ok "target exiting mid-run: $(grep -c ',total,' pid.csv) whole rows"

"$MW" record --out st.csv -- sh -c 'exit 7'; rc=$?
[ $rc = 7 ] || fail "exit status $rc, want the command's 7"
"$MW" record --out st.csv -- sh -c 'kill -9 $$'; rc=$?
[ $rc = 137 ] || fail "exit status $rc, want 137 for SIGKILL"
expect_error "cannot run 'no-such-cmd-xyz'" "$MW" record --out st.csv -- no-such-cmd-xyz
[ "$(cat /dev/null; "$MW" record --out st.csv -- no-such-cmd-xyz 2>/dev/null; echo $?)" = 127 ] || fail "exec failure must exit 127"
ok "exit status passed through"

"$MW" record --interval 10ms --out term.csv -- sleep 30 & mw=$!
sleep 0.5; kill -TERM $mw; wait $mw; rc=$?
[ $rc = 143 ] || fail "after SIGTERM: exit $rc, want 143 (sleep killed by the forwarded TERM)"
csv_valid term.csv
pgrep -x -f 'sleep 30' >/dev/null && fail "SIGTERM was not forwarded to the command"
ok "SIGTERM: flushed $(grep -c ',total,' term.csv) rows, forwarded"

mkfifo fifo
"$MW" record --interval 1s --mark-file fifo --out fifo.csv -- \
  sh -c 'echo one >"$MEMWATCH_MARK_FILE"; sleep 0.3; echo two >"$MEMWATCH_MARK_FILE"; sleep 0.3' \
  || fail "fifo record"
csv_valid fifo.csv
for p in one two; do grep -q ",total,$p," fifo.csv || fail "FIFO marker '$p' missing"; done
ok "FIFO markers"

"$MW" record --interval 1s --mark-log app.log --mark-regex 'PHASE=([a-z]+)' --out log.csv -- \
  sh -c 'echo "x PHASE=load y" >>app.log; sleep 0.3; echo noise >>app.log; echo "PHASE=prove" >>app.log; sleep 0.3' \
  || fail "log record"
"$MW" summarize log.csv >log.txt || fail "summarize log"
grep -q '^[0-9]* *load ' log.txt && grep -q '^[0-9]* *prove ' log.txt || { cat log.txt; fail "log markers missing"; }
ok "log markers"

"$MW" record --interval 20ms --per-process --pss 100ms --live --out pp.csv -- sh -c 'sleep 0.3 & sleep 0.4; wait' 2>live.txt \
  || fail "per-process record"
csv_valid pp.csv
grep -q ',proc,' pp.csv || fail "no proc rows"
awk -F, '$3=="total" && $22!="" && $23!=""{f=1} END{exit !f}' pp.csv || fail "no PSS read recorded"
grep -q 'rss .*peak' live.txt || fail "--live printed no status"
ok "per-process rows, PSS with timing, live status"
