"""Iterations per second of svmcore.multiclass_sgd (SSBD §17.2) for k = 3 and k = 6 at
n = 2000, with scikit-learn measured in the same run for context.

Run: ``python benchmarks/bench_multiclass.py [--quick]``.

Context lines:
* ``SGDClassifier(loss="hinge")`` trains k one-vs-rest linear SVMs by SGD in Cython; its
  "iterations" are sample visits (epochs × n, each visit updating all k binary models);
* ``LinearSVC(multi_class="crammer_singer")`` solves the same Crammer–Singer problem
  exactly (liblinear); we print its fit time next to the time of our T steps.
The "x ours" column is a row's iterations per second divided by multiclass_sgd's.
Both sides use one BLAS thread. Numbers depend on how often ŷ ≠ y: steps without
update are skipped in vectorised chunks, so separable data run much faster.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.linear_model import SGDClassifier  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402

from svmcore.datasets import k_blobs  # noqa: E402
from svmcore.sgd.multiclass_pegasos import multiclass_pegasos  # noqa: E402
from svmcore.sgd.multiclass_sgd import multiclass_sgd  # noqa: E402

N = 2000


def best_time(fn, repeats):
    """Smallest wall time of ``repeats`` calls (and the last call's result)."""
    best, out = np.inf, None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small T, one repeat")
    args = parser.parse_args(argv)
    T = 20_000 if args.quick else 200_000
    repeats = 1 if args.quick else 3
    epochs = max(1, T // N)  # sklearn SGD sees as many sample visits as our T steps
    print(f"n = {N}, T = {T}, best of {repeats}, one BLAS thread")
    header = (
        f"{'data':<12} {'k':>2} {'algorithm':<34} {'it/s':>11} {'time s':>8} "
        f"{'train err':>9} {'x ours':>7}"
    )
    print(header)
    print("-" * len(header))
    for noise, label in ((0.5, "separable"), (2.0, "overlapping")):
        for k in (3, 6):
            X, y = k_blobs(n=N, noise=noise, random_state=0, k=k)
            t_ours, r = best_time(
                lambda X=X, y=y: multiclass_sgd(X, y, eta=0.01, T=T, random_state=0), repeats
            )
            t_peg, p = best_time(
                lambda X=X, y=y: multiclass_pegasos(X, y, lam=1e-3, T=T, random_state=0),
                repeats,
            )
            sgd = SGDClassifier(loss="hinge", alpha=1e-3, max_iter=epochs, tol=None, random_state=0)
            t_sk, _ = best_time(lambda X=X, y=y, sgd=sgd: sgd.fit(X, y), repeats)
            svc = LinearSVC(multi_class="crammer_singer", C=1.0, max_iter=100_000)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", ConvergenceWarning)
                t_svc, _ = best_time(lambda X=X, y=y, svc=svc: svc.fit(X, y), repeats)
            svc_name = "LinearSVC crammer_singer (sklearn)"
            if any(issubclass(w.category, ConvergenceWarning) for w in caught):
                svc_name = "LinearSVC c_s (sklearn, max_iter hit)"
            ours = T / t_ours
            sk = epochs * N / t_sk
            rows = [
                ("multiclass_sgd (svmcore)", ours, t_ours, r.train_error, 1.0),
                (
                    "multiclass_pegasos linear (svmcore)",
                    T / t_peg,
                    t_peg,
                    p.train_error,
                    (T / t_peg) / ours,
                ),
                ("SGDClassifier hinge OvR (sklearn)", sk, t_sk, 1 - sgd.score(X, y), sk / ours),
                (svc_name, np.nan, t_svc, 1 - svc.score(X, y), np.nan),
            ]
            for name, its, secs, err, ratio in rows:
                print(
                    f"{label:<12} {k:>2} {name:<34} {its:>11,.0f} {secs:>8.3f} "
                    f"{err:>9.4f} {ratio:>7.2f}"
                )
            print(
                f"{'':<15} -> sklearn SGD is {sk / ours:.1f}x faster per sample visit; "
                f"our T steps take {t_ours / t_svc:.2f}x LinearSVC's fit time"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
