#!/usr/bin/env python3
"""The 2^27 model: GPU time, device and host memory of a proof, fitted to
the measured H100 runs in bench/RESULTS.md (gpu, 2026-12-07), and what a
32 GiB PoRep proof (10 partitions of 2^27 on BLS12-381) would take.

Usage: python3 bench/gpu/model.py   (no arguments; prints Markdown)

Time: a power law t = a * n^p per curve, fitted by least squares in log
space to the key-resident proofs (the MSMs dominate and grow a little
faster than n: chunked passes repeat the bucket sums).  A streamed key
also moves its points over the link every proof: the model takes the
larger of the compute time and the copy time at the rate the streamed
runs reached (the copies overlap the work; a run is never faster than
either).  Device memory: the plan's figures (gpu_plan_bytes,
docs/gpu-notes.md), which the measured peaks stayed under by 0-6%.
Host memory: the measured VmHWM less the key file and, when streamed,
the pinned points, scaled linearly in n.  g16 prove maps the key file and
its pages count in VmHWM while the key loads; they are file cache the
kernel may drop, so "held" (pinned points and the proof's own buffers) is
what a daemon keeps for the key and a partition after the load."""
import math

GIB = 1 << 30

# Measured on the H100 (one device call a row; bench/RESULTS.md).
# (curve, log2 n, seconds a proof, key resident?)
RUNS = [
    ("bn254", 24, 0.233, True),
    ("bn254", 25, 0.453, True),
    ("bn254", 26, 0.931, True),      # 23:04, chunked path without add kernels
    ("bls12_381", 24, 0.40, True),   # issue 39's run on the same H100 kind
    ("bls12_381", 26, 1.790, True),  # 23:04, likewise
]
# Not in the fit: the runs between b5cabe1 and 4ec2977 (2026-12-07
# 14:36-21:33, H100), whose chunked path cost twice the whole MSM a point
# (BLS12-381 2^26 2.70 s resident, 2.68 s streamed).
# A 10-partition job through g16d under load against ten `g16 prove`
# proofs of the same key (2^26 BLS12-381, streamed, H100, 2026-12-07
# 23:17: three jobs in 53.22 s against 10 x 1.780 s): the daemon's
# hand-offs and witness reads hide behind the GPU's time.
DAEMON_JOB_FACTOR = 53.22 / 3 / (10 * 1.780)
# Streamed runs: bytes of points a proof crossed the link with, seconds.
STREAMED = [
    ("bn254", 24, 6.44e9, 0.780),
    ("bn254", 25, 12.9e9, 0.648),
    ("bn254", 26, 25.8e9, 1.027),
    ("bls12_381", 26, 38.7e9, 1.780),
]
H2D_PINNED = 55.5e9  # bench_gpu BENCH_ONLY=h2d, same H100
# Points a proof streams: four G1 MSMs and one G2 MSM, affine.
POINT_BYTES = {"bn254": 4 * 64 + 128, "bls12_381": 4 * 96 + 192}
# The plan's device figures at 2^27 (docs/gpu-notes.md, budget = device
# less 1/32): (mode, GiB).
PLAN_2_27 = {
    ("bn254", "H100"): ("streamed, chunks of 2^23", 74.6),
    ("bn254", "H200"): ("resident, chunks of 2^24", 132.5),
    ("bls12_381", "H100"): ("streamed, chunks of 2^22", 64.7),
    ("bls12_381", "H200"): ("resident, chunks of 2^22", 132.2),
}
# Host: VmHWM of BN254 2^24 (MiB), resident 10282 and streamed 16426,
# with a key file of ~8 GiB: the rest (witness, a/b/c, buffers) ~2 GiB
# at 2^24, linear in n.
HOST_REST_2_24 = (10282 * 2**20 - 8 * GIB) / GIB
KEY_GIB_2_27 = {"bn254": 64.0, "bls12_381": 96.0}
# The anchor (one RTX 5070 Ti, 96 cores): GPU seconds a 2^27 partition,
# a 10-partition proof alone, and a proof under sustained load.
ANCHOR = (1.8, 32.0, 37.7)


def fit(curve):
    pts = [(n, math.log2(t)) for c, n, t, res in RUNS if c == curve and res]
    k = len(pts)
    mx = sum(n for n, _ in pts) / k
    my = sum(y for _, y in pts) / k
    p = sum((n - mx) * (y - my) for n, y in pts) / sum((n - mx) ** 2 for n, _ in pts)
    return p, my - p * mx  # log2 t = p * log2 n + b


def streamed_rate():
    # The best rate a copy-bound streamed run reached (bytes / s).
    return max(b / t for _, _, b, t in STREAMED)


def main():
    print("| curve | exponent p | fitted 2^26 | measured 2^26 | 2^27 compute |")
    print("|---|---|---|---|---|")
    pred = {}
    for curve in ("bn254", "bls12_381"):
        p, b = fit(curve)
        meas = [t for c, n, t, _ in RUNS if c == curve and n == 26][0]
        pred[curve] = 2 ** (p * 27 + b)
        print(f"| {curve} | {p:.3f} | {2 ** (p * 26 + b):.3f} s | {meas:.3f} s | {pred[curve]:.2f} s |")
    rate = streamed_rate()
    print()
    print(f"Link: {H2D_PINNED / 1e9:.1f} GB/s pinned (measured); streamed runs "
          f"reached at most {rate / 1e9:.1f} GB/s ({100 * rate / H2D_PINNED:.0f}%).")
    print()
    print("| 2^27 | device | mode (plan) | device GiB | copy s | proof s | host VmHWM of g16 prove, GiB | host held, GiB | 10 partitions | g16d job of 10 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for curve in ("bn254", "bls12_381"):
        for dev in ("H100", "H200"):
            mode, gib = PLAN_2_27[(curve, dev)]
            streamed = mode.startswith("streamed")
            copy = (2 ** 27 * POINT_BYTES[curve] / rate) if streamed else 0.0
            t = max(pred[curve], copy)
            held = HOST_REST_2_24 * 8
            if streamed:
                held += 2 ** 27 * POINT_BYTES[curve] / GIB
            vmhwm = held + KEY_GIB_2_27[curve]
            print(f"| {curve} | {dev} | {mode} | {gib:.1f} | {copy:.2f} | {t:.2f} | "
                  f"{vmhwm:.0f} | {held:.0f} | {10 * t:.1f} s | "
                  f"{10 * t * DAEMON_JOB_FACTOR:.1f} s |")
    print()
    print(f"Anchor (RTX 5070 Ti): {ANCHOR[0]} s a 2^27 partition, {ANCHOR[1]} s a "
          f"10-partition proof alone, {ANCHOR[2]} s under load.")


if __name__ == "__main__":
    main()
