"""Replays a DPP² export (the decentralised proximal primal–dual method
with double privacy, Algorithm 1, eqs. (16)–(19)) without dpsim:
rendezvous costs f_i(x) = ‖x − a_i‖², the pinned matrix P (the weights
section's entries), the pinned initial x (d and q start at 0 unless
pinned), the recorded η^k (algorithm.draws.eta, cycled) and the recorded
Laplace draws of w (on y) and e (on z).

    python3 dpp2.py EXPORT.json
"""
import sys

import numpy as np

import export as ex


def main(path):
    e, sc = ex.open_export(path, "dpp2", "rendezvous")
    p = sc["algorithm"]["params"]
    assert p.get("scale_p", "none") == "none", "this replay takes P as pinned"
    P = ex.weights(sc)
    n = P.shape[0]
    a = ex.rows(sc["problem"]["params"]["targets"])
    init = sc["init"]
    x = ex.rows(init["x"])
    dv = ex.rows(init["d"]) if "d" in init else np.zeros_like(x)
    q = ex.rows(init["q"]) if "q" in init else np.zeros_like(x)
    alpha, beta, rho = p["alpha"], p["beta"], p["rho"]
    etas = sc["algorithm"].get("draws", {}).get("eta")
    w, en = ex.Noise(sc["noise"]["w"], n), ex.Noise(sc["noise"]["e"], n)
    dim = x.shape[1]
    chk = ex.Checker(e, "dpp2")
    chk.at(0, x=x, d=dv, q=q)
    for k in range(e["iterations_run"]):
        eta = p["eta"] if p.get("eta") else etas[k % len(etas)]
        nw, ne = w.agents(dim, k), en.agents(dim, k)
        y = x + (1 - eta) * dv + nw                    # (16)
        ai = P @ y                                     # a_i = Σ_j p_ij y_j
        zc = 2 * (x - a) + eta * q + rho * ai          # (17) without e_i
        z = zc + ne
        x = x + nw - alpha * zc + beta * (P @ z)       # (18)
        dv, q = eta * dv + y, eta * q + rho * ai       # (19)
        chk.at(k + 1, x=x, d=dv, q=q)
    chk.done()


if __name__ == "__main__":
    main(sys.argv[1])
