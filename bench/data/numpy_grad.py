"""The vectorised NumPy reference of bench/data/compare.sh: one full
gradient of logistic regression with l2 (lambda = 1e-3) over a committed
dataset's train split, read straight from core/data's file format
(gzip of: "DPSIMDS1", kind, classes, 2 pad bytes, rows and cols as
uint32 LE, float32 LE or uint8 features row-major, label bytes).

    numpy_grad.py FILE.gz [--iters N]

The features are converted once to float64 (pixels / 255) outside the
timing, NumPy's best case; the timed loop is A @ x, the sigmoid and
A.T @ s. Prints "<name> <microseconds per gradient> <gradnorm>".
"""
import argparse, os, sys, time
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dpsimds  # noqa: E402  (bench/dpsimds.py: the dataset reader)

ap = argparse.ArgumentParser()
ap.add_argument("file")
ap.add_argument("--iters", type=int, default=0, help="0: repeat until 1 s")
a = ap.parse_args()
A, b = dpsimds.read(a.file)
rows, cols = A.shape
lam = 1e-3
x = 0.01 * (np.arange(cols) % 7)


def grad(x):
    t = -b * (A @ x)
    # -b * sigmoid(t), overflow-free like dpsim's
    e = np.exp(-np.abs(t))
    sig = np.where(t >= 0, 1 / (1 + e), e / (1 + e))
    return A.T @ (-b * sig) / rows + lam * x


g = grad(x)
for _ in range(3):
    grad(x)  # warm
n = a.iters
if n == 0:
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 1:
        grad(x)
        n += 1
t0 = time.perf_counter()
for _ in range(n):
    grad(x)
dt = (time.perf_counter() - t0) / n
print(os.path.basename(a.file), "%.3f" % (dt * 1e6), "%.12g" % np.linalg.norm(g))
