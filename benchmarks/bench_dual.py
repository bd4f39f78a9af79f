"""Benchmark: svmcore.dual_svm (SMO) against scikit-learn's SVC (libsvm), one BLAS thread.

(dual_svm's default solver="auto" is measured on real data by bench_real_data.py; here
SMO is asked for by name.)

The dual's speed targets: C = 1, RBF with γ = 1/(d·Var X), tol = 1e-3, 2-D moons / overlapping
blobs / circles at n ∈ {2000, 5000, 20000}: median time ratio ≤ 0.6× SVC.fit, none above
1.25×, dual objective within 1e-6 (relative) of libsvm's; hard margin against SVC(C=1e10)
≤ 1.5×; fits at n ≤ 200 under 5 ms. Ratios are measured in the same run (best of
``--repeat`` runs each).

    python benchmarks/bench_dual.py [--quick] [--repeat R]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sklearn.svm import SVC  # noqa: E402

from svmcore import datasets  # noqa: E402
from svmcore.dual.solver import dual_svm  # noqa: E402
from svmcore.kernels import rbf  # noqa: E402


def compare(repeat, X, y, svc_params, ours_params):
    """Best wall times of SVC.fit and dual_svm, runs interleaved (the machine is shared)."""
    t_sk = t_us = np.inf
    sk = r = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        sk = SVC(**svc_params).fit(X, y)
        t1 = time.perf_counter()
        r = dual_svm(X, y, **ours_params)
        t2 = time.perf_counter()
        t_sk, t_us = min(t_sk, t1 - t0), min(t_us, t2 - t1)
    return t_sk, sk, t_us, r


def sk_objective(sk, kernel):
    """libsvm's dual objective ½αᵀQα − 1ᵀα, in row blocks (no |SV|² array)."""
    dc = sk.dual_coef_[0]
    sv = sk.support_vectors_
    quad = 0.0
    for s in range(0, dc.shape[0], 1000):
        quad += float(dc[s : s + 1000] @ (kernel(sv[s : s + 1000], sv) @ dc))
    return 0.5 * quad - np.abs(dc).sum()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes only")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    sizes = [2000, 5000] if args.quick else [2000, 5000, 20000]
    repeat = 2 if args.quick else args.repeat

    print("soft margin, C=1, RBF γ=1/(d·Var X), tol=1e-3 (time = best of runs)")
    print(
        f"{'data':18s} {'n':>6s} {'SVC ms':>9s} {'ours ms':>9s} {'ratio':>6s} "
        f"{'obj rel diff':>12s} {'#SV':>6s} {'#SV skl':>7s} {'iters':>6s}"
    )
    ratios, objs, off = [], [], []
    for name in ["moons", "overlapping_blobs", "circles"]:
        for n in sizes:
            X, y = datasets.load(name, n=n, random_state=0)
            g = 1.0 / (X.shape[1] * X.var())
            t_sk, sk, t_us, r = compare(
                repeat,
                X,
                y,
                {"C": 1.0, "gamma": g, "tol": 1e-3},
                {"kernel": "rbf", "gamma": g, "C": 1.0, "tol": 1e-3, "solver": "smo"},
            )
            obj_sk = sk_objective(sk, rbf(g))
            rel = (r.dual_objective - obj_sk) / abs(obj_sk)
            ratios.append(t_us / t_sk)
            objs.append(abs(rel))
            if abs(rel) > 1e-6:
                off.append((name, n, rel, r.dual_objective, obj_sk))
            print(
                f"{name:18s} {n:6d} {t_sk * 1e3:9.1f} {t_us * 1e3:9.1f} {t_us / t_sk:6.2f} "
                f"{rel:+12.2e} {r.support_.size:6d} {sk.support_.size:7d} {r.n_iter:6d}",
                flush=True,
            )
    print(
        f"median ratio {np.median(ratios):.2f} (target ≤ 0.6), max ratio {max(ratios):.2f} "
        f"(target ≤ 1.25), max |obj rel diff| {max(objs):.1e} (target ≤ 1e-6)"
    )
    # Both solvers stop at a gap of tol = 1e-3, so each objective is off the optimum by
    # up to ~1e-6 (relative). Where the two differ by more, show how far each is from
    # the optimum (libsvm at tol = 1e-7) to tell whose stopping point is the looser one.
    for name, n, rel, ours_obj, obj_sk in off:
        X, y = datasets.load(name, n=n, random_state=0)
        g = 1.0 / (X.shape[1] * X.var())
        opt = sk_objective(SVC(C=1.0, gamma=g, tol=1e-7, cache_size=500).fit(X, y), rbf(g))
        print(
            f"  {name} n={n}: obj rel diff {rel:+.2e}; vs the optimum (libsvm tol=1e-7): "
            f"ours {(ours_obj - opt) / abs(opt):+.2e}, libsvm {(obj_sk - opt) / abs(opt):+.2e}"
        )

    # peak memory of the largest fit (Python-level allocations, NumPy included)
    X, y = datasets.load("moons", n=sizes[-1], random_state=0)
    g = 1.0 / (X.shape[1] * X.var())
    tracemalloc.start()
    dual_svm(X, y, kernel="rbf", gamma=g, C=1.0, tol=1e-3, solver="smo")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(
        f"peak memory, moons n={sizes[-1]}: {peak / 2**20:.1f} MB "
        f"(n×n float64 would be {sizes[-1] ** 2 * 8 / 2**20:.0f} MB; cache ≤ 64 MB)"
    )

    print("\nhard margin (C=None) against SVC(C=1e10), RBF, separable data")
    print(f"{'data':18s} {'n':>6s} {'SVC ms':>9s} {'ours ms':>9s} {'ratio':>6s}")
    hard = []
    for name, n, gamma in [
        ("separable_blobs", 2000, None),
        ("separable_blobs", 20000, None),
        ("circles", 1000, 2.0),
        ("moons", 200, 5.0),
        ("moons", 500, 5.0),
    ]:
        X, y = datasets.load(name, n=n, random_state=0)
        if name == "circles":
            X, y = datasets.circles(n, noise=0.02, random_state=0)
        g = gamma or 1.0 / (X.shape[1] * X.var())
        t_sk, _, t_us, _ = compare(
            repeat,
            X,
            y,
            {"C": 1e10, "gamma": g, "tol": 1e-3},
            {"kernel": "rbf", "gamma": g, "C": None, "tol": 1e-3, "solver": "smo"},
        )
        hard.append(t_us / t_sk)
        print(
            f"{name:18s} {n:6d} {t_sk * 1e3:9.1f} {t_us * 1e3:9.1f} {t_us / t_sk:6.2f}", flush=True
        )

    print(f"max hard-margin ratio {max(hard):.2f} (target ≤ 1.5)")

    print("\nlinear kernel, C=1: solver='lowrank' (§7, O(n d²) interior point) vs SVC")
    for name in ["overlapping_blobs", "moons"]:
        for n in sizes:
            X, y = datasets.load(name, n=n, random_state=0)
            t_sk, sk, t_us, r = compare(
                2,
                X,
                y,
                {"kernel": "linear", "C": 1.0, "tol": 1e-3},
                {"kernel": "linear", "C": 1.0, "solver": "lowrank"},
            )
            dc = sk.dual_coef_[0]
            ws = dc @ sk.support_vectors_
            obj_sk = 0.5 * ws @ ws - np.abs(dc).sum()
            rel = (r.dual_objective - obj_sk) / abs(obj_sk)
            print(
                f"{name:18s} {n:6d} SVC {t_sk * 1e3:8.1f} ms  ours {t_us * 1e3:7.1f} ms "
                f"(ratio {t_us / t_sk:5.3f}, obj rel diff {rel:+.1e})",
                flush=True,
            )

    print("\nsmall fits (target < 5 ms), C=1, RBF γ=scale")
    small = []
    for name in ["moons", "overlapping_blobs", "circles", "xor"]:
        for n in (50, 200):
            X, y = datasets.load(name, n=n, random_state=0)
            g = 1.0 / (X.shape[1] * X.var())
            t_sk, _, t_us, r = compare(
                max(repeat, 5),
                X,
                y,
                {"C": 1.0, "gamma": g},
                {"kernel": "rbf", "gamma": g, "C": 1.0, "solver": "smo"},
            )
            print(
                f"{name:18s} {n:6d} SVC {t_sk * 1e3:6.2f} ms  ours {t_us * 1e3:6.2f} ms "
                f"(ratio {t_us / t_sk:5.2f}, {r.n_iter} iterations)",
                flush=True,
            )
            small.append(t_us)
    print(f"slowest fit at n ≤ 200: {max(small) * 1e3:.2f} ms (target < 5 ms)")


if __name__ == "__main__":
    main()
