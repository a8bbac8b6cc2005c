#!/usr/bin/env python3
"""Vectorised NumPy reference of one DPP² iteration (Ou, Wang, Liu & Lu,
Algorithm 1 with the spec's fixes, eqs. (16)–(19)), on the problem dpsim's
BenchmarkIteration runs: P (N = 50, RGG(50, 0.3), I − W_MH), α, β, ρ and the
noise scales are read from dpsim's pinned export of the dpp2-classifier
preset; η^k is drawn in (0, 1) every iteration.

    y = x + (1 − η)d + w                 (16)   round 0
    a = P y
    z = ∇F(x) + η q + ρ a + e            (17)   round 1
    x ← x + w − α(z − e) + β P z         (18)
    d ← η d + y,  q ← η q + ρ a          (19)

--problem classifier: ∇f_i of the nonconvex classifier with m = 200 samples
of d = 10 features per agent, as two batched einsums over an (N, m, d)
array and one exp over N·m margins (the data are drawn here with the same
shapes and feature scale s = 3.6; their values do not change the cost).
--problem quadratic: ∇f_i = 2(x_i − a_i), so the update alone is timed
(dpsim's rgg50-update).

Usage: numpy_iteration.py EXPORT.json [--problem classifier|quadratic] [--iters N] [--rounds R] [--cpu]
Prints one line per round: "numpy_us_per_iter <µs>" (--cpu: the process's
CPU time, every thread's, in place of wall time; bench/dpp2/cputime.sh).
NumPy: Debian's python3-numpy for /usr/bin/python3.
"""
import argparse
import json
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("export")
    ap.add_argument("--problem", default="classifier", choices=["classifier", "quadratic"])
    ap.add_argument("--iters", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--cpu", action="store_true", help="time with the process's CPU time, not wall time")
    a = ap.parse_args()
    sc = json.load(open(a.export))["scenario"]
    n = sc["graph"]["n"]
    P = np.zeros((n, n))
    for i, j, v in sc["weights"]["entries"]:
        P[int(i), int(j)] = v
    pp = sc["problem"]["params"]
    d, m, lam, om, s = pp["dim"], pp["samples"], pp["lambda"], pp["omega"], pp["scale"]
    ap_ = sc["algorithm"]["params"]
    alpha, beta, rho = ap_["alpha"], ap_["beta"], ap_["rho"]
    uw, ue = sc["noise"]["w"]["scale"], sc["noise"]["e"]["scale"]
    r = sc["noise"]["w"]["decay"]["r"]
    rng = np.random.default_rng(7)
    Z = s * rng.standard_normal((n, m, d))
    Y = rng.choice([-1.0, 1.0], size=(n, m))
    YZ = Y[:, :, None] * Z  # y_is·z_is, once
    A = rng.standard_normal((n, d))

    if a.problem == "classifier":
        def grad(X):
            t = np.einsum("nmd,nd->nm", YZ, X)  # y·xᵀz
            c = -1.0 / (1.0 + np.exp(t))          # −σ(−t)
            g = np.einsum("nm,nmd->nd", c, YZ) / m
            q = 1.0 + om * X * X
            return g + 2.0 * lam * om * X / (q * q)
    else:
        def grad(X):
            return 2.0 * (X - A)

    clock = time.process_time if a.cpu else time.perf_counter
    for _ in range(a.rounds):
        X = np.zeros((n, d))
        D = np.zeros((n, d))
        Q = np.zeros((n, d))
        t0 = clock()
        for k in range(a.iters):
            eta = rng.random()
            sc_k = r ** k
            W = rng.laplace(0.0, uw * sc_k, size=(n, d))
            E = rng.laplace(0.0, ue * sc_k, size=(n, d))
            Yk = X + (1.0 - eta) * D + W
            Ak = P @ Yk
            Zc = grad(X) + eta * Q + rho * Ak
            Zk = Zc + E
            X = X + W - alpha * Zc + beta * (P @ Zk)
            D = eta * D + Yk
            Q = eta * Q + rho * Ak
        dt = clock() - t0
        print("numpy_us_per_iter %.3f" % (dt / a.iters * 1e6), flush=True)


if __name__ == "__main__":
    main()
