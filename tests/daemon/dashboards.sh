#!/bin/bash
# deploy/grafana/g16d.json and deploy/prometheus/g16d-rules.yml against
# what g16d exports: a fleet host (a throwaway PostgreSQL, so the fleet's
# series are there too) with a key loaded and a proof made is scraped, and
# every metric name and matched label value the dashboard and the rules
# use must be in its /metrics (dashboards_check.py).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fleet_lib.sh"
: "${G16_SOURCE:?G16_SOURCE is not set}"
command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null ||
  fail "python3 with yaml not found (python3-yaml; make deps)"
D=$FIX/bn128/chain
start_host a --memory-budget 1G
hc a keys load chain "$D/circuit.zkey" >/dev/null
id=$(hc a prove --key chain "$D/witness.wtns")
hc a wait "$id" --timeout 60 >/dev/null || fail "the proof failed"
hapi a -f http://d/metrics >"$T/metrics.txt" || fail "GET /metrics failed"
grep -q '^g16d_fleet_claims_total ' "$T/metrics.txt" || fail "no fleet series in the scrape"
python3 "$(dirname "$0")/dashboards_check.py" "$T/metrics.txt" \
  "$G16_SOURCE/deploy/grafana/g16d.json" "$G16_SOURCE/deploy/prometheus/g16d-rules.yml" ||
  fail "the dashboard or the alert rules use what g16d does not export"
python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))["scrape_configs"][0]["job_name"] == "g16d" or sys.exit(1)' \
  "$G16_SOURCE/deploy/prometheus/scrape.yml" || fail "deploy/prometheus/scrape.yml: no g16d job"
stop_host a
