#!/usr/bin/env python3
"""Vectorised NumPy reference of the DP-DGT paper's Fig. 4 sweep (Sec. 6.2):
DP-DGT (Huo et al., Algorithm 1, compact form (13)) on the IEEE 14-bus
economic dispatch, for every noise scale θ_0 in the sweep, R independent
runs batched along the first axis of every array, K iterations each; it
reports E‖w_K − w*‖² per θ_0 and the time taken.

The problem is read from dpsim's run export of the preset (the pinned
scenario: the pull matrix R and push matrix C as entries, the generators,
the demands), so both implementations run exactly the same instance:

    go run ./cmd/dpsim run --quiet --out export.json preset:dpdgt-ieee14

One iteration, for all runs at once (rows = runs, columns = buses):

    ξ, ζ ~ Lap(θ_0·q_θ^k)              (R × N draws each)
    s'  = (1−γ)s + γ(s+ξ)Cᵀ − α_k(w − d)
    w̃'  = (1−φ)w̃ + φ(w̃+ζ)Rᵀ + (s' − s)
    w'  = clip((w̃' − b)/(2a), lo, hi) on generator buses, 0 elsewhere

Usage: numpy_fig4.py EXPORT.json [--runs R] [--iters K] [--thetas a,b,…]
       [--seed S]
Prints one line per θ_0 ("theta <θ_0> mean <E‖w−w*‖²> sem <s.e.m.>") and a
last line "numpy_total_s <seconds> run_iters <R·K·points> us_per_run_iter <µs>".
NumPy: Debian's python3-numpy for /usr/bin/python3
(apt-get install -y python3-numpy); PyPI is not needed.
"""
import argparse
import json
import time

import numpy as np


def matrix(sec, n):
    """Dense matrix from a pinned weights section (entries or matrix)."""
    if sec["kind"] == "matrix":
        return np.array(sec["matrix"], dtype=float)
    m = np.zeros((n, n))
    for i, j, v in sec["entries"]:
        m[int(i), int(j)] = v
    return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("export")
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--iters", type=int, default=1500)
    ap.add_argument("--thetas", default=",".join("%g" % (0.01 * i) for i in range(11)))
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()

    sc = json.load(open(a.export))["scenario"]
    n = sc["graph"]["n"]
    R = matrix(sc["weights"]["pull"], n)
    C = matrix(sc["weights"]["push"], n)
    prob = sc["problem"]["params"]
    d = np.array(prob["demands"], dtype=float)
    gen = np.zeros(n, dtype=bool)
    twoA, b, lo, hi = np.ones(n), np.zeros(n), np.zeros(n), np.zeros(n)
    for g in prob["generators"]:
        i = g["agent"]
        gen[i], twoA[i], b[i], lo[i], hi[i] = True, 2 * g["a"], g["b"], g["min"], g["max"]
    p = sc["algorithm"]["params"]
    a0, q = p["alpha"]["c"], p["alpha"]["r"]
    gamma, phi = p["gamma"], p["phi"]
    qxi = sc["noise"]["xi"]["decay"]["r"]
    qze = sc["noise"]["zeta"]["decay"]["r"]

    # Central optimum: equal marginal costs (every box is inactive in the
    # IEEE case; checked below).
    lam = (d.sum() + (b[gen] / twoA[gen]).sum()) / (1 / twoA[gen]).sum()
    wstar = np.where(gen, np.clip((lam - b) / twoA, lo, hi), 0.0)
    assert abs(wstar.sum() - d.sum()) < 1e-9

    rng = np.random.default_rng(a.seed)
    Ct, Rt = C.T.copy(), R.T.copy()
    thetas = [float(t) for t in a.thetas.split(",")]
    t0 = time.perf_counter()
    for th in thetas:
        s = np.zeros((a.runs, n))
        wt = np.zeros((a.runs, n))
        w = np.zeros((a.runs, n))
        for k in range(a.iters):
            alpha = a0 * q ** k
            if th > 0:
                xi = rng.laplace(0.0, th * qxi ** k, size=(a.runs, n))
                ze = rng.laplace(0.0, th * qze ** k, size=(a.runs, n))
                mixS = (s + xi) @ Ct
                mixW = (wt + ze) @ Rt
            else:
                mixS = s @ Ct
                mixW = wt @ Rt
            s1 = (1 - gamma) * s + gamma * mixS - alpha * (w - d)
            wt = (1 - phi) * wt + phi * mixW + (s1 - s)
            s = s1
            w = np.where(gen, np.clip((wt - b) / twoA, lo, hi), 0.0)
        err = ((w - wstar) ** 2).sum(axis=1)
        print("theta %g mean %.6g sem %.3g" % (th, err.mean(), err.std(ddof=1) / np.sqrt(a.runs) if a.runs > 1 else 0), flush=True)
    dt = time.perf_counter() - t0
    ri = a.runs * a.iters * len(thetas)
    print("numpy_total_s %.3f run_iters %d us_per_run_iter %.4f" % (dt, ri, dt / ri * 1e6), flush=True)


if __name__ == "__main__":
    main()
