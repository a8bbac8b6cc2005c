"""Reads a dpsim dataset file (core/data's format: gzip of "DPSIMDS1",
kind, classes, 2 pad bytes, rows and cols as uint32 LE, then float32 LE
or uint8 features row-major, then one label byte per row) for the NumPy
references in bench/ (bench/data/numpy_grad.py, bench/recal/numpy_bench.py).
"""
import gzip
import numpy as np


def read(path):
    """The features as float64 rows (pixels scaled by 1/255, as dpsim does)
    and the labels as +-1 (class 1 -> +1)."""
    raw = gzip.open(path).read()
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
    labels = np.where(np.frombuffer(raw, dtype=np.uint8, count=rows, offset=off) == 1, 1.0, -1.0)
    return A.reshape(rows, cols), labels
