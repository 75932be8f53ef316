#!/bin/bash
# The CPU job-bytes estimate against the peak RSS of real proofs
# (test_job_bytes: the estimate covers the growth and exceeds it by at
# most its MAX_RATIO) on the largest fixture (sha256, 2^15, a mostly-bit
# witness) and synthetic 2^16 circuits of both curves (g16 synth --setup:
# bit-heavy with full-width products).  The smaller fixtures are left out
# on purpose: there the MSM's per-worker scratch for 1-scalars (2048
# buckets whatever the chunk) is most of the estimate and mostly
# untouched by a dense witness, so RSS says little about the estimate.
set -euo pipefail
: "${G16:?}" "${TEST_JOB_BYTES:?}" "${G16_FIXTURES:?}"
T=$(mktemp -d /tmp/g16jb.XXXXXX)
trap 'rm -rf "$T"' EXIT
"$G16" synth --constraints 65534 --curve bn128 --setup --out "$T/bn128" >/dev/null
"$G16" synth --constraints 65534 --curve bls12381 --setup --out "$T/bls12381" >/dev/null
"$TEST_JOB_BYTES" "$G16_FIXTURES/bn128/sha256" "$T/bn128" "$T/bls12381"
