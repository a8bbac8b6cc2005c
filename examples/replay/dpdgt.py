"""Replays a DP-DGT export (Huo, Chen, Huang, Johansson and Shi,
differentially private dual gradient tracking for distributed resource
allocation, Algorithm 1, eqs. (12a)–(12c)) without dpsim: the economic
dispatch costs F_i(w) = a_i·w² + b_i·w + c_i on [min_i, max_i] (agents
without a generator hold w_i = 0), the demands d_i, the pinned pull (R)
and push (C) matrices and initial states, and the recorded Laplace draws
of ξ (on s) and ζ (on w̃, "price").

    python3 dpdgt.py EXPORT.json
"""
import sys

import numpy as np

import export as ex


def main(path):
    e, sc = ex.open_export(path, "dp-dgt", "dispatch")
    n = sc["graph"]["n"]
    R, C = ex.weights(sc, "pull"), ex.weights(sc, "push")
    prob = sc["problem"]["params"]
    dem = np.array(prob["demands"], dtype=float)
    gens = {g["agent"]: g for g in prob["generators"]}
    p = sc["algorithm"]["params"]
    gamma, phi = p["gamma"], p["phi"]
    init = sc["init"]
    w, s, wt = (ex.rows(init[v])[:, 0] for v in ("w", "s", "price"))
    xi, zeta = ex.Noise(sc["noise"]["xi"], n), ex.Noise(sc["noise"]["zeta"], n)

    def respond(price):
        # (12b): argmin_{w ∈ [min, max]} a w² + b w − w̃ w.
        out = np.zeros(n)
        for i, g in gens.items():
            out[i] = min(max((price[i] - g["b"]) / (2 * g["a"]), g["min"]), g["max"])
        return out

    chk = ex.Checker(e, "dp-dgt")
    chk.at(0, w=w[:, None], s=s[:, None], price=wt[:, None])
    for k in range(e["iterations_run"]):
        alpha = ex.schedule(p["alpha"], k)
        nxi, nze = xi.agents(1, k)[:, 0], zeta.agents(1, k)[:, 0]
        s_next = (1 - gamma) * s + gamma * C @ (s + nxi) - alpha * (w - dem)   # (12a)
        wt = (1 - phi) * wt + phi * R @ (wt + nze) + (s_next - s)             # (12c)
        s = s_next
        w = respond(wt)                                                       # (12b)
        chk.at(k + 1, w=w[:, None], s=s[:, None], price=wt[:, None])
    chk.done()


if __name__ == "__main__":
    main(sys.argv[1])
