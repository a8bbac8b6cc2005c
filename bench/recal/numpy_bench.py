"""The NumPy reference of bench/recal/compare.sh: one iteration of
DP-RECAL, noise-free RECAL and each DP baseline of the DP-RECAL paper's
Table IV (DP-ADMM [12], DP-EXTRA, DP-NIDS, DP-RWADMM, DP-MRADMM),
vectorised, on the paper's least squares
f_i(x) = (1/m_i) sum_j (a_j'x - b_j)^2 / 2 + lambda/2*|x|^2 with
r(x) = l1*|x|_1 + l2/2*|x|^2 over a committed dataset's train split, 8
agents on a ring (lambda = 0; for DP-MRADMM, which takes no r, lambda = 1
and r = 0) -- the same equations as dpsim's packages
core/algorithms/{recal,dpadmm,dpextra,dpnids,dprwadmm,dpmradmm} (their doc
comments),
with the parameters dpsim resolved: every step, penalty, weight, shard
bound, L and sigma_1 is read from the export of TestNumPyExport
(core/algorithms/recal/numpy_test.go), nothing recomputed.

    numpy_bench.py EXPORT_DIR DATASET [--algorithms a,b,..] [--seconds S]
    numpy_bench.py EXPORT_DIR DATASET --check [--tol T]

Timing (the default): for each algorithm, one line
"<algorithm> <wall us per iteration> <CPU us per iteration> <iterations>
<messages per iteration>" (a walk sends 1, a synchronous method one per
directed edge, 2|E| = 16 on the ring of 8: compare.sh divides both sides'
times by it);
CPU time is the process's, which a shared machine's load does not inflate.
NumPy's best case: float64 copies of the shards made outside the timing,
one BLAS thread (compare.sh sets it), the agents' vectors as (n, d) arrays
and the eight shard gradients of a synchronous iteration either one BLAS
call per agent or one batched matmul over zero-padded shards, whichever
is faster on this machine (chosen before the timing).

--check runs each algorithm without noise for the export's iterations
(the walks follow the holders dpsim drew) and compares every state
variable with dpsim's: max |numpy - dpsim| / max(|dpsim|) per variable;
exits 1 when one exceeds --tol (1e-10).
"""
import argparse, json, os, sys, time
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dpsimds  # noqa: E402  (bench/dpsimds.py: the dataset reader)


# ---- shared: data, shards, gradients, prox --------------------------------

def read_set(path):
    """A dpsim dataset file as float64 rows and +-1 labels (bench/dpsimds.py)."""
    return dpsimds.read(path)


class Problem:
    """The shards dpsim dealt (the export's row bounds), their gradients
    and the elastic net's prox."""

    def __init__(self, A, lab, ex):
        self.n, self.d = ex["n"], ex["dim"]
        self.l1, self.l2 = ex["r_l1"], ex["r_l2"]
        self.A = [np.ascontiguousarray(A[lo:hi]) for lo, hi in ex["shards"]]
        self.b = [lab[lo:hi].copy() for lo, hi in ex["shards"]]
        self.m = np.array([hi - lo for lo, hi in ex["shards"]], dtype=np.float64)
        self.lam2 = ex["l2"]  # lambda, the l2 weight inside every f_i
        mx = int(self.m.max())
        # Zero rows (and labels) pad every shard to the longest: their
        # residuals are 0 and add nothing to A'r.
        self.A3 = np.zeros((self.n, mx, self.d))
        self.B3 = np.zeros((self.n, mx, 1))
        for i, (Ai, bi) in enumerate(zip(self.A, self.b)):
            self.A3[i, :len(bi)] = Ai
            self.B3[i, :len(bi), 0] = bi
        self.A3T = self.A3.transpose(0, 2, 1)
        self.grads = self.grads_loop

    def grad(self, i, y):
        """grad f_i(y) = A_i'(A_i y - b_i)/m_i + lambda*y."""
        Ai = self.A[i]
        g = Ai.T @ (Ai @ y - self.b[i]) / self.m[i]
        return g + self.lam2 * y if self.lam2 else g

    def grads_loop(self, X):
        """Every agent's gradient at its row of X, one BLAS call each."""
        G = np.empty_like(X)
        for i in range(self.n):
            Ai = self.A[i]
            G[i] = Ai.T @ (Ai @ X[i] - self.b[i])
        G /= self.m[:, None]
        return G + self.lam2 * X if self.lam2 else G

    def grads_batched(self, X):
        """The same over the padded shards, one batched matmul each way."""
        R = np.matmul(self.A3, X[:, :, None]) - self.B3
        G = np.matmul(self.A3T, R)[:, :, 0] / self.m[:, None]
        return G + self.lam2 * X if self.lam2 else G

    def pick_grads(self):
        """Keeps the faster of the two gradient forms (NumPy's best case)."""
        X = np.random.default_rng(1).standard_normal((self.n, self.d))
        best = None
        for f in (self.grads_loop, self.grads_batched):
            f(X)
            t0 = time.process_time()
            for _ in range(10):
                f(X)
            t = time.process_time() - t0
            if best is None or t < best[0]:
                best = (t, f)
        self.grads = best[1]

    def prox(self, v, step):
        """prox_{step*r}(v): soft threshold at step*l1, shrunk by
        1/(1 + step*l2); step a scalar or an (n, 1) column."""
        return np.sign(v) * np.maximum(np.abs(v) - step * self.l1, 0) / (1 + step * self.l2)


class Noise:
    """Gaussian noise (NumPy's own stream), or none for --check."""

    def __init__(self, on, seed=18):
        self.on, self.rng = on, np.random.default_rng(seed)

    def draw(self, shape, sigma):
        if not self.on:
            return np.zeros(shape)
        return self.rng.standard_normal(shape) * sigma


def inputs(ex, name):
    return ex["inputs"][name]


def noise_schedule(ex):
    """sigma_1 and the attenuation R of a baseline's noise, sigma_1 R^(-k/2)."""
    return inputs(ex, "σ_1"), inputs(ex, "R (attenuation)")


# ---- the algorithms: one class each, step() is one iteration ---------------

class RECAL:
    """DP-RECAL, Algorithm 1, literal mode ((7a)-(7e)); RECAL with the
    noise off."""
    walk = True

    def __init__(self, p, ex, nz, holders=None):
        n, d = p.n, p.d
        self.p, self.nz, self.n = p, nz, n
        self.alpha, self.beta = np.array(ex["alphas"]), ex["beta"]
        self.sigma1, self.R = inputs(ex, "σ_1"), inputs(ex, "R")
        if ex["algorithm"] == "recal":
            self.sigma1 = 0.0
        self.x, self.u, self.ut = np.zeros(d), np.zeros(d), np.zeros(d)
        self.y, self.lam = np.zeros((n, d)), np.zeros((n, d))
        self.tau = np.zeros(n, dtype=int)
        self.walker = Walker(ex, nz, holders)

    def step(self):
        i = self.walker.holder
        self.tau[i] += 1
        beta, x = self.beta, self.x
        yi, li = self.y[i], self.lam[i]
        lh = li + beta * (x - yi)                                           # (7a)
        xn = self.p.prox(x - (self.ut + lh - li), self.n)                   # (7b)
        yn = yi - self.alpha[i] * (self.p.grad(i, yi) - lh)                 # (7c)
        ln = lh + beta * ((xn - x) - (yn - yi))                             # (7d)
        self.u = self.u + (ln - li)                                         # (7e)
        s = self.sigma1 * self.R ** (-(self.tau[i] - 1) / 2)
        self.ut = self.u - self.nz.draw(self.p.d, s)
        self.y[i], self.lam[i], self.x = yn, ln, xn
        self.walker.advance(i)

    def state(self):
        return {"x": self.x, "u_noisy": self.ut, "u": self.u, "y": self.y, "lambda": self.lam}


class Walker:
    """The walk: a uniform neighbour on the ring, from NumPy's stream, or
    the holders dpsim drew (--check)."""

    def __init__(self, ex, nz, holders):
        self.nb = ex["neighbors"]
        self.rng = nz.rng
        self.holders, self.k = holders, 0
        self.holder = holders[0] if holders else int(self.rng.integers(len(self.nb)))

    def advance(self, i):
        self.k += 1
        if self.holders:
            self.holder = self.holders[self.k % len(self.holders)]
        else:
            nb = self.nb[i]
            self.holder = nb[int(self.rng.integers(len(nb)))]


class ADMM:
    """DP-ADMM [12] (zhang-zhu): the linearized consensus ADMM with noise
    on the published x_i (dpadmm's package doc, baselines.md 6.3)."""
    walk = False

    def __init__(self, p, ex, nz, holders=None):
        n, d = p.n, p.d
        self.p, self.nz = p, nz
        self.tau, self.rho = inputs(ex, "τ"), inputs(ex, "ρ (penalty)")
        self.sigma1, self.R = noise_schedule(ex)
        adj = np.zeros((n, n))
        for i, nb in enumerate(ex["neighbors"]):
            adj[i, nb] = 1
        deg = adj.sum(1)
        self.plus, self.lap = np.diag(deg) + adj, np.diag(deg) - adj
        self.a = (1 / self.tau + 2 * self.rho * deg)[:, None]               # a_i
        self.x, self.lam, self.sent = np.zeros((n, d)), np.zeros((n, d)), np.zeros((n, d))
        self.g = p.grads(self.x)
        self.k = 0

    def step(self):
        v = (self.x / self.tau - self.g - self.lam + self.rho * (self.plus @ self.sent)) / self.a
        self.x = self.p.prox(v, 1 / self.a)                                  # x_i^{k+1}
        s = self.sigma1 * self.R ** (-self.k / 2)                           # t = k+1
        self.sent = self.x + self.nz.draw(self.x.shape, s)                  # x~^{k+1}
        self.lam += self.rho * (self.lap @ self.sent)                       # lambda^{k+1}
        self.g = self.p.grads(self.x)
        self.k += 1

    def state(self):
        return {"x": self.x, "lambda": self.lam, "sent": self.sent}


class Synchronous:
    """What DP-EXTRA and DP-NIDS share: the step, the noise schedule and
    W~ = (I + W)/2."""
    walk = False

    def __init__(self, p, ex, nz):
        self.p, self.nz = p, nz
        self.alpha = inputs(ex, "α")
        self.sigma1, self.R = noise_schedule(ex)
        self.W = np.array(ex["W"])
        self.Wt = (np.eye(p.n) + self.W) / 2                                 # W~ = (I + W)/2


class EXTRA(Synchronous):
    """DP-EXTRA: PG-EXTRA with noise on every published x_i, own terms
    noisy (self_noisy, the default; baselines.md 2.3, 6.1)."""

    def __init__(self, p, ex, nz, holders=None):
        super().__init__(p, ex, nz)
        n, d = p.n, p.d
        z = lambda: np.zeros((n, d))
        self.x, self.half, self.xprev, self.sent = z(), z(), z(), z()
        self.g, self.gprev = p.grads(self.x), p.grads(self.xprev)
        self.k = 0

    def step(self):
        prev = self.sent
        s = self.sigma1 * self.R ** (-self.k / 2)
        self.sent = self.x + self.nz.draw(self.x.shape, s)                  # x~^k
        if self.k == 0:
            hn = self.W @ self.sent - self.alpha * self.g
        else:
            hn = (self.half + self.W @ self.sent - self.Wt @ prev
                  - self.alpha * (self.g - self.gprev))
        self.xprev, self.x, self.half = self.x, self.p.prox(hn, self.alpha), hn
        self.gprev, self.g = self.g, self.p.grads(self.x)
        self.k += 1

    def state(self):
        return {"x": self.x, "half": self.half, "x_prev": self.xprev, "sent": self.sent}


class NIDS(Synchronous):
    """DP-NIDS: NIDS with noise on the published x-bar, own term noisy
    (baselines.md 2.4, 6.2)."""

    def __init__(self, p, ex, nz, holders=None):
        super().__init__(p, ex, nz)
        n, d = p.n, p.d
        self.x, self.z, self.xprev = np.zeros((n, d)), np.zeros((n, d)), np.zeros((n, d))
        self.g, self.gprev = p.grads(self.x), p.grads(self.xprev)
        self.k = 0

    def step(self):
        a = self.alpha
        if self.k == 0:
            self.z = self.x - a * self.g
        else:
            bar = 2 * self.x - self.xprev - a * (self.g - self.gprev)
            s = self.sigma1 * self.R ** (-(self.k - 1) / 2)                 # t = k
            sent = bar + self.nz.draw(bar.shape, s)
            self.z += self.Wt @ sent - self.x
        self.xprev, self.x = self.x, self.p.prox(self.z, a)
        self.gprev, self.g = self.g, self.p.grads(self.x)
        self.k += 1

    def state(self):
        return {"x": self.x, "z": self.z, "x_prev": self.xprev}


class RWADMM:
    """DP-RWADMM: Walkman's linearized update on one token, noise on the
    token with the holder's activation count (baselines.md 6.5)."""
    walk = True

    def __init__(self, p, ex, nz, holders=None):
        n, d = p.n, p.d
        self.p, self.nz, self.n = p, nz, n
        self.alpha = inputs(ex, "α")
        self.sigma1, self.R = noise_schedule(ex)
        self.y, self.z = np.zeros((n, d)), np.zeros((n, d))
        self.xbar = np.zeros(d)
        self.x = p.prox(self.xbar, self.alpha)
        self.tau = np.zeros(n, dtype=int)
        self.walker = Walker(ex, nz, holders)

    def step(self):
        i = self.walker.holder
        self.tau[i] += 1
        yo, zo = self.y[i], self.z[i]
        y = self.x + zo - self.alpha * self.p.grad(i, yo)
        z = zo + self.x - y
        s = self.sigma1 * self.R ** (-(self.tau[i] - 1) / 2)
        self.xbar = self.xbar + ((y - z) - (yo - zo)) / self.n + self.nz.draw(self.p.d, s)
        self.y[i], self.z[i] = y, z
        self.x = self.p.prox(self.xbar, self.alpha)
        self.walker.advance(i)

    def state(self):
        return {"x": self.x, "xbar": self.xbar, "y": self.y, "z": self.z}


class MRADMM:
    """DP-MRADMM [17] (Recycled ADMM, fixed penalty): odd iterations solve
    the ADMM step exactly by Nesterov's accelerated gradient and publish
    with noise, even ones recycle the implied gradient (dpmradmm's
    package doc, baselines.md 6.6). On the smooth problem (r = 0)."""
    walk = False

    def __init__(self, p, ex, nz, holders=None):
        n, d = p.n, p.d
        self.p, self.nz = p, nz
        self.rho0, self.kappa = inputs(ex, "ρ_0 (penalty)"), inputs(ex, "κ")
        self.tau, self.inner = inputs(ex, "τ"), int(inputs(ex, "inner"))
        self.sigma1, self.R = noise_schedule(ex)
        self.L, self.mu = ex["L"], ex["mu"]
        adj = np.zeros((n, n))
        for i, nb in enumerate(ex["neighbors"]):
            adj[i, nb] = 1
        self.deg = adj.sum(1)
        self.plus, self.lap = np.diag(self.deg) + adj, np.diag(self.deg) - adj
        z = lambda: np.zeros((n, d))
        self.x, self.lam, self.sent, self.rec = z(), z(), z(), z()
        self.k = 0

    def solve(self, i, rho, lam, s):
        """Agent i's odd step from x_i, until a step is below 1e-15 of |x|
        (max norms) or after inner gradients."""
        di = self.deg[i]
        lc, mc = self.L + 2 * rho * di, self.mu + 2 * rho * di
        h, q = 1 / lc, np.sqrt(lc / mc)
        mom = (q - 1) / (q + 1)
        x = self.x[i]
        y, prev = x.copy(), x.copy()
        for _ in range(self.inner):
            xn = y - h * (self.p.grad(i, y) + lam + 2 * rho * di * y - rho * s)
            mv, mx = np.abs(xn - prev).max(), np.abs(xn).max()
            x = xn
            y = xn + mom * (xn - prev)
            prev = xn
            if mv <= 1e-15 * max(mx, 1e-300):
                break
        self.x[i] = x

    def step(self):
        m = self.k + 1
        rho = self.rho0 if self.kappa == 1 else self.rho0 * self.kappa ** (m - 1)
        S = self.plus @ self.sent                                           # s_i
        if m % 2 == 1:
            for i in range(self.p.n):
                self.solve(i, rho, self.lam[i], S[i])
            s = self.sigma1 * self.R ** (-((m + 1) // 2 - 1) / 2)           # t = (m+1)/2
            self.sent = self.x + self.nz.draw(self.x.shape, s)
            self.rec = rho * S - self.lam - 2 * rho * self.deg[:, None] * self.sent
        else:
            a = (1 / self.tau + 2 * rho * self.deg)[:, None]
            self.x = (self.sent / self.tau - self.rec - self.lam + rho * S) / a
            self.sent = self.x.copy()
        self.lam += rho * (self.lap @ self.sent)
        self.k += 1

    def state(self):
        return {"x": self.x, "lambda": self.lam, "sent": self.sent, "recycled": self.rec}


ALGORITHMS = {"dp-recal": RECAL, "recal": RECAL, "dp-admm": ADMM, "dp-extra": EXTRA,
              "dp-nids": NIDS, "dp-rwadmm": RWADMM, "dp-mradmm": MRADMM}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("export")
    ap.add_argument("dataset")
    ap.add_argument("--algorithms", default=",".join(ALGORITHMS))
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--tol", type=float, default=1e-10)
    a = ap.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    A, lab = read_set(os.path.join(root, "core", "data", "files", a.dataset + "-train.gz"))
    bad = False
    for name in a.algorithms.split(","):
        ex = json.load(open(os.path.join(a.export, f"{a.dataset}-{name}.json")))
        p = Problem(A, lab, ex)
        if a.check:
            c = ex["check"]
            alg = ALGORITHMS[name](p, ex, Noise(False), c.get("holders"))
            for _ in range(c["iters"]):
                alg.step()
            worst = []
            for var, got in alg.state().items():
                want = np.array(c["state"][var])
                e = np.abs(np.ravel(got) - want).max() / max(np.abs(want).max(), 1e-300)
                worst.append(f"{var} {e:.1e}")
                bad |= not (e <= a.tol)
            print(f"{a.dataset} {name}: {c['iters']} noise-free iterations, max|numpy - dpsim|/max|dpsim|: " + ", ".join(worst))
            continue
        if not ALGORITHMS[name].walk:
            p.pick_grads()
        alg = ALGORITHMS[name](p, ex, Noise(True))
        for _ in range(4):
            alg.step()  # warm
        it, t0, c0 = 0, time.perf_counter(), time.process_time()
        while True:
            for _ in range(2):  # DP-MRADMM's odd and even iterations
                alg.step()
            it += 2
            if time.perf_counter() - t0 >= a.seconds:
                break
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        msgs = 1 if alg.walk else sum(len(nb) for nb in ex["neighbors"])
        print(name, f"{dt / it * 1e6:.3f}", f"{dc / it * 1e6:.3f}", it, msgs, flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
