"""Reading a dpsim replay export (docs/exports.md, "Replay arrays").

Shared by the replay scripts beside it: the export's scenario as plain
NumPy arrays, the noise a run drew (recorded at scale 1, cycled), the
papers' step and noise schedules, and the check against the export's
checkpoints. Nothing here uses dpsim's code or random generator.
"""
import json
import sys

import numpy as np

TOL = 1e-9


def load(path):
    with open(path) as f:
        e = json.load(f)
    if e.get("format") != "dpsim-run/1":
        sys.exit(f"{path}: not a dpsim run export (format {e.get('format')!r})")
    return e


def open_export(path, algorithm, problem):
    """The export at path and its scenario, which must run algorithm on
    problem (the costs the replay knows)."""
    e = load(path)
    sc = e["scenario"]
    if sc["algorithm"]["kind"] != algorithm or sc["problem"]["kind"] != problem:
        sys.exit(f"{path}: this replay takes {algorithm} on {problem}, not {sc['algorithm']['kind']} on {sc['problem']['kind']}")
    if sc["algorithm"].get("params", {}).get("clip_gradients"):
        sys.exit(f"{path}: this replay does not clip gradients")
    return e, sc


def weights(sc, role=None):
    """A weight matrix, dense, from the pinned entries [i, j, w_ij]: the
    weights section's, or its role's (DP-DGT's pull R and push C)."""
    n = sc["graph"]["n"]
    w = sc["weights"] if role is None else sc["weights"][role]
    if w.get("kind") != "entries":
        sys.exit("the export's weights are not pinned as entries")
    W = np.zeros((n, n))
    for i, j, v in w["entries"]:
        W[int(i), int(j)] = v
    return W


def schedule(s, k):
    """A step or noise schedule at iteration k: constant c, geometric
    c·r^k or polynomial c/(m + k)^p (the papers' γ_k, β_k, λ^k)."""
    kind = s.get("kind")
    if kind == "geometric":
        return s["c"] * s["r"] ** k
    if kind == "polynomial":
        return s["c"] / (s["m"] + k) ** s["p"]
    return s.get("c", 0.0)


class Noise:
    """One channel's recorded draws: fill(n, k) returns the next n values
    times the channel's scale at iteration k, agent by agent (scale b_i =
    scale (or scales[i]) times the decay at k); a channel whose scale is 0
    draws nothing. Without recorded draws the channel must be silent."""

    def __init__(self, spec, agents):
        self.spec, self.n = spec, agents
        self.draws = np.array(spec.get("draws", []), dtype=float)
        self.at = 0

    def base(self, i):
        sc = self.spec.get("scales")
        return sc[i] if sc else self.spec.get("scale", 0.0)

    def scale(self, i, k):
        b = self.base(i)
        if b == 0:
            return 0.0
        if "decays" in self.spec:
            return b * schedule(self.spec["decays"][i], k)
        return b * schedule(self.spec.get("decay", {"kind": "constant", "c": 1}), k)

    def take(self, m, b):
        if b == 0:
            return np.zeros(m)
        if len(self.draws) == 0:
            sys.exit("the export records no noise draws for a noisy channel (record.replay)")
        idx = (self.at + np.arange(m)) % len(self.draws)
        self.at = (self.at + m) % len(self.draws)
        return self.draws[idx] * b

    def agents(self, d, k):
        """n×d noise of iteration k, every agent noising one vector."""
        return np.array([self.take(d, self.scale(i, k)) for i in range(self.n)])


def rows(values):
    return np.array(values, dtype=float)


class Checker:
    """Compares replayed states with the export's checkpoints."""

    def __init__(self, export, name):
        self.cps = {cp["iteration"]: cp for cp in export["checkpoints"]}
        self.name, self.worst, self.checked = name, 0.0, 0

    def at(self, k, **states):
        cp = self.cps.get(k)
        if cp is None:
            return
        for v in cp["states"]:
            if v["name"] not in states:
                continue
            want = rows(v["values"])
            got = np.asarray(states[v["name"]], dtype=float).reshape(want.shape)
            err = np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want)))
            self.worst = max(self.worst, err)
            if not err <= TOL:
                sys.exit(f"{self.name}: {v['name']} at iteration {k} differs from the export by {err:.3g} (tolerance {TOL})")
            self.checked += 1

    def done(self):
        if self.checked == 0:
            sys.exit(f"{self.name}: no checkpoint state was compared")
        print(f"{self.name}: {self.checked} checkpoint states agree with the export (largest relative difference {self.worst:.2g})")
