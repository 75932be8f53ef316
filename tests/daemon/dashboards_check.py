"""Checks the Grafana dashboard and the Prometheus alert rules of deploy/
against what a running g16d exports.

usage: dashboards_check.py SCRAPE.txt DASHBOARD.json RULES.yml

SCRAPE.txt is /metrics of a g16d (a fleet host with a key loaded, so every
family has series).  Fails, one line per problem, when
  - the dashboard or the rules are not the shape Grafana or Prometheus
    read (panels with typed targets and an expr; groups of rules each with
    an alert name, an expr and a severity);
  - an expression names a g16d_ metric the daemon does not export, or
    matches a label value (label="value") no series of it has;
  - an expression's brackets do not balance;
  - the dashboard leaves out one of the families it is for (proof rate,
    failures, queue depth, stage time, budget, GPU memory, fleet leases).
"""
import json
import re
import sys

import yaml

# Series g16d exports only on some hosts: the process's GPU memory needs
# NVML (a GPU machine), which the CI machine does not have.
CONDITIONAL = {("g16d_memory_bytes", "kind", "gpu")}
# Names that are not g16d's: Prometheus's own per-target series.
FOREIGN = {"up"}
REQUIRED_IN_DASHBOARD = [
    "g16d_proofs_total", "g16d_jobs_submitted_total", "g16d_queue_depth",
    "g16d_stage_duration_seconds_sum", "g16d_stage_duration_seconds_bucket",
    "g16d_busy_workers", "g16d_budget_bytes", "g16d_memory_bytes",
    "g16d_device_budget_bytes", "g16d_key_device_bytes", "g16d_fleet_queue_partitions",
    "g16d_fleet_claims_total", "g16d_fleet_results_total",
]

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+\S+$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"')
SELECTOR = re.compile(r'\b([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?')

problems = []


def scrape(path):
    series = {}
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            problems.append(f"{path}: not a sample line: {line}")
            continue
        labels = series.setdefault(m.group(1), {})
        for name, _, value in LABEL.findall(m.group(2) or ""):
            labels.setdefault(name, set()).add(value)
    return series


def balanced(expr):
    depth = {"(": 0, "{": 0, "[": 0}
    close = {")": "(", "}": "{", "]": "["}
    for ch in re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr):
        if ch in depth:
            depth[ch] += 1
        elif ch in close:
            depth[close[ch]] -= 1
            if depth[close[ch]] < 0:
                return False
    return all(v == 0 for v in depth.values())


def check_expr(where, expr, series, used):
    if not balanced(expr):
        problems.append(f"{where}: unbalanced brackets: {expr}")
    for name, matchers in SELECTOR.findall(re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)):
        if not name.startswith("g16d_"):
            continue
        used.add(name)
        if name not in series:
            problems.append(f"{where}: {name} is not exported by g16d")
            continue
    # label values, from the expression with its strings intact
    for m in re.finditer(r'\b(g16d_[a-zA-Z0-9_:]*)\s*\{([^}]*)\}', expr):
        name = m.group(1)
        for label, op, value in LABEL.findall(m.group(2)):
            if op != "=" or name not in series or (name, label, value) in CONDITIONAL:
                continue
            if value not in series[name].get(label, set()):
                problems.append(f'{where}: no series {name}{{{label}="{value}"}} in the scrape')
    for name in re.findall(r'\b([a-zA-Z_][a-zA-Z0-9_]*)\s*\{', expr):
        if not name.startswith("g16d_") and name not in FOREIGN:
            problems.append(f"{where}: {name} is neither g16d's nor Prometheus's own")


def check_dashboard(path, series):
    d = json.load(open(path))
    used = set()
    for key in ("uid", "title", "panels", "templating"):
        if key not in d:
            problems.append(f"{path}: no {key}")
    ids = set()
    panels = [p for p in d.get("panels", []) if p.get("type") != "row"]
    for p in panels:
        where = f"{path}: panel '{p.get('title')}'"
        if p.get("id") in ids:
            problems.append(f"{where}: id {p.get('id')} used twice")
        ids.add(p.get("id"))
        if not p.get("targets"):
            problems.append(f"{where}: no targets")
        for t in p.get("targets", []):
            if not t.get("expr") or not t.get("refId"):
                problems.append(f"{where}: a target without expr or refId")
                continue
            check_expr(where, t["expr"], series, used)
    for var in d.get("templating", {}).get("list", []):
        q = var.get("definition")
        if q:
            check_expr(f"{path}: variable {var.get('name')}", q, series, used)
    for name in REQUIRED_IN_DASHBOARD:
        if name not in used:
            problems.append(f"{path}: no panel shows {name}")
    return len(panels), len(used)


def check_rules(path, series):
    doc = yaml.safe_load(open(path))
    used = set()
    n = 0
    for g in doc.get("groups", []):
        if not g.get("name") or not g.get("rules"):
            problems.append(f"{path}: a group without a name or rules")
        for r in g.get("rules", []):
            n += 1
            where = f"{path}: alert {r.get('alert')}"
            if not r.get("alert") or not isinstance(r.get("expr"), str):
                problems.append(f"{where}: no alert name or expr")
                continue
            if r.get("labels", {}).get("severity") not in ("critical", "warning", "info"):
                problems.append(f"{where}: severity is not critical, warning or info")
            if not r.get("annotations", {}).get("summary"):
                problems.append(f"{where}: no summary")
            if "for" in r and not re.fullmatch(r"\d+[smhd]", str(r["for"])):
                problems.append(f"{where}: for: {r['for']} is not a duration")
            check_expr(where, r["expr"], series, used)
    if n == 0:
        problems.append(f"{path}: no rules")
    return n, len(used)


def main():
    series = scrape(sys.argv[1])
    panels, dnames = check_dashboard(sys.argv[2], series)
    rules, rnames = check_rules(sys.argv[3], series)
    for p in problems:
        print("FAIL:", p)
    if problems:
        return 1
    print(f"-- {panels} panels ({dnames} metrics) and {rules} alert rules ({rnames} metrics), "
          f"all in the scrape of {len(series)} series names")
    return 0


sys.exit(main())
