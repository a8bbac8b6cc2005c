#!/usr/bin/env python3
"""Vectorised NumPy reference of one GT-DP iteration (Xuan & Wang, Alg. 1,
compact form eq. 4), on exactly the problem dpsim's BenchmarkIteration/rgg50
runs: the weight matrix and the targets are read from dpsim's pinned export
of bench/gtdp/rgg50.json (N = 50, d = 10, 574 directed links), the noise is
Laplace with the same scales and decay.

    s_{k+1} = W s_k + W_o β_k η_k + γ_k ∇F(x_k)
    x_{k+1} = W x_k + W_o β_k ξ_k − α (s_{k+1} − s_k)

computed as one fused matrix product of W_o with the released vectors
[s + β_k η | x + β_k ξ] (an n × 2d array) plus the diagonal times the clean
states — the fastest NumPy form we know — and 2·n·d Laplace draws.

Usage: numpy_iteration.py EXPORT.json [--iters N] [--rounds R]
Prints one line per round: "numpy_us_per_iter <µs>".
NumPy: Debian's python3-numpy for /usr/bin/python3 (apt-get install -y
python3-numpy); PyPI is not needed.
"""
import argparse
import json
import time

import numpy as np


def weights(w, n):
    """Dense W from the export's weights section (entries or matrix)."""
    if w["kind"] == "matrix":
        return np.array(w["matrix"], dtype=float)
    m = np.zeros((n, n))
    for i, j, v in w["entries"]:
        m[int(i), int(j)] = v
    return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("export")
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=1)
    a = ap.parse_args()
    sc = json.load(open(a.export))["scenario"]
    n = sc["graph"]["n"]
    W = weights(sc["weights"], n)
    A = np.array(sc["problem"]["params"]["targets"], dtype=float)
    d = A.shape[1]
    p = sc["algorithm"]["params"]
    alpha, gamma = p["alpha"], p["gamma"]["c"]
    eta, xi = sc["noise"]["eta"], sc["noise"]["xi"]
    b, dec = eta["scale"], eta["decay"]
    assert xi["scale"] == b and xi["decay"] == dec, "the reference assumes equal channels"
    m, q = dec["m"], dec["p"]

    diag = np.diag(W).copy()[:, None]
    Wo = W - np.diagflat(diag)
    rng = np.random.default_rng(7)
    for _ in range(a.rounds):
        S = np.zeros((n, d))
        X = np.zeros((n, d))
        Z = np.empty((n, 2 * d))
        t0 = time.perf_counter()
        for k in range(a.iters):
            beta = 1.0 / (m + k) ** q
            N = rng.laplace(0.0, b * beta, size=(n, 2 * d))  # η | ξ, 2·n·d draws
            Z[:, :d] = S
            Z[:, d:] = X
            Z += N
            M = Wo @ Z
            S1 = M[:, :d] + diag * S + gamma * 2.0 * (X - A)
            X = M[:, d:] + diag * X - alpha * (S1 - S)
            S = S1
        dt = time.perf_counter() - t0
        print("numpy_us_per_iter %.3f" % (dt / a.iters * 1e6), flush=True)


if __name__ == "__main__":
    main()
