"""Replays a GT-DP export (Xuan and Wang, gradient-tracking based DP
distributed optimization, Algorithm 1, eq. (4)) without dpsim: rendezvous costs
f_i(x) = ‖x − a_i‖², the pinned graph weights and initial states, and the
recorded Laplace draws of both channels (noise.eta, noise.xi).

    python3 gtdp.py EXPORT.json
"""
import sys

import numpy as np

import export as ex


def main(path):
    e, sc = ex.open_export(path, "gt-dp", "rendezvous")
    W = ex.weights(sc)
    n = W.shape[0]
    Wo = W - np.diag(np.diag(W))
    a = ex.rows(sc["problem"]["params"]["targets"])
    x, s = ex.rows(sc["init"]["x"]), ex.rows(sc["init"]["s"])
    p = sc["algorithm"]["params"]
    alpha, gamma = p["alpha"], p["gamma"]
    eta = ex.Noise(sc["noise"]["eta"], n)
    xi = ex.Noise(sc["noise"]["xi"], n)
    d = x.shape[1]
    chk = ex.Checker(e, "gt-dp")
    chk.at(0, x=x, s=s)
    for k in range(e["iterations_run"]):
        # a) β_k η_{i,k} on s, β_k ξ_{i,k} on x (drawn in that order).
        ne, nx = eta.agents(d, k), xi.agents(d, k)
        g = 2 * (x - a)  # ∇f_i(x_{i,k})
        # b) eq. (4): s_{k+1} = W s_k + W_o β_k η_k + γ_k ∇F(x_k),
        #             x_{k+1} = W x_k + W_o β_k ξ_k − α(s_{k+1} − s_k).
        s_next = W @ s + Wo @ ne + ex.schedule(gamma, k) * g
        x = W @ x + Wo @ nx - alpha * (s_next - s)
        s = s_next
        chk.at(k + 1, x=x, s=s)
    chk.done()


if __name__ == "__main__":
    main(sys.argv[1])
