"""Convergence to the optimum, the pure part: P*, the gaps, the guide, the slope.

An SGD entry of the registry names its exact optimum (``spec.optimum``: one of
:func:`binary_optimum`, :func:`multiclass_optimum`): the minimum P* of the SAME objective
the run minimises (the same λ, bias choice, class weights, kernel and Δ), from svmcore's
own exact solvers (:func:`svmcore.optimum.soft_svm.soft_svm_optimum`,
:func:`svmcore.optimum.multiclass.multiclass_svm_optimum`). The averaged output w̄_t and the
last iterate w_{t+1} of one run come from two runs with the same seed and sampling that
differ only in ``averaging`` (:func:`companion_params`): the sampled indices, hence the
iterates, are the same.

The guide line is the text's rate with its constant anchored on the data, as the screen
says: SSBD's E[P(w̄_T)] − P* ≤ O((1 + ln T)/(λT)) (Theorem 14.11 for a λ-strongly convex
objective, used in §15.5) is drawn as c (1 + ln t)/(λt) with the smallest c that puts it
above every plotted averaged gap; Corollary 17.2's O(1/√T) (fixed η, no regulariser) as
c/√t, anchored the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmcore.kernels import make_kernel
from svmcore.optimum.multiclass import multiclass_svm_optimum
from svmcore.optimum.soft_svm import soft_svm_optimum

__all__ = [
    "RATES",
    "Curves",
    "binary_optimum",
    "companion_params",
    "fit_slope",
    "gap_curves",
    "multiclass_optimum",
    "objective_params",
    "rate_guide",
]

#: Options of a run that do not change its objective (so not P*): dropped from the key
#: of the cached exact optimum. The projection keeps the minimiser (see binary_optimum).
RUN_ONLY = (
    "T",
    "random_state",
    "averaging",
    "schedule",
    "sampling",
    "batch_size",
    "projection",
)

#: The guide line per rate: its shape g(t, λ) and the label shown.
RATES = {
    "log": "(1 + ln t)/(λt) — SSBD Thm 14.11 / §15.5, for the averaged output",
    "sqrt": "1/√t — SSBD Corollary 17.2 (fixed η), for the averaged output",
}


def binary_optimum(X, y, kw: dict):
    """P* of the soft-SVM objective of a binary SGD run with svmcore keyword arguments ``kw``
    (:func:`svmcore.pegasos` / :func:`svmcore.kernel_pegasos`).

    The projection onto the ball ‖w‖ ≤ 1/√λ does not change the minimiser (it lies in
    that ball: Shalev-Shwartz et al. 2011, Thm 1), so P* is the same with or without it.
    Raises ``ValueError`` naming the option when no exact solver applies (``w_ref``).
    """
    if kw.get("w_ref") is not None:
        raise ValueError(
            "w_ref: the transfer objective λ/2‖w − w_r‖² + … has no exact solver here; "
            "untick 'Regularize towards w_r' to compare with P*"
        )
    kernel = make_kernel(kw.get("kernel") or "linear")
    bias = kw.get("bias", "none")
    # the linear kernel's dual has rank d: the interior point takes milliseconds where
    # coordinate descent needs thousands of sweeps at small λ
    method = "ipm" if kernel.name == "linear" and bias != "free" else "cd"
    return soft_svm_optimum(
        X,
        y,
        lam=kw["lam"],
        kernel=kernel,
        bias=bias,
        class_weight=kw.get("class_weight"),
        tol=1e-10,
        max_iter=5_000,  # sweeps: a bound on the wait (the status and gap then say so)
        method=method,
    )


def multiclass_optimum(X, y, kw: dict):
    """P* of the Crammer–Singer objective of a :func:`svmcore.multiclass_pegasos` run."""
    kernel = kw.get("kernel")
    if kernel is not None:  # the run's own kernel: a Kernel, or a name with its parameters
        kernel = make_kernel(
            kernel,
            gamma=kw.get("gamma", 1.0),
            degree=kw.get("degree", 3),
            coef0=kw.get("coef0", 1.0),
        )
    return multiclass_svm_optimum(
        X,
        y,
        lam=kw["lam"],
        kernel=kernel,
        delta=kw.get("delta"),
        bias=kw.get("bias", True),
        class_weight=kw.get("class_weight"),
        tol=1e-10,
        # a bound on the wait: when it is reached, the certified gap is shown as P*'s
        # resolution (block ascent can be slow on a near-singular K̃)
        max_iter=100_000,
    )


def objective_params(params: dict) -> dict:
    """The page's ``params`` without the options that do not change the objective."""
    return {name: value for name, value in params.items() if name not in RUN_ONLY}


def companion_params(params: dict) -> dict | None:
    """The same run with the other output (``averaging`` "average" ↔ "last"), or None when
    the run has no such option. Same seed and sampling: the same iterates."""
    if "averaging" not in params:
        return None
    other = "last" if params["averaging"] == "average" else "average"
    return {**params, "averaging": other}


@dataclass(frozen=True)
class Curves:
    """P(w_t) − P* of the averaged output and the last iterate at the snapshot times ``t``."""

    t: np.ndarray
    averaged: np.ndarray
    last: np.ndarray | None


def gap_curves(trace_avg, trace_last, P_star: float) -> Curves:
    """The suboptimality curves from the two runs' traces (snapshots "objective").

    Parameters
    ----------
    trace_avg, trace_last : Trace
        The runs with ``averaging="average"`` and ``"last"`` (``trace_last`` may be None).
    P_star : float
        The exact minimum of their objective.
    """
    t = np.asarray(trace_avg.t, dtype=np.int64)
    avg = np.asarray(trace_avg.snapshots["objective"], dtype=float) - P_star
    last = None
    if trace_last is not None:
        if not np.array_equal(np.asarray(trace_last.t), t):
            raise ValueError("trace_last must have the snapshot times of trace_avg")
        last = np.asarray(trace_last.snapshots["objective"], dtype=float) - P_star
    return Curves(t, avg, last)


def rate_guide(t, gap, lam: float | None, rate: str) -> tuple[np.ndarray, float]:
    """The guide c·g(t) with the smallest c ≥ 0 that lies above every positive ``gap``.

    ``rate`` "log": g = (1 + ln t)/(λt); "sqrt": g = 1/√t. Returns (c·g(t), c).
    """
    if rate not in RATES:
        raise ValueError(f"rate must be one of {sorted(RATES)}, got {rate!r}")
    t = np.asarray(t, dtype=float)
    if rate == "log":
        if lam is None or not lam > 0:
            raise ValueError(f"lam must be > 0 for the (1 + ln t)/(λt) guide, got {lam!r}")
        g = (1.0 + np.log(t)) / (lam * t)
    else:
        g = 1.0 / np.sqrt(t)
    gap = np.asarray(gap, dtype=float)
    ok = gap > 0
    c = float(np.max(gap[ok] / g[ok])) if np.any(ok) else 0.0
    return c * g, c


def fit_slope(t, gap, *, decades: float = 2.0, floor: float = 0.0) -> float:
    """The least-squares slope of log(gap) against log(t) over the last ``decades`` decades
    of t (points with gap > ``floor`` only); NaN with fewer than 3 such points."""
    t = np.asarray(t, dtype=float)
    gap = np.asarray(gap, dtype=float)
    keep = (t >= t.max() / 10.0**decades) & (gap > floor) & (t > 0)
    if np.count_nonzero(keep) < 3:
        return float("nan")
    return float(np.polyfit(np.log10(t[keep]), np.log10(gap[keep]), 1)[0])
