"""Speed of linear and kernel Pegasos, against scikit-learn and a naive NumPy loop.

Run: ``python benchmarks/bench_pegasos.py [--quick] [--kernel]``. One BLAS thread; every
ratio is measured in the same run on the same data. Prints:

* kernel Pegasos iterations/s at n = 200 and n = 2000 (target >= 2 M/s, also at
  λ = 100/n where most steps fire: there the engine adds the rows of a float32 copy of
  the Gram matrix, 16 MB more at n = 2000, with the same decisions), and the speed-up
  over a naive NumPy transcription of the algorithm box (O(n) per step);
* linear Pegasos samples/s for the exact one-sample loop at d = 2 (target >= 1 M/s)
  against ``SGDClassifier(loss="hinge")`` (compiled Cython), and the mini-batch k = 1024
  per-sample speed against SGDClassifier.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.linear_model import SGDClassifier  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import svmcore  # noqa: E402
from svmcore import datasets  # noqa: E402


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def naive_kernel_pegasos(K, y, lam, idx):
    """The algorithm box with NumPy vector operations: O(n) per step."""
    m = len(y)
    beta = np.zeros(m)
    alpha_sum = np.zeros(m)
    for t, i in enumerate(idx, start=1):
        alpha = beta / (lam * t)
        alpha_sum += alpha
        if y[i] * (alpha @ K[:, i]) < 1:
            beta[i] += y[i]
    return alpha_sum / len(idx)


def bench_kernel(quick: bool):
    print("== kernel Pegasos (moons, RBF gamma = 1/(d Var X), schedule ssbd, averaged) ==")
    print(
        f"{'n':>6} {'lam':>8} {'T':>10} {'accepted':>9} {'M it/s':>8} {'naive it/s':>11} "
        f"{'speed-up':>9}"
    )
    T = 500_000 if quick else 4_000_000
    for n in (200, 2000):
        X, y = datasets.moons(n, noise=0.2, random_state=0)
        gamma = 1.0 / (X.shape[1] * X.var())
        for lam in (1.0 / n, 10.0 / n, 100.0 / n):  # 100 / n: most steps accepted

            def run(X=X, y=y, gamma=gamma, lam=lam):
                return svmcore.kernel_pegasos(
                    X, y, kernel="rbf", gamma=gamma, lam=lam, T=T, random_state=0
                )

            dt = best_of(run, 1 if quick else 2)
            r = run()
            accepted = np.abs(r.beta).sum() / T
            K = svmcore.rbf(gamma)(X)
            T_naive = 20_000
            idx = np.random.default_rng(0).integers(0, n, T_naive)
            dt_naive = best_of(lambda: naive_kernel_pegasos(K, y, lam, idx), 1)  # noqa: B023
            rate, rate_naive = T / dt, T_naive / dt_naive
            print(
                f"{n:>6} {lam:>8.1e} {T:>10,} {accepted:>9.2%} {rate / 1e6:>8.2f} "
                f"{rate_naive:>11,.0f} {rate / rate_naive:>8.0f}x"
            )


def bench_linear(quick: bool):
    print("\n== linear Pegasos vs SGDClassifier(loss='hinge'), d = 2, overlapping blobs ==")
    n = 100_000
    X, y = datasets.overlapping_blobs(n, random_state=0)
    epochs = 5 if quick else 20
    samples = n * epochs
    lam = 1e-4
    sgd = SGDClassifier(
        loss="hinge",
        alpha=lam,
        max_iter=epochs,
        tol=None,
        shuffle=True,
        learning_rate="optimal",
        random_state=0,
        fit_intercept=False,
    )
    dt_sgd = best_of(lambda: sgd.fit(X, y))
    rate_sgd = samples / dt_sgd
    dt_one = best_of(
        lambda: svmcore.pegasos(X, y, lam=lam, T=samples, random_state=0), 1 if quick else 2
    )
    rate_one = samples / dt_one
    k = 1024
    dt_batch = best_of(
        lambda: svmcore.pegasos(X, y, lam=lam, T=samples // k, batch_size=k, random_state=0)
    )
    rate_batch = (samples // k) * k / dt_batch
    r = svmcore.pegasos(X, y, lam=lam, T=samples, random_state=0)
    f_sgd = 0.5 * lam * sgd.coef_[0] @ sgd.coef_[0] + np.mean(
        np.maximum(0, 1 - y * (X @ sgd.coef_[0]))
    )
    print(f"samples per run: {samples:,} ({epochs} epochs of n = {n:,})")
    print(
        f"SGDClassifier (Cython)          : {rate_sgd / 1e6:8.2f} M samples/s  "
        f"objective {f_sgd:.5f}"
    )
    print(
        f"pegasos exact one-sample loop   : {rate_one / 1e6:8.2f} M samples/s  "
        f"objective {r.objective:.5f}  "
        f"(SGDClassifier is {rate_sgd / rate_one:.1f}x faster)"
    )
    print(
        f"pegasos mini-batch k = {k}      : {rate_batch / 1e6:8.2f} M samples/s  "
        f"({rate_batch / rate_sgd:.2f}x SGDClassifier's per-sample speed)"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs")
    parser.add_argument("--kernel", action="store_true", help="kernel Pegasos only")
    args = parser.parse_args()
    bench_kernel(args.quick)
    if not args.kernel:
        bench_linear(args.quick)


if __name__ == "__main__":
    main()
