"""Replays an LDP online export (Chen and Wang, local differential
privacy for decentralized online stochastic optimization, Algorithm 1,
lines 4–7) without dpsim: rendezvous costs f_i(θ) = ‖θ − a_i‖² (a problem
that serves no samples, so g_t^i = ∇f_i(θ_t^i)), the pinned
Laplacian-type W (w_ii = −Σ_j w_ij) and initial θ, and the recorded
Laplace draws of ϑ (noise.theta, per-agent scales and decays).

    python3 ldp.py EXPORT.json
"""
import sys

import numpy as np

import export as ex


def main(path):
    e, sc = ex.open_export(path, "ldp-online", "rendezvous")
    p = sc["algorithm"]["params"]
    W = ex.weights(sc)
    n = W.shape[0]
    Wo = W - np.diag(np.diag(W))
    a = ex.rows(sc["problem"]["params"]["targets"])
    theta = ex.rows(sc["init"]["x"])
    lam0, v = p.get("lambda0", 1), p.get("v", 0.71)
    noise = ex.Noise(sc["noise"]["theta"], n)
    chk = ex.Checker(e, "ldp-online")
    chk.at(0, x=theta)
    for t in range(e["iterations_run"]):
        y = theta + noise.agents(theta.shape[1], t)         # line 7: y_t^i = θ_t^i + ϑ_t^i
        g = 2 * (theta - a)                                  # line 4: g_t^i
        lam = lam0 / (t + 1) ** v                            # λ_t = λ_0/(t+1)^v
        # line 6: θ_{t+1}^i = θ_t^i + Σ_{j∈N_i} w_ij (y_t^j − θ_t^i) − λ_t g_t^i
        theta = theta + Wo @ y - Wo.sum(axis=1, keepdims=True) * theta - lam * g
        chk.at(t + 1, x=theta)
    chk.done()


if __name__ == "__main__":
    main(sys.argv[1])
