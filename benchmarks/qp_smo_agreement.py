"""The dual's agreement tables: QP vs SMO over the dual page's sliders, primal vs dual over C.

The dual page's default data (``datasets.moons()``: 100 points, noise 0.15, seed 0); the
polynomial kernel over Q ∈ {2, …, 6}, γ ∈ {0.01, 0.1, 1, 10, 100}, C ∈ {0.01, 1, 1000}
(the sliders' ranges, ζ = 1) and the Gaussian kernel over the same γ and C. For each:
the QP's status and its own KKT check m(α) − M(α), whether it needed the SMO polish, SMO's
status, and the relative difference of the two dual objectives. Then ``primal_svm`` against
the dual QP over C = 10⁻⁶ … 10¹⁰.

    python benchmarks/qp_smo_agreement.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from svmcore import datasets
from svmcore.dual.primal import primal_svm
from svmcore.dual.solver import dual_svm


def agreement(quick: bool) -> None:
    X, y = datasets.moons()
    gammas = (0.01, 1.0, 100.0) if quick else (0.01, 0.1, 1.0, 10.0, 100.0)
    degrees = (2, 4, 6) if quick else (2, 3, 4, 5, 6)
    settings = [("poly", Q, g, C) for Q in degrees for g in gammas for C in (0.01, 1.0, 1000.0)]
    settings += [("rbf", None, g, C) for g in gammas for C in (0.01, 1.0, 1000.0)]
    print("QP vs SMO on datasets.moons() (n = 100), QP tol 1e-9, SMO tol 1e-7")
    print(
        f"{'kernel':6s} {'Q':>2s} {'γ':>6s} {'C':>7s} {'QP status':>10s} {'m−M (QP)':>9s} "
        f"{'polish':>6s} {'SMO':>8s} {'|ΔD|/|D|':>9s} {'acc QP':>6s} {'acc SMO':>7s}"
    )
    worst, n_bad = 0.0, 0
    for kernel, Q, g, C in settings:
        kw = {"kernel": kernel, "gamma": g} | ({"degree": Q} if Q else {})
        qp = dual_svm(X, y, C=C, solver="qp", tol=1e-9, **kw)
        smo = dual_svm(X, y, C=C, solver="smo", tol=1e-7, **kw)
        rel = abs(qp.dual_objective - smo.dual_objective) / abs(smo.dual_objective)
        if smo.status == "optimal":
            worst = max(worst, rel)
        n_bad += qp.status == "optimal" and qp.trace.snapshots["max_violation"][-1] > 1e-6
        print(
            f"{kernel:6s} {Q or '':>2} {g:6g} {C:7g} {qp.status:>10s} "
            f"{qp.trace.snapshots['max_violation'][-1]:9.1e} "
            f"{'yes' if qp.trace.info['polished'] else 'no':>6s} {smo.status:>8s} {rel:9.1e} "
            f"{np.mean(qp.predict(X) == y):6.2f} {np.mean(smo.predict(X) == y):7.2f}"
        )
    print(f"worst relative difference where SMO converged: {worst:.1e}; results called optimal")
    print(f"whose own KKT check fails: {n_bad} of {len(settings)}")


def primal_vs_dual(quick: bool) -> None:
    print("\nprimal_svm vs dual_svm(kernel='linear', solver='qp') over C (P* = −D*)")
    print(f"{'data':18s} {'C':>7s} {'primal':>8s} {'polished':>8s} {'|P − (−D)|/P':>12s}")
    for name in ("separable_blobs", "overlapping_blobs", "moons"):
        X, y = datasets.load(name, random_state=0)
        for C in 10.0 ** np.arange(-6, 11, 4 if quick else 2):
            p = primal_svm(X, y, C=C)
            d = dual_svm(X, y, kernel="linear", C=C, solver="qp", tol=1e-10)
            rel = abs(p.objective + d.dual_objective) / abs(p.objective)
            print(f"{name:18s} {C:7.0e} {p.status:>8s} {p.polished!s:>8s} {rel:12.1e}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the tests' coarse grid only")
    args = ap.parse_args(argv)
    agreement(args.quick)
    primal_vs_dual(args.quick)


if __name__ == "__main__":
    main()
