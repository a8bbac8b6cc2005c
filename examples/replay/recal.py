"""Replays a DP-RECAL export (Wang, Guo, Yang and Shi, differentially
private relayed communication-efficient algorithm, Algorithm 1, eqs.
(7a)–(7e)) without dpsim, on either of two problems: the paper's Sec. VII
regression — least squares f_i(y) = (1/m_i)·Σ_j ½(a_jᵀy − b_j)² on agent
i's rows (written in the export, one source per agent; labels ±1) with
r(x) = r_l1‖x‖₁ + (r_l2/2)‖x‖², so that (7b) is the prox of n·r — or
rendezvous costs f_i(y) = ‖y − a_i‖² (no r). It reads the pinned initial
states, the recorded walk of the baton (algorithm.draws.walk: i_0, i_1,
…) and the recorded Gaussian draws of ε^k (noise.u.draws).

    python3 recal.py EXPORT.json
"""
import sys

import numpy as np

import export as ex


def main(path):
    e = ex.load(path)
    kind = e["scenario"]["problem"]["kind"]
    e, sc = ex.open_export(path, "dp-recal", kind if kind == "logistic" else "rendezvous")
    p = sc["algorithm"]["params"]
    n = sc["graph"]["n"]
    grad, prox = problem(sc["problem"]["params"], n) if kind == "logistic" else rendezvous(sc)
    # α_i: given (rendezvous: or 1/(L + 1) with L = 2, the smoothness of ‖y − a_i‖²).
    if not (p.get("alphas") or p.get("alpha") or kind == "rendezvous"):
        sys.exit(f"{path}: give algorithm.params.alpha (α = 1/(L+1) needs dpsim's L)")
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
        xn = prox(x - (ut + lh - lam[i]))                         # (7b)
        yn = y[i] - alpha[i] * (grad(i, y[i]) - lh)               # (7c)
        ln = lh + beta * ((xn - x) - (yn - y[i]))                 # (7d)
        u = (ut if realisable else u) + (ln - lam[i])             # (7e)
        # ε^k ~ N(0, σ_τ² I), σ_τ = σ_1·R^(−(τ−1)/2) at i's τ-th activation.
        sigma = noise.base(i) * R ** (-(tau[i] - 1) / 2) if tau[i] > 1 and R != 1 else noise.base(i)
        ut = u - noise.take(len(u), sigma)
        y[i], lam[i], x = yn, ln, xn
        chk.at(k + 1, x=[x], u_noisy=[ut], u=[u], y=y, **{"lambda": lam})
    chk.done()


def rendezvous(sc):
    a = ex.rows(sc["problem"]["params"]["targets"])
    return (lambda i, y: 2 * (y - a[i])), (lambda v: v)


def problem(q, n):
    """Least squares with the elastic net on the export's rows per agent."""
    assert q["dataset"] == "user" and q["data"].get("agents"), "the export holds no rows per agent"
    assert q.get("loss") == "squares" and q.get("regularizer") == "elastic-net", "this replay knows least squares with the elastic net"
    classes = q["data"].get("classes") or [0, 1]
    A = [ex.rows(s["features"]) for s in q["data"]["agents"]]
    # Labels b ∈ {−1, +1}: the first class is −1.
    B = [np.where(np.array(s["labels"]) == classes[0], -1.0, 1.0) for s in q["data"]["agents"]]
    l2, t = q.get("l2", 0), n * q["r_l1"]

    def grad(i, y):
        return A[i].T @ (A[i] @ y - B[i]) / len(B[i]) + l2 * y

    def prox(v):
        # argmin_u n·r(u) + ½‖u − v‖²: soft threshold at n·r_l1, shrunk by 1/(1 + n·r_l2).
        return np.sign(v) * np.maximum(np.abs(v) - t, 0) / (1 + n * q["r_l2"])

    return grad, prox


if __name__ == "__main__":
    main(sys.argv[1])
