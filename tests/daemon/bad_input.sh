#!/bin/bash
# Bad input gets a clear 4xx while a good job keeps running and finishes:
# malformed JSON, unknown key, corrupt witness, wrong curve, wrong size,
# a 1 GB body (refused from its headers, never buffered), paths outside
# --allow-dir (absolute, .., symlink), a relative key path, unknown
# endpoints and methods.
source "$(dirname "$0")/lib.sh"
start_daemon --memory-budget 1G --synth-workers 1
D=$FIX/bn128/chain
client keys load chain "$D/circuit.zkey" >/dev/null
ws=(); for i in $(seq 30); do ws+=("$D/witness.wtns"); done
good=$(client prove --key chain "${ws[@]}")
expect 409 "unfinished" DELETE /v1/keys/chain   # the good job needs it
expect 400 "malformed JSON" POST /v1/proofs '{"key": "chain", "witnesses": ['
expect 400 "expected" POST /v1/proofs '[1, 2]'
expect 400 "witnesses" POST /v1/proofs '{"key": "chain", "witnesses": []}'
expect 404 "no key named" POST /v1/proofs "{\"key\": \"nope\", \"witnesses\": [\"$D/witness.wtns\"]}"
head -c 5000 "$D/witness.wtns" >"$T/trunc.wtns"
expect 400 "witness 0" POST /v1/proofs "{\"key\": \"chain\", \"witnesses\": [\"$T/trunc.wtns\"]}"
expect 400 "bad magic" POST /v1/proofs "{\"key\": \"chain\", \"witnesses\": [\"$D/circuit.r1cs\"]}"
expect 400 "bls12381" POST /v1/proofs "{\"key\": \"chain\", \"witnesses\": [\"$FIX/bls12381/chain/witness.wtns\"]}"
expect 400 "values" POST /v1/proofs "{\"key\": \"chain\", \"witnesses\": [\"$FIX/bn128/multiplier/witness.wtns\"]}"
expect 400 "base64" POST /v1/proofs '{"key": "chain", "witnesses": ["not base64 !!"]}'
expect 400 "witness 1" POST /v1/proofs "{\"key\": \"chain\", \"witnesses\": [\"$D/witness.wtns\", \"d3RuczIAAAAB\"]}"
expect 403 "allowed" POST /v1/proofs '{"key": "chain", "witnesses": ["/etc/hostname"]}'
ln -s /etc "$T/etc"
expect 403 "allowed" POST /v1/proofs "{\"key\": \"chain\", \"witnesses\": [\"$T/etc/hostname\"]}"
expect 403 "allowed" POST /v1/keys '{"name": "x", "path": "/etc/hostname"}'
expect 404 "no such file" POST /v1/proofs "{\"key\": \"chain\", \"witnesses\": [\"$T/missing.wtns\"]}"
expect 400 "absolute" POST /v1/keys '{"name": "r", "path": "circuit.zkey"}'   # as witness paths
expect 400 "names" POST /v1/keys "{\"name\": \"../x\", \"path\": \"$D/circuit.zkey\"}"
expect 400 "not a zkey" POST /v1/keys "{\"name\": \"w\", \"path\": \"$D/witness.wtns\"}"
expect 404 "no job" GET /v1/proofs/0123456789abcdef
expect 404 "no such endpoint" GET /v2/anything
expect 405 "not allowed" PUT /v1/proofs
# 1 GB (sparse: no disk) streamed with its Content-Length: refused at once,
# the daemon's memory does not move.
truncate -s 1G "$T/big.bin"
before=$(rss_kb)
t0=$(date +%s%N)
got=$(api -o "$T/last.json" -w '%{http_code}' -X POST -T "$T/big.bin" http://d/v1/proofs || true)
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$got" = 413 ] || fail "1 GB body: status $got, wanted 413"
[ "$ms" -lt 5000 ] || fail "1 GB body took $ms ms to refuse (was it read?)"
[ $(( $(rss_kb) - before )) -lt 16384 ] || fail "1 GB body grew RSS by $(( $(rss_kb) - before )) KiB"
note "413 for 1 GB in $ms ms: $(cat "$T/last.json")"
client wait "$good" --timeout 300 --out "$T/good" >/dev/null || fail "the good job did not survive the bad input"
verify_dir "$D/verification_key.json" "$T/good" 30
[ "$(client status | js o.proofs.failed)" = 0 ] || fail "a partition failed"
stop_daemon
