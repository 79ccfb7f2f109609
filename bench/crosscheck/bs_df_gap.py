#!/usr/bin/env python3
"""bench/crosscheck/bs_df_gap.py -- driver of the one-off cross-check bs_df_gap.c (report Fig 5.24,
issue 46 item 4 / issue 43): classifies the response of the Bliman & Sorine inertia (third DF
approach, from rest) at amplitudes in and around the second DF gap by its Poincaré samples at
t = kT, and prints −1/N of the steady state where it is period-1.

Shares no code with the project. Never part of the tests or the main job.

Result (s57 h524, 2026-12-06, rtol 1e-10, 1000 periods from rest): ω = 1.9: period-1 one-sided
(drift ≈ 4 rad/period) to 0.3570 N·m; period 3 on 0.3571…0.3579, period 2 (one-sided) on
0.3580…0.3581, no period ≤ 8 on 0.3582…0.35841 (0.35841: still creeping after 1000 periods);
period-1 two-sided from 0.358411 (−1/N = 0.2042 − 0.2881i; the transient from rest lengthening
to 27 periods towards the start: a fold). ω = 1.8: period 1 one-sided to 0.35775, then periods
3, 2, 5 and none up to 0.359125, period-1 two-sided from 0.35915 (0.1869 − 0.2674i). ω = 2.0:
one-sided to 0.35615, periods 3, 2, 5, 4 on 0.3563…0.35765, two-sided from 0.3578 (0.2027 −
0.2912i). At the project's harmonic-balance solution (ω = 1.871790, a = 0.358732) the orbit is
period-1 with −1/N = 0.1799997 − 0.2641604i, G(iω) = 0.18 − 0.264161i. Where both compute a
period-1 orbit the project's −1/N agrees to 5 digits (e.g. 0.3585 at ω = 1.9: 0.184399 −
0.269583i here, 0.1843991 − 0.2695828i there).
Usage: cc -O2 -o /tmp/bs_df_gap bench/crosscheck/bs_df_gap.c -lm
       python3 bench/crosscheck/bs_df_gap.py OMEGA A_FROM A_TO N [PERIODS] [RTOL]
Per amplitude: the period p of the Poincaré sequence of (θ', x1, x2, drift per period) over the
last 64 periods (smallest p <= 8 with every sample within 1e-4 of the one p periods earlier,
relative to fixed scales 0.01 rad/s, 0.1 N·m, 0.1 N·m, 1 rad (the integration noise at rtol
1e-10 is 1e-2 to 1e-3 of that); 'none' if no p fits: quasi-periodic, chaotic or still in a
transient), the period from which it holds (transient length), the mean drift per period, and
−1/N: per period for p = 1; for p > 1 each period's value and −1/N of the mean of N over the p
periods.
"""
import subprocess
import sys
from pathlib import Path

import numpy as np

EXE = "/tmp/bs_df_gap"


def run(a, w, periods, rtol):
    key = Path(f"/tmp/bs_df_gap_{w}_{a:.6f}_{periods}_{rtol}.txt")  # raw per-period lines, reused
    if not key.exists():
        out = subprocess.run([EXE, repr(a), repr(w), str(periods), repr(rtol)], capture_output=True, text=True, check=True)
        key.write_text(out.stdout)
    return np.loadtxt(key)


def classify(d, tol=1e-4, tail=64):
    s = d[:, [2, 3, 4, 5]]  # v, x1, x2, drift (θ itself is neutral: B&S depends on θ differences)
    scale = np.array([0.01, 0.1, 0.1, 1.0])  # rad/s, N·m, N·m, rad: integration noise is 1e-2..1e-3 of tol
    for p in range(1, 9):
        dev = np.abs(s[p:] - s[:-p]) / scale
        ok = (dev.max(axis=1) < tol)
        if ok[-tail:].all():
            bad = np.nonzero(~ok)[0]
            start = (bad[-1] + 1 + p) if len(bad) else p
            return p, start
    return None, None


def main():
    w, lo, hi, n = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    periods = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
    rtol = float(sys.argv[6]) if len(sys.argv) > 6 else 1e-10
    amps = np.linspace(lo, hi, n) if n > 1 else [lo]
    print(f"# omega {w} periods {periods} rtol {rtol}")
    print("# a  period  from_k  drift/period  -1/N (per period ...)  [-1/N of mean N]")
    for a in amps:
        d = run(float(a), w, periods, rtol)
        p, start = classify(d)
        if p is None:
            last = d[-4:, 6] + 1j * d[-4:, 7]
            print(f"{a:.6f} none - {d[-64:, 5].mean():.5f} last4 " + " ".join(f"({z.real:.5f},{z.imag:.5f})" for z in last))
            continue
        z = d[-p:, 6] + 1j * d[-p:, 7]
        drift = d[-p:, 5].mean()
        txt = " ".join(f"({x.real:.7f},{x.imag:.7f})" for x in z)
        if p > 1:
            nmean = np.mean(-1 / z)
            m = -1 / nmean
            txt += f" [mean N: ({m.real:.5f},{m.imag:.5f})]"
        print(f"{a:.6f} {p} {start} {drift:.5f} {txt}", flush=True)


if __name__ == "__main__":
    main()
