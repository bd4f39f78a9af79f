"""The dual SVM's solvers agree, and a result is "optimal" only when its own KKT check passes."""

import numpy as np
import pytest

from svmcore import NotSeparableError, datasets
from svmcore.dual.solver import dual_svm

# Tolerance table ------------------------------------------------------------------------
TOL_FOUR_POINTS = 1e-12  # SMO textbook vs fast (and the lecture's α, b), seed 003's four points:
# α, b, objective, absolute (tol 1e-14)
TOL_SOFT = 1e-10  # SMO textbook vs fast, soft margin on moons / blobs: α, b, objective (tol 1e-12)
TOL_HARD_ALPHA = 1e-8  # SMO textbook vs fast, hard margin (large α): α, relative to max α
TOL_HARD_B = 1e-10  # SMO textbook vs fast, hard margin: b, absolute
TOL_QP_EQ = 1e-10  # QP: |yᵀα| (the box 0 ≤ α ≤ C holds exactly)
TOL_QP_VS_SMO = 1e-6  # QP vs SMO dual objective over the sliders' grid, relative, or the rounding
# floor n·eps·αᵀ|Q|α when larger
# "optimal" ⇒ m(α) − M(α) ≤ max(tol, 1e-7): exact (the solver's own rule)

FOUR_X, FOUR_Y = datasets.lin_four_points()


def _same(a, b, atol):
    np.testing.assert_allclose(a.alpha, b.alpha, rtol=0, atol=atol)
    assert abs(a.b - b.b) <= atol
    assert abs(a.dual_objective - b.dual_objective) <= atol


# -- engine="textbook" equals engine="fast" ---------------------------------------------
@pytest.mark.parametrize("C", [None, 0.3, 1.0, 10.0])
def test_textbook_equals_fast_on_lins_four_points(C):
    fast = dual_svm(FOUR_X, FOUR_Y, kernel="linear", C=C, tol=1e-14)
    book = dual_svm(FOUR_X, FOUR_Y, kernel="linear", C=C, tol=1e-14, engine="textbook")
    assert fast.status == book.status == "optimal"
    assert book.engine == "textbook" and fast.engine == "fast"
    _same(book, fast, TOL_FOUR_POINTS)
    if C is None or C >= 1:  # the lecture's worked example
        np.testing.assert_allclose(book.alpha, [0.5, 0.5, 1.0, 0.0], atol=TOL_FOUR_POINTS)
        assert abs(book.b + 1.0) <= TOL_FOUR_POINTS


@pytest.mark.parametrize("name", ["moons", "overlapping_blobs", "separable_blobs"])
@pytest.mark.parametrize(
    "kw",
    [dict(kernel="linear"), dict(kernel="poly", degree=3, gamma=0.5), dict(kernel="rbf")],
    ids=["linear", "poly", "rbf"],
)
def test_textbook_equals_fast_soft_margin(name, kw):
    # the fast engine also takes Newton steps on the free set: another path to the same
    # (here unique) optimum, so the two agree to the stopping rule's accuracy
    X, y = datasets.load(name, n=60, random_state=1)
    fast = dual_svm(X, y, C=1.0, tol=1e-12, **kw)
    book = dual_svm(X, y, C=1.0, tol=1e-12, engine="textbook", **kw)
    assert fast.status == book.status == "optimal"
    _same(book, fast, TOL_SOFT)


def test_textbook_equals_fast_hard_margin_rbf():
    # hard-margin α are large (Σα = 2/ρ²) and SMO converges linearly: the gap rule bounds
    # the error of α relative to its size
    X, y = datasets.load("moons", n=60, random_state=1)
    fast = dual_svm(X, y, kernel="rbf", tol=1e-12)
    book = dual_svm(X, y, kernel="rbf", tol=1e-12, engine="textbook")
    np.testing.assert_allclose(
        book.alpha, fast.alpha, rtol=0, atol=TOL_HARD_ALPHA * fast.alpha.max()
    )
    assert abs(book.b - fast.b) <= TOL_HARD_B


def test_engine_is_validated():
    with pytest.raises(ValueError, match="engine must be one of"):
        dual_svm(FOUR_X, FOUR_Y, kernel="linear", engine="slow")
    with pytest.raises(ValueError, match=r"engine=.textbook.*solver=.smo."):
        dual_svm(FOUR_X, FOUR_Y, kernel="linear", solver="qp", engine="textbook")


def test_textbook_step_is_one_pair_update():
    from svmcore.dual.smo.textbook import select_pair, step

    y = FOUR_Y
    Q = np.outer(y, y) * (FOUR_X @ FOUR_X.T)
    alpha, G = np.zeros(4), -np.ones(4)
    i, j, gap = select_pair(Q, y, alpha, G, np.inf)
    assert gap == 2.0  # v = y at α = 0: m = 1, M = −1
    new, G2, di, dj = step(Q, y, alpha, G, np.inf, i, j)
    assert y @ new == 0.0 and di == new[i] and dj == new[j]
    np.testing.assert_allclose(G2, Q @ new - 1.0, atol=1e-15)


# -- the trace: what each SMO step is -----------------------------------------------------
def test_smo_steps_say_their_kind():
    X, y = datasets.moons()
    r = dual_svm(X, y, kernel="rbf", C=1.0)
    s = r.trace.steps
    kind = np.asarray(s["kind"])
    assert set(kind.tolist()) <= {"pair", "newton", "polish"}
    pair = kind == "pair"
    assert np.all(np.asarray(s["i"])[pair] >= 0) and np.all(np.asarray(s["j"])[pair] >= 0)
    assert np.all(np.asarray(s["i"])[~pair] == -1) and np.all(np.asarray(s["delta_i"])[~pair] == 0)
    assert (~pair).sum() >= 1  # moons, C = 1 takes Newton steps (3 when first counted)
    book = dual_svm(X, y, kernel="rbf", C=1.0, engine="textbook")
    assert set(np.asarray(book.trace.steps["kind"]).tolist()) == {"pair"}


# -- the QP path: exact box, yᵀα = 0, honest status -----------------------------------
@pytest.mark.parametrize("C", [None, 0.1, 1.0, 100.0])
@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_qp_alpha_in_box_and_on_the_hyperplane(C, kernel):
    X, y = datasets.load("separable_blobs" if C is None else "moons", random_state=0)
    r = dual_svm(X, y, kernel=kernel, C=C, solver="qp", tol=1e-9)
    assert abs(float(y @ r.alpha)) <= TOL_QP_EQ
    assert r.alpha.min() >= 0.0
    if C is not None:
        assert r.alpha.max() <= C
    assert r.status == "optimal"
    snaps = r.trace.snapshots
    assert "ipm_residual" in snaps and "max_violation" in snaps  # each under its own name
    assert snaps["max_violation"][-1] <= max(r.tol, 1e-6)


GRID_POLY = [(Q, g, C) for Q in (2, 4, 6) for g in (0.01, 1.0, 100.0) for C in (0.01, 1.0, 1000.0)]
GRID_RBF = [(None, g, C) for g in (0.01, 1.0, 100.0) for C in (0.01, 1.0, 1000.0)]


@pytest.mark.parametrize("Q,gamma,C", GRID_POLY + GRID_RBF)
def test_qp_agrees_with_smo_over_the_sliders(Q, gamma, C):
    X, y = datasets.moons()  # the app's default: 100 points, noise 0.15, seed 0
    kw = (
        dict(kernel="rbf", gamma=gamma) if Q is None else dict(kernel="poly", degree=Q, gamma=gamma)
    )
    qp = dual_svm(X, y, C=C, solver="qp", tol=1e-9, **kw)
    smo = dual_svm(X, y, C=C, solver="smo", tol=1e-7, max_iter=20_000, **kw)
    # the QP's own check: optimal means m(α) − M(α) ≤ 1e-7 in the original units
    assert qp.status == "optimal", qp.message
    assert qp.trace.snapshots["max_violation"][-1] <= 1e-7
    if smo.status == "optimal":
        # ½αᵀQα − 1ᵀα cannot be computed more exactly than n·eps·αᵀ|Q|α (Q reaches 10¹⁶
        # at Q = 6, γ = 100, where f ≈ −1.5·10⁻⁸); 1e-6 relative is above it on this grid
        Qa = np.abs(np.outer(y, y) * qp.kernel(X))
        floor = y.shape[0] * np.finfo(float).eps * float(qp.alpha @ Qa @ qp.alpha)
        diff = abs(qp.dual_objective - smo.dual_objective)
        assert diff <= max(TOL_QP_VS_SMO * abs(smo.dual_objective), floor)
    else:
        # SMO from α = 0 needs > 10⁵ pair updates on these rank-6 problems (Q = 2, γ = 100;
        # libsvm takes 3.8·10⁸): it says so, and the QP's answer is the better one
        assert smo.status == "max_iter" and smo.message
        assert qp.dual_objective <= smo.dual_objective + 1e-9 * abs(smo.dual_objective)


def test_qp_on_poly5_moons_at_large_C_is_optimal_and_agrees_with_smo():
    X, y = datasets.moons()
    qp = dual_svm(X, y, kernel="poly", degree=5, gamma=10.0, C=1000.0, solver="qp", tol=1e-9)
    smo = dual_svm(X, y, kernel="poly", degree=5, gamma=10.0, C=1000.0, tol=1e-6)
    assert qp.status == "optimal"
    assert np.mean(qp.predict(X) == y) == np.mean(smo.predict(X) == y)
    assert abs(qp.duality_gap) <= 1e-6 * abs(qp.primal_objective) + 1e-6
    # and with the loose default tol the IPM's answer no longer passes as optimal unchecked
    loose = dual_svm(X, y, kernel="poly", degree=5, gamma=10.0, C=1000.0, solver="qp")
    assert loose.status == "optimal" and loose.trace.snapshots["max_violation"][-1] <= 1e-3


def _big_points():
    X, y = datasets.separable_blobs(n=8, random_state=0)
    return X / np.abs(X).max() * 1e6, y


def test_hard_margin_at_1e6_linear_finds_the_support_vectors():
    X, y = _big_points()
    for solver in ("smo", "qp"):
        r = dual_svm(X, y, kernel="linear", solver=solver)
        assert r.status == "optimal" and r.support_.size >= 2
        assert np.all(r.predict(X) == y)


def test_hard_margin_at_1e6_poly6_is_not_called_optimal():
    # (1 + x·x')⁶ ≈ 10⁷²: ζ = 1 is lost beside γxᵀx' in double precision, so the Gram
    # matrix no longer holds the separation; the result must say so, not claim an optimum
    X, y = _big_points()
    for solver in ("smo", "qp"):
        kw = dict(kernel="poly", degree=6, gamma=1.0, coef0=1.0, solver=solver)
        r = dual_svm(X, y, max_iter=20_000 if solver == "smo" else 100, **kw)
        assert r.status != "optimal" and not r.is_optimal
        assert "rescale X" in r.message
    # rescaled to [−1, 1] (γ = 10⁻¹² is the same kernel up to ζ's share) it is solved
    r = dual_svm(X / 1e6, y, kernel="poly", degree=6, gamma=1.0, coef0=1.0, solver="qp")
    assert r.status == "optimal" and np.all(r.predict(X / 1e6) == y)


def test_hard_margin_thin_margin_at_1e6_says_rescale_not_just_not_separable():
    # ±x give the same top-degree features, so separable points at ±1e6 keep only a
    # margin far below 1e-5·max‖Φ(x)‖: the refusal must say so, not call them inseparable
    X = np.array([[1, 1], [1, -1], [-1, 1], [-1, -1], [2, 2], [2, -2], [-2, 2], [-2, -2.0]])
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    for solver in ("smo", "qp"):
        try:
            r = dual_svm(X * 5e5, y, kernel="poly", degree=6, gamma=1.0, coef0=1.0, solver=solver)
        except NotSeparableError as exc:
            assert "rescale X" in str(exc) and "too thin" in str(exc)
        else:
            assert (r.is_optimal and np.all(r.predict(X * 5e5) == y)) or "rescale X" in r.message


def test_c_beyond_the_limit_is_refused_by_name():
    X, y = datasets.moons()
    for C in (1e11, 1e300, 1e-13):
        with pytest.raises(ValueError, match=r"^C must be at (most|least)"):
            dual_svm(X, y, kernel="rbf", C=C)


def test_dualsvc_engine_textbook_gives_the_same_model():
    from svmcore.estimators.dual import DualSVC

    X, y = datasets.load("moons", n=60, random_state=1)
    fast = DualSVC(C=1.0, gamma=1.0, tol=1e-12).fit(X, y)
    book = DualSVC(C=1.0, gamma=1.0, tol=1e-12, engine="textbook").fit(X, y)
    np.testing.assert_allclose(book.decision_function(X), fast.decision_function(X), atol=1e-9)
    with pytest.raises(ValueError, match="engine must be one of"):
        DualSVC(engine="slow").fit(X, y)
