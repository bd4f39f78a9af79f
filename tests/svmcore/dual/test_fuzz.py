"""Seeded fuzz of the dual family: finite results or a ValueError, nothing else.

Every returned number must be finite (the margin 1/‖w‖ included); every
refusal must be a ValueError (NotSeparableError, a ValueError, only for a hard margin).
Inputs span data scales 10⁻³⁰⁰…10¹⁵⁰, C from 10⁻³⁰⁰ to 10³⁰⁰ and the kernels' γ, degree and
ζ at their extremes; a second sweep feeds hostile arguments (strings, NaN, ±inf, bools,
huge and tiny numbers) to every parameter of the dual, primal and exact-optimum solvers.
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
    X = X0 * (_log_uniform(rng, -3, 3) if inside else _log_uniform(rng, -300, 150))
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
            _finite(r.decision_function(X), r.margin)  # inf only for w = 0: not on moons
            assert r.alpha.min() >= 0 and (C is None or r.alpha.max() <= C)
        elif which == "primal":
            transform = phi2 if rng.random() < 0.3 else None
            r = primal_svm(X, y0, C=C, transform=transform, max_iter=60)
            _finite(r.w, r.b, r.objective, r.alpha, r.xi, r.decision_function(X), r.margin)
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


# -- hostile arguments and tiny data: refused by name, or finite --

XM, YM = datasets.moons(n=16, random_state=3)


def _dual_calls():
    from svmcore.estimators.dual import DualSVC
    from svmcore.optimum.soft_svm import soft_svm_optimum
    from tests.api_fuzz import hostile_calls

    yield from hostile_calls(
        dual_svm,
        {"X": XM, "y": YM, "kernel": "rbf", "C": 1.0, "max_iter": 3000},
        ["C", "tol", "max_iter", "gamma", "cache_size", "n_snapshots", "n_steps"],
    )
    yield from hostile_calls(
        dual_svm,
        {"X": XM, "y": YM, "kernel": "poly", "C": 1.0, "max_iter": 3000},
        ["degree", "coef0"],
    )
    yield from hostile_calls(
        primal_svm, {"X": XM, "y": YM, "C": 1.0, "max_iter": 60}, ["C", "tol", "max_iter"]
    )
    yield from hostile_calls(
        soft_svm_optimum, {"X": XM, "y": YM, "lam": 0.1, "max_iter": 2000}, ["lam", "tol"]
    )
    yield from hostile_calls(
        lambda **kw: DualSVC(**kw).fit(XM, YM),
        {"max_iter": 3000},
        ["C", "gamma", "tol"],
        label="DualSVC",
    )
    for scale in (1e-300, 1e-250, 1e-200, 1e-160, 1e-100):
        Xs = XM * scale
        for kernel in ("linear", "rbf", "poly"):
            yield (
                f"dual_svm({kernel}, X·{scale:g})",
                "X",
                lambda k=kernel, Xs=Xs: dual_svm(Xs, YM, kernel=k, C=1.0, gamma=1.0, max_iter=3000),
            )
            yield (
                f"DualSVC({kernel}, X·{scale:g})",
                "X",
                lambda k=kernel, Xs=Xs: (
                    DualSVC(kernel=k, C=1.0, gamma=1.0, max_iter=3000).fit(Xs, YM).results_
                ),
            )
        yield f"primal_svm(X·{scale:g})", "X", lambda Xs=Xs: primal_svm(Xs, YM, C=1.0)


def test_hostile_dual_arguments_are_refused_by_name_or_finite():
    from tests.api_fuzz import sweep

    counts, failures = sweep(_dual_calls())
    print("dual hostile-argument outcomes:", counts)
    assert not failures, failures[:10]
    assert counts["refused"] > 80 and counts.get("finite", 0) > 20


def test_a_tiny_linear_problem_has_its_finite_margin():
    from svmcore.estimators.dual import DualSVC

    r = dual_svm(XM * 1e-300, YM, kernel="linear", C=1.0)
    # 1/‖w‖ computed without squaring tiny numbers: the same as at scale 1 times 1e300
    w_unit = r.w * 1e300
    assert r.margin == pytest.approx(1e300 / np.linalg.norm(w_unit), rel=1e-12)
    est = DualSVC(C=1.0, kernel="linear").fit(XM * 1e-300, YM)
    assert np.isfinite(est.results_[0].margin)
    assert np.isfinite(primal_svm(XM * 1e-300, YM, C=1.0).margin)


def test_a_kernel_that_cannot_tell_the_points_apart_is_named():
    with pytest.raises(ValueError, match="cannot tell the points of X apart"):
        dual_svm(XM * 1e-300, YM, kernel="rbf", gamma=1.0, C=1.0)


@pytest.mark.parametrize("which", ["primal", "optimum_cd", "optimum_ipm"])
def test_progress_reaches_the_exact_solvers_and_stops_them(which):
    from svmcore.optimum.soft_svm import soft_svm_optimum

    def run(progress):
        if which == "primal":
            return primal_svm(XM, YM, C=1.0, progress=progress)
        method = "ipm" if which == "optimum_ipm" else "cd"
        return soft_svm_optimum(XM, YM, lam=1e-3, method=method, progress=progress)

    seen = []
    run(lambda k, K: seen.append((k, K)))
    assert len(seen) >= 2 and all(k <= K for k, K in seen)

    class Stop(Exception):
        pass

    def stop(k, K):
        if k >= 1:
            raise Stop

    with pytest.raises(Stop):
        run(stop)
    with pytest.raises(TypeError, match="progress must be a callable"):
        run(3)
