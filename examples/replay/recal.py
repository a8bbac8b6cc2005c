"""Replays a DP-RECAL export (Wang, Guo, Yang and Shi, differentially
private relayed communication-efficient algorithm, Algorithm 1, eqs.
(7a)–(7e)) without dpsim: rendezvous costs f_i(y) = ‖y − a_i‖² (no
regulariser r, so (7b)'s prox is the identity), the pinned initial states,
the recorded walk of the baton (algorithm.draws.walk: i_0, i_1, …) and the
recorded Gaussian draws of ε^k (noise.u.draws).

    python3 recal.py EXPORT.json
"""
import sys

import numpy as np

import export as ex


def main(path):
    e, sc = ex.open_export(path, "dp-recal", "rendezvous")
    p = sc["algorithm"]["params"]
    a = ex.rows(sc["problem"]["params"]["targets"])
    n = a.shape[0]
    # α_i: given, or 1/(L + 1) with L = 2, the smoothness of ‖y − a_i‖².
    alpha = np.array(p["alphas"]) if p.get("alphas") else np.full(n, p.get("alpha") or 1 / 3)
    beta = 1 / (2 * (n + 1))
    R = p.get("attenuation", 1.01)
    realisable = p.get("mode") == "realisable"
    init = sc["init"]
    x, ut, u = (ex.rows(init[v])[0] for v in ("x", "u_noisy", "u"))
    y, lam = ex.rows(init["y"]), ex.rows(init["lambda"])
    walk = [int(v) for v in sc["algorithm"]["draws"]["walk"]]
    noise = ex.Noise(sc["noise"]["u"], n)
    tau = np.zeros(n, dtype=int)
    chk = ex.Checker(e, "dp-recal")
    chk.at(0, x=[x], u_noisy=[ut], u=[u], y=y, **{"lambda": lam})
    for k in range(e["iterations_run"]):
        i = walk[k % len(walk)]  # i_k, the holder
        tau[i] += 1
        lh = lam[i] + beta * (x - y[i])                           # (7a)
        xn = x - (ut + lh - lam[i])                               # (7b), r = 0
        yn = y[i] - alpha[i] * (2 * (y[i] - a[i]) - lh)           # (7c)
        ln = lh + beta * ((xn - x) - (yn - y[i]))                 # (7d)
        u = (ut if realisable else u) + (ln - lam[i])             # (7e)
        # ε^k ~ N(0, σ_τ² I), σ_τ = σ_1·R^(−(τ−1)/2) at i's τ-th activation.
        sigma = noise.base(i) * R ** (-(tau[i] - 1) / 2) if tau[i] > 1 and R != 1 else noise.base(i)
        ut = u - noise.take(len(u), sigma)
        y[i], lam[i], x = yn, ln, xn
        chk.at(k + 1, x=[x], u_noisy=[ut], u=[u], y=y, **{"lambda": lam})
    chk.done()


if __name__ == "__main__":
    main(sys.argv[1])
