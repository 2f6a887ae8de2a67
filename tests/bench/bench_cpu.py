"""How fast this machine runs plain Python, to scale the figures to a Raspberry Pi.

The n-body simulation (the Computer Language Benchmarks Game's algorithm, as in pyperformance's
bm_nbody): microseconds per step here, single thread. A published run of the same algorithm
in Python on a Raspberry Pi 4 (Cortex-A72, 1.5 GHz) took 158.3 s for 5,000,000 steps
(31.7 us/step; chaitanyamehta.github.io, "Performance Analysis of Languages on Raspberry Pi").
From the Pi 4 to a Pi Zero 2 W (Cortex-A53, 1.0 GHz): 1.5x for the clock and ~1.5-2x for the
A53's in-order core against the A72 (ARM's Dhrystone figures: ~2.3 against ~4.7 DMIPS/MHz;
an interpreter gains less from the A72 than Dhrystone does), so 2.2-3x. All of it is an
estimate: the Pi 4 run's Python version is not stated (an older CPython is slower than 3.11).
"""

from __future__ import annotations

import json
import time

import common

PI4_US_PER_STEP = 158.393e6 / 5_000_000         # published: 31.7 us a step
PI4_TO_ZERO2W = (2.2, 3.0)                       # clock x IPC, estimated (see above)

PI = 3.14159265358979323
SOLAR_MASS = 4 * PI * PI
DAYS_PER_YEAR = 365.24


def bodies() -> list:
    return [
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], SOLAR_MASS),
        ([4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
         [1.66007664274403694e-03 * DAYS_PER_YEAR, 7.69901118419740425e-03 * DAYS_PER_YEAR,
          -6.90460016972063023e-05 * DAYS_PER_YEAR], 9.54791938424326609e-04 * SOLAR_MASS),
        ([8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
         [-2.76742510726862411e-03 * DAYS_PER_YEAR, 4.99852801234917238e-03 * DAYS_PER_YEAR,
          2.30417297573763929e-05 * DAYS_PER_YEAR], 2.85885980666130812e-04 * SOLAR_MASS),
        ([1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
         [2.96460137564761618e-03 * DAYS_PER_YEAR, 2.37847173959480950e-03 * DAYS_PER_YEAR,
          -2.96589568540237556e-05 * DAYS_PER_YEAR], 4.36624404335156298e-05 * SOLAR_MASS),
        ([1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
         [2.68067772490389322e-03 * DAYS_PER_YEAR, 1.62824170038242295e-03 * DAYS_PER_YEAR,
          -9.51592254519715870e-05 * DAYS_PER_YEAR], 5.15138902046611451e-05 * SOLAR_MASS),
    ]


def advance(dt: float, n: int, system: list) -> None:
    pairs = [(system[i], system[j]) for i in range(len(system))
             for j in range(i + 1, len(system))]
    for _ in range(n):
        for ([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2) in pairs:
            dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** -1.5)
            b1m, b2m = m1 * mag, m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for (r, [vx, vy, vz], _m) in system:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz


def run(quick: bool = False) -> dict:
    steps = 50_000 if quick else 100_000
    runs = 3 if quick else 5
    per_step = []
    for _ in range(runs):
        system = bodies()
        start = time.perf_counter()
        advance(0.01, steps, system)
        per_step.append((time.perf_counter() - start) / steps)
    here = common.percentile(per_step, 50)
    pi4 = PI4_US_PER_STEP / (here * 1e6)
    return {
        "nbody_us_per_step": common.summary(per_step, 1e6),
        "pi4_published_us_per_step": round(PI4_US_PER_STEP, 1),
        "pi4_slower_by": round(pi4, 1),
        "pi_zero_2w_slower_by": [round(pi4 * PI4_TO_ZERO2W[0], 1),
                                 round(pi4 * PI4_TO_ZERO2W[1], 1)],
    }


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
