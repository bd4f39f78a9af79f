"""The faces of the dual that ``solver="auto"`` reads its optimum off (svmcore.dual.auto).

Lin's dual (seed 003), min ½αᵀQα − 1ᵀα subject to yᵀα = 0 and 0 ≤ α ≤ C, is on a face
(α_n = 0 on L, α_n = C on U, free on F) a linear system; the KKT conditions say which
face is the optimum's. The interior point's crossover corrects a face guessed from its
iterate, the active-set method gives up early from a poor guess, and the snapshots'
b and m(α) − M(α) are those of libsvm's rule (``bias_from_v``, ``gap_m_M``) state by state.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer

import svmcore.dual.active_set as active_set_module
import svmcore.dual.auto as auto
import svmcore.dual.linear_ipm as linear_ipm_module
from svmcore import datasets
from svmcore.dual.active_set import active_set
from svmcore.dual.auto import gram
from svmcore.dual.linear_ipm import _crossover, _face_solve, linear_ipm
from svmcore.dual.result import bias_from_v, gap_m_M
from svmcore.dual.smo.fast import _bias_and_gap
from svmcore.dual.smo.log import StepLog, Thinned
from svmcore.kernels import make_kernel

# Tolerance table ------------------------------------------------------------------------
TOL_EXACT = 1e-10  # m(α) − M(α) of an exact face (rounding only)
TOL_FACE = 1e-9  # residual of the face's linear system, relative to its right-hand side
TOL_NEAREST = 1e-12  # a null direction of a singular face keeps the start's component
TOL_MEAN = 1e-14  # b as a mean of the free v: summation order only
TOL_SAME = 1e-9  # α of the same face solved from two starts, relative to C


def optimum_face(X, y, C):
    """The optimal α (the interior point's crossover) and its faces F (free) and U (= C)."""
    alpha, _, how, _ = linear_ipm(X, y, C, tol=TOL_EXACT)
    assert how == "crossover"
    F = np.flatnonzero((alpha > 0) & (alpha < C))
    return alpha, F, alpha >= C


def breast_cancer():
    """scikit-learn's breast cancer data, standardized, malignant vs benign (d = 30)."""
    bunch = load_breast_cancer()
    X = (bunch.data - bunch.data.mean(0)) / bunch.data.std(0)
    return X, np.where(bunch.target == 1, 1.0, -1.0)


@pytest.mark.parametrize("wrong", ["extra free", "missing free", "bound as free"])
def test_crossover_corrects_a_face_off_by_one(wrong):
    """A guess one multiplier off the optimum's face is corrected to it: an α = 0 with the
    smallest bound multiplier guessed free, a free one guessed at 0, an α = C guessed free."""
    X, y = breast_cancer()
    C = 10.0
    alpha, F, U = optimum_face(X, y, C)
    v = y - X @ ((alpha * y) @ X)
    b = bias_from_v(v, alpha, y, C)
    mu = y * (b - v)  # the bound multipliers: ≥ 0 where α = 0, ≤ 0 where α = C
    if wrong == "extra free":
        L = np.flatnonzero(alpha == 0)
        Fi = np.sort(np.append(F, L[np.argmin(mu[L])]))
    elif wrong == "missing free":
        Fi = F[1:]
    else:
        j = np.flatnonzero(U)[np.argmax(mu[U])]
        U = U.copy()
        U[j] = False
        Fi = np.sort(np.append(F, j))
    Z = y[:, None] * X
    face = _crossover(Z, y, C, Fi, U, np.append(alpha[Fi], b), TOL_EXACT, X)
    assert face is not None
    a, v_face = face
    assert gap_m_M(v_face, a, y, C) <= TOL_EXACT
    np.testing.assert_allclose(v_face, y - X @ ((a * y) @ X), atol=TOL_EXACT)
    np.testing.assert_allclose(a, alpha, atol=TOL_SAME * C)


def test_crossover_tries_each_face_guess_once(monkeypatch):
    """The interior point does not solve a face it has already found wanting."""
    X, y = breast_cancer()
    guesses = []

    def spy(Z, y_, C, Fi, U, x0, tol, X_):
        guesses.append((Fi.tobytes(), U.tobytes()))
        return _crossover(Z, y_, C, Fi, U, x0, tol, X_)

    monkeypatch.setattr(linear_ipm_module, "_crossover", spy)
    for C in (1.0, 100.0):
        guesses.clear()
        _, _, how, _ = linear_ipm(X, y, C, tol=1e-3)
        assert how == "crossover" and guesses
        assert all(g != h for g, h in itertools.pairwise(guesses))


def test_face_solve_singular_face_takes_the_nearest_solution():
    """A repeated free point makes Z_F Z_Fᵀ singular: the face's solutions form a line
    along e_i − e_j, and the one nearest the start keeps the start's α_j − α_i."""
    X, y = datasets.load("overlapping_blobs", n=300, random_state=4)
    C = 10.0
    alpha, F, U = optimum_face(X, y, C)
    i = F[0]
    n = y.shape[0]
    X2, y2 = np.vstack([X, X[i : i + 1]]), np.append(y, y[i])  # point n repeats point i
    Fi, U2 = np.append(F, n), np.append(U, False)
    x0 = np.append(np.append(alpha, 0.0)[Fi], 0.0)
    delta = 0.25 * min(alpha[i], C - alpha[i])
    x0[0], x0[-2] = 0.5 * alpha[i] - delta, 0.5 * alpha[i] + delta  # α_n − α_i = 2δ
    Z = y2[:, None] * X2
    face = _face_solve(Z, y2, C, Fi, U2, x0)
    assert face is not None
    a, b, in_box = face
    assert in_box
    ZF = Z[Fi]
    lhs = ZF @ (ZF.T @ a[Fi]) + y2[Fi] * b
    rhs = 1.0 - ZF @ (C * (U2.astype(float) @ Z))
    assert np.abs(lhs - rhs).max() <= TOL_FACE * (1.0 + np.abs(rhs).max())
    assert a[n] - a[i] == pytest.approx(2.0 * delta, abs=TOL_NEAREST)
    assert a[n] + a[i] == pytest.approx(alpha[i], abs=1e-8)  # the same w: the optimum


def _no_snapshot(*args, **kwargs):
    """SMO's snapshot callback, unused here."""


def test_active_set_gives_up_early_from_a_poor_guess(monkeypatch):
    """From a guess that keeps moving many multipliers, SMO is cheaper than solving face
    after face: the active set stops at its third guess (here, without it, it would solve
    six faces and then cycle)."""
    X, y = breast_cancer()
    C = 0.3
    K = gram(X, make_kernel("rbf", gamma=1.0 / X.shape[1]))
    a, v = np.zeros(y.shape[0]), y.copy()
    log = StepLog(Thinned(4), 0)
    auto._smo(K, y, a, v, C, 1.0, 10**6, log=log, t0=0, f0=0.0, snap=_no_snapshot, gauss=True)
    _, _, its, ok = active_set(K, y, C, a.copy(), v.copy(), max_iter=12)
    assert not ok and its == 2
    monkeypatch.setattr(active_set_module, "ACTIVE_SET_SLOW", 1)  # never too slow: the rule off
    _, _, its_off, ok_off = active_set(K, y, C, a.copy(), v.copy(), max_iter=12)
    assert not ok_off and its_off > its


@pytest.mark.parametrize("C", [1.0, 5.0, np.inf])
def test_snapshot_bias_and_gap_are_libsvms_rule(C):
    """Row by row, the stacked snapshots' b and m − M equal bias_from_v and gap_m_M."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        n, S = int(rng.integers(2, 25)), int(rng.integers(1, 5))
        y = rng.choice([-1.0, 1.0], n)
        top = C if np.isfinite(C) else 7.0
        A = rng.choice([0.0, 0.5, top], (S, n))
        V = rng.normal(size=(S, n))
        b, gap = _bias_and_gap(V, A, y, C)
        for k in range(S):
            assert b[k] == pytest.approx(bias_from_v(V[k], A[k], y, C), rel=TOL_MEAN, abs=TOL_MEAN)
            if np.isfinite(gap[k]):
                assert gap[k] == gap_m_M(V[k], A[k], y, C)
            else:  # I_up or I_low empty: gap_m_M reports 0
                assert gap_m_M(V[k], A[k], y, C) == 0.0
