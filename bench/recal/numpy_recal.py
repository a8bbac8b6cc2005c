"""The NumPy reference of bench/recal/compare.sh: DP-RECAL's iteration
(Algorithm 1, literal mode; one communication) on the paper's least
squares with r = 0.01|x|_1 + 0.5|x|^2, 8 agents on a ring, each holding an
equal contiguous block of a committed dataset's train split (read from
core/data's file format, as bench/data/numpy_grad.py does).

    numpy_recal.py FILE.gz [--iters N]

Vectorised per agent: the holder's gradient is A_i.T @ (A_i @ y_i - b_i) / m_i
on a float64 copy of its block made outside the timing (NumPy's best
case). Prints "<name> <microseconds per iteration> <|x|> <CPU microseconds
per iteration>" (wall time, then the process's CPU time, which a shared
machine's load does not inflate).
"""
import argparse, gzip, os, time
import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("file")
ap.add_argument("--iters", type=int, default=2000)
a = ap.parse_args()
raw = gzip.open(a.file).read()
assert raw[:8] == b"DPSIMDS1", "not a dpsim dataset file"
kind = raw[8]
rows = int.from_bytes(raw[12:16], "little")
cols = int.from_bytes(raw[16:20], "little")
off = 20
if kind == 1:
    A = np.frombuffer(raw, dtype="<f4", count=rows * cols, offset=off).astype(np.float64)
    off += 4 * rows * cols
else:
    A = np.frombuffer(raw, dtype=np.uint8, count=rows * cols, offset=off).astype(np.float64) / 255
    off += rows * cols
A = A.reshape(rows, cols)
lab = np.where(np.frombuffer(raw, dtype=np.uint8, count=rows, offset=off) == 1, 1.0, -1.0)

n, d = 8, cols
m = rows // n
shards = [(np.ascontiguousarray(A[i * m:(i + 1) * m]), lab[i * m:(i + 1) * m].copy()) for i in range(n)]
L = max(np.linalg.eigvalsh(Ai.T @ Ai / m).max() for Ai, _ in shards)
alpha, beta = 1 / (L + 1), 1 / (2 * (n + 1))
l1, l2, R, sigma1 = 0.01, 1.0, 1.01, 1.9
rng = np.random.default_rng(18)
x, u, ut = np.zeros(d), np.zeros(d), np.zeros(d)
y, lam = np.zeros((n, d)), np.zeros((n, d))
tau = np.zeros(n, dtype=int)
nb = [((i - 1) % n, (i + 1) % n) for i in range(n)]
holder = int(rng.integers(n))


def step():
    global x, u, ut, holder
    i = holder
    tau[i] += 1
    Ai, bi = shards[i]
    yi, li = y[i], lam[i]
    lh = li + beta * (x - yi)                                      # (7a)
    v = x - (ut + lh - li)
    xn = np.sign(v) * np.maximum(np.abs(v) - n * l1, 0) / (1 + n * l2)  # (7b)
    g = Ai.T @ (Ai @ yi - bi) / m
    yn = yi - alpha * (g - lh)                                     # (7c)
    ln = lh + beta * ((xn - x) - (yn - yi))                        # (7d)
    u = u + (ln - li)                                              # (7e)
    ut = u - rng.standard_normal(d) * (sigma1 * R ** (-(tau[i] - 1) / 2))
    y[i], lam[i], x = yn, ln, xn
    holder = nb[i][int(rng.integers(2))]


for _ in range(50):
    step()  # warm
t0, c0 = time.perf_counter(), time.process_time()
for _ in range(a.iters):
    step()
dt, dc = time.perf_counter() - t0, time.process_time() - c0
print(os.path.basename(a.file).split("-train")[0], f"{dt / a.iters * 1e6:.3f}", f"{np.linalg.norm(x):.6g}",
      f"{dc / a.iters * 1e6:.3f}")
