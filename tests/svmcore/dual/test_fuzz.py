"""Seeded fuzz of the dual family: finite results or a ValueError, nothing else.

Every returned number must be finite; every refusal must be a ValueError
(NotSeparableError, a ValueError, only for a hard margin). Inputs span data scales
10⁻¹⁵⁰…10¹⁵⁰, C from 10⁻³⁰⁰ to 10³⁰⁰ and the kernels' γ, degree and ζ at their extremes.
"""

import warnings

import numpy as np
import pytest

from svmcore import NotSeparableError, datasets
from svmcore.dual.primal import primal_svm
from svmcore.dual.solver import dual_svm
from svmcore.feature_maps import phi2
from svmcore.qp import solve_qp

# Tolerance table: none — every returned number is checked to be finite and every refusal
# to be a ValueError; no value is compared.

pytestmark = pytest.mark.slow  # a long sweep (fuzz or scikit-learn's estimator checks)

N_CALLS = 240


def _log_uniform(rng, lo, hi):
    return float(10.0 ** rng.uniform(lo, hi))


def _kernel(rng):
    name = rng.choice(["linear", "poly", "rbf"])
    kw = {"kernel": str(name)}
    if name != "linear":
        kw["gamma"] = (
            _log_uniform(rng, -300, 300)
            if rng.random() < 0.5
            else float(rng.choice([0.01, 1.0, 100.0]))
        )
    if name == "poly":
        kw["degree"] = int(rng.choice([1, 2, 6, 20]))
        kw["coef0"] = float(rng.choice([0.0, 1.0, _log_uniform(rng, -300, 300)]))
    return kw


def _finite(*values):
    for v in values:
        if v is not None:
            assert np.all(np.isfinite(np.asarray(v, dtype=float))), v


def _one_call(rng, X0, y0):
    # half the draws inside the accepted ranges (they reach the solvers), half anywhere
    inside = rng.random() < 0.5
    X = X0 * (_log_uniform(rng, -3, 3) if inside else _log_uniform(rng, -150, 150))
    hard = rng.random() < 0.25
    C = None if hard else (_log_uniform(rng, -12, 10) if inside else _log_uniform(rng, -300, 300))
    which = rng.choice(["dual_smo", "dual_qp", "dual_textbook", "primal", "qp", "dualsvc"])
    try:
        if which.startswith("dual_"):
            kw = _kernel(rng)
            solver = "qp" if which == "dual_qp" else "smo"
            engine = "textbook" if which == "dual_textbook" else "fast"
            max_iter = 20 if solver == "qp" else 3000  # (the QP's polish: 1000 × max_iter)
            r = dual_svm(X, y0, C=C, solver=solver, engine=engine, max_iter=max_iter, **kw)
            _finite(r.alpha, r.b, r.dual_objective, r.primal_objective, r.duality_gap, r.w)
            _finite(r.decision_function(X), r.margin if np.isfinite(r.margin) else 0.0)
            assert r.alpha.min() >= 0 and (C is None or r.alpha.max() <= C)
        elif which == "primal":
            transform = phi2 if rng.random() < 0.3 else None
            r = primal_svm(X, y0, C=C, transform=transform, max_iter=60)
            _finite(r.w, r.b, r.objective, r.alpha, r.xi, r.decision_function(X))
        elif which == "qp":
            n = 6
            B = rng.normal(size=(n, n)) * _log_uniform(rng, -150, 150)
            ub = None if C is None else C
            p = rng.normal(size=n) * _log_uniform(rng, -150, 150)
            sol = solve_qp(B @ B.T, p, A_eq=np.ones((1, n)), c_eq=[0.0], lb=0.0, ub=ub, max_iter=60)
            _finite(sol.x, sol.z_box, sol.y, sol.objective)
        else:
            from svmcore.estimators.dual import DualSVC

            kw = _kernel(rng)
            est = DualSVC(C=C, max_iter=3000, **kw).fit(X, y0)
            _finite(est.decision_function(X), est.intercept_, est.dual_coef_)
        return "ok"
    except NotSeparableError:
        assert hard, "NotSeparableError for a soft margin"
        return "not separable"
    except ValueError as exc:
        assert str(exc), "a ValueError must say why"
        return "refused"


def test_fuzz_finite_or_value_error():
    rng = np.random.default_rng(20261124)
    X0, y0 = datasets.moons(n=16, random_state=3)
    counts = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # a silent overflow is a defect too
        for _ in range(N_CALLS):
            out = _one_call(rng, X0, y0)
            counts[out] = counts.get(out, 0) + 1
    assert counts.get("ok", 0) >= N_CALLS // 4, counts  # the fuzz reaches the solvers
    print("fuzz outcomes:", counts)


@pytest.mark.parametrize("C", [1e300, 1e11])
def test_huge_C_is_refused_not_nan(C):
    X, y = datasets.moons()
    for call in (
        lambda: dual_svm(X, y, kernel="rbf", C=C, solver="qp"),
        lambda: dual_svm(X, y, kernel="linear", C=C),
        lambda: primal_svm(X, y, C=C),
    ):
        with pytest.raises(ValueError, match="C must be at most"):
            call()
